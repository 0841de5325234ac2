// Text roles and the text column; see text.hpp.
#include "story/draw/text.hpp"

#include <algorithm>

#include "story/scene/layout.hpp"
#include "story/text/lang.hpp"

namespace story {

TextStyle style_of(Role r) {
    switch (r) {
        case Role::title:
            return {frame::kTitleSize, Weight::semibold, false};
        case Role::heading:
            return {frame::kHeadingSize, Weight::semibold, false};
        case Role::body:
            return {frame::kBodySize, Weight::regular, false};
        case Role::label:
            return {frame::kLabelSize, Weight::medium, false};
        case Role::note:
            return {frame::kLabelSize, Weight::regular, false};
        case Role::small:
            return {frame::kMinTextSize, Weight::regular, false};
        case Role::value:
            return {frame::kHeadingSize, Weight::semibold, true};
        case Role::figure:
            return {frame::kLabelSize, Weight::semibold, true};
    }
    return {};
}

TextStyle weighted(TextStyle s, Weight w) {
    s.weight = w;
    return s;
}

TextStyle tabular(TextStyle s) {
    s.tabular = true;
    return s;
}

TextStyle sized(TextStyle s, double px) {
    s.size = px;
    return s;
}

TextStyle in_language(TextStyle s, std::string lang) {
    s.lang = std::move(lang);
    return s;
}

double centred_baseline(const TextMetrics& m, std::string_view text, const TextStyle& style,
                        double y) {
    const TextExtent e = m.measure(text, style);
    return y + (e.ascent - e.descent) / 2;
}

double middle_of(const TextMetrics& m, const Text& line) {
    const TextExtent e = m.measure(line.text, line.style);
    return line.y - (e.ascent - e.descent) / 2;
}

TextColumn::TextColumn(const TextMetrics& m, double x, double top, Align align)
    : metrics_(m), x_(x), top_(top), bottom_(top), align_(align) {}

TextColumn& TextColumn::line(std::string text, const TextStyle& style, Color color) {
    const TextExtent e = metrics_.measure(text, style);
    const double baseline = bottom_ + (first_ ? 0 : kLeading * style.size) + e.ascent;
    first_ = false;
    bottom_ = baseline + e.descent;
    lines_.push_back({x_, baseline, std::move(text), style, color, align_});
    return *this;
}

TextColumn& TextColumn::line(std::string text, Role role, Color color) {
    return line(std::move(text), style_of(role), color);
}

TextColumn& TextColumn::wrapped(const std::string& text, const TextStyle& style, Color color,
                                double max_width) {
    const bool flip = align_ == Align::left && is_rtl(style.lang);
    for (std::string& l : wrap_text(metrics_, text, style, max_width)) {
        line(std::move(l), style, color);
        if (!flip) continue;
        lines_.back().x = x_ + max_width;
        lines_.back().align = Align::right;
    }
    return *this;
}

TextColumn& TextColumn::gap(double px) {
    bottom_ += px;
    return *this;
}

TextColumn& TextColumn::centre_on(double y) {
    const double dy = y - (top_ + bottom_) / 2;
    for (Text& t : lines_) t.y += dy;
    top_ += dy;
    bottom_ += dy;
    return *this;
}

void TextColumn::add_to(Scene& s, double alpha) const {
    if (alpha <= 0) return;
    for (const Text& t : lines_) s.add(t, std::min(alpha, 1.0));
}

}  // namespace story

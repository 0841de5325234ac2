// Shared frame drawing: title top-left, stat panel top-right, captions in the bottom band.
#include "story/layout.hpp"

#include <algorithm>
#include <sstream>

namespace story {

std::vector<std::string> wrap_text(const TextMetrics& m, const std::string& text,
                                   const TextStyle& style, double max_width) {
    std::istringstream words(text);
    std::vector<std::string> lines;
    std::string word, line;
    while (words >> word) {
        const std::string candidate = line.empty() ? word : line + " " + word;
        if (!line.empty() && m.measure(candidate, style).advance > max_width) {
            lines.push_back(line);
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

std::vector<std::string> wrap_balanced(const TextMetrics& m, const std::string& text,
                                       const TextStyle& style, double max_width) {
    const std::vector<std::string> greedy = wrap_text(m, text, style, max_width);
    if (greedy.size() < 2) return greedy;
    // The narrowest width (to a pixel) that still needs no more lines than max_width does.
    double fits = max_width, too_narrow = 0;
    while (fits - too_narrow > 1) {
        const double mid = (fits + too_narrow) / 2;
        (wrap_text(m, text, style, mid).size() <= greedy.size() ? fits : too_narrow) = mid;
    }
    return wrap_text(m, text, style, fits);
}

double fit_size(const TextMetrics& m, const std::string& text, TextStyle style, double max_width,
                double min_size) {
    const double width = m.measure(text, style).advance;
    if (width <= max_width || width <= 0) return style.size;
    return std::max(min_size, style.size * max_width / width);
}

namespace {

void add_title(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c) {
    TextStyle style{frame::kTitleSize, Weight::semibold, false};
    const double right = c.stats.empty() ? frame::kRight : kStatPanelLeft - 40;
    style.size = fit_size(m, c.title, style, right - frame::kLeft, frame::kHeadingSize);
    const double baseline = frame::kTop + m.measure(c.title, style).ascent;
    s.add(Text{frame::kLeft, baseline, c.title, style, p.text, Align::left}, c.alpha);
}

void add_stat_panel(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c) {
    const double top = frame::kTop - 16, height = 124, width = frame::kRight - kStatPanelLeft;
    s.add(Rect{kStatPanelLeft, top, width, height, 12, p.panel, p.grid, 2}, c.alpha);
    const double cell = width / static_cast<double>(c.stats.size());
    const TextStyle label{frame::kLabelSize, Weight::medium, false};
    // A detail line moves every label and value up (they stay in one row) rather than growing
    // the panel into the picture below it.
    const bool detailed = std::any_of(c.stats.begin(), c.stats.end(),
                                      [](const Stat& st) { return !st.detail.empty(); });
    for (std::size_t i = 0; i < c.stats.size(); ++i) {
        const double right = kStatPanelLeft + cell * static_cast<double>(i + 1) - 24;
        TextStyle value{frame::kBodySize + 6, Weight::semibold, true};
        value.size = fit_size(m, c.stats[i].value, value, cell - 40);
        s.add(
            Text{right, top + (detailed ? 36 : 44), c.stats[i].label, label, p.muted, Align::right},
            c.alpha);
        s.add(
            Text{right, top + (detailed ? 80 : 98), c.stats[i].value, value, p.text, Align::right},
            c.alpha);
        if (c.stats[i].detail.empty()) continue;
        TextStyle detail{24, Weight::regular, true};
        detail.size = fit_size(m, c.stats[i].detail, detail, cell - 40);
        s.add(Text{right, top + 110, c.stats[i].detail, detail, p.muted, Align::right}, c.alpha);
    }
}

void add_caption(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c) {
    TextStyle style{frame::kBodySize, Weight::regular, false};
    const double width = frame::kRight - frame::kLeft - 120;
    auto lines = wrap_balanced(m, c.caption, style, width);
    if (lines.size() > 2) {  // shrink rather than spill out of the band
        style.size = std::max(frame::kMinTextSize + 4, style.size * 0.82);
        lines = wrap_balanced(m, c.caption, style, width);
    }
    const double line_height = style.size * 1.3;
    const double band_mid = frame::kCaptionTop + 150 / 2.0;
    double baseline =
        band_mid - line_height * (static_cast<double>(lines.size()) - 1) / 2 + style.size * 0.35;
    for (const std::string& line : lines) {
        s.add(Text{frame::kWidth / 2, baseline, line, style, p.text, Align::center},
              c.caption_alpha);
        baseline += line_height;
    }
}

}  // namespace

void add_chrome(Scene& scene, const Palette& p, const TextMetrics& m, const Chrome& c) {
    if (!c.title.empty()) add_title(scene, p, m, c);
    if (!c.stats.empty()) add_stat_panel(scene, p, m, c);
    if (!c.caption.empty() && c.caption_alpha > 0) add_caption(scene, p, m, c);
}

}  // namespace story

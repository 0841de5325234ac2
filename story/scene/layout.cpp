// Shared frame drawing: title top-left (top-right of its row in a right-to-left language), stat
// panel top-right, captions in the bottom band; wrapping at ICU's line-break opportunities.
#include "story/scene/layout.hpp"

#include <algorithm>
#include <sstream>
#include <string_view>

#include "story/text/lang.hpp"
#include "story/text/line_breaks.hpp"

namespace story {

namespace {

// Runs of whitespace as one space, none at either end: the text's words as written.
std::string collapse_spaces(const std::string& text) {
    std::istringstream words(text);
    std::string out, word;
    while (words >> word) out += (out.empty() ? "" : " ") + word;
    return out;
}

std::string_view trim_end(std::string_view s) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// Lines filled greedily from the pieces a line may end after, each line measured without its
// trailing spaces. A piece too wide for a line of its own is cut between graphemes, each part
// but the last ending in a hyphen in scripts that hyphenate; a part holds at least one grapheme.
class LineFiller {
  public:
    LineFiller(const TextMetrics& m, const TextStyle& style, double max_width)
        : m_(m), style_(style), max_width_(max_width) {}

    void add(std::string_view piece) {
        if (!line_.empty() && width(line_ + std::string(piece)) > max_width_) end_line();
        if (line_.empty() && width(piece) > max_width_)
            cut(piece);
        else
            line_ += piece;
    }

    std::vector<std::string> lines() {
        if (!line_.empty()) end_line();
        return std::move(lines_);
    }

  private:
    double width(std::string_view s) const { return m_.measure(trim_end(s), style_).advance; }

    void end_line() {
        lines_.emplace_back(trim_end(line_));
        line_.clear();
    }

    void cut(std::string_view piece) {
        const std::string_view word = trim_end(piece);
        const std::string hyphen = hyphenates(word) ? "-" : "";
        for (const std::string_view grapheme : graphemes(word)) {
            const std::string longer = line_ + std::string(grapheme);
            if (!line_.empty() && width(longer + hyphen) > max_width_) {
                lines_.push_back(line_ + hyphen);
                line_.clear();
            }
            line_ += grapheme;
        }
        line_ += piece.substr(word.size());
    }

    const TextMetrics& m_;
    const TextStyle& style_;
    const double max_width_;
    std::vector<std::string> lines_;
    std::string line_;
};

// Where a line of words may end: ICU's opportunities in lang, except right after a hyphen, so
// compounds such as "all-reduce" and "micro-batch" stay whole (as English always wrapped here),
// and right after a number, which stays with the word it counts ("8 GPUs", "80 GB").
std::vector<std::string_view> break_points(std::string_view words, std::string_view lang) {
    std::vector<std::string_view> pieces;
    for (const std::string_view piece : line_pieces(words, lang)) {
        if (!pieces.empty() && (pieces.back().back() == '-' || ends_in_number(pieces.back())))
            pieces.back() =
                std::string_view(pieces.back().data(), pieces.back().size() + piece.size());
        else
            pieces.push_back(piece);
    }
    return pieces;
}

std::vector<std::string> fill(const TextMetrics& m, const std::vector<std::string_view>& pieces,
                              const TextStyle& style, double max_width) {
    LineFiller filler(m, style, max_width);
    for (const std::string_view piece : pieces) filler.add(piece);
    return filler.lines();
}

}  // namespace

std::vector<std::string> wrap_text(const TextMetrics& m, const std::string& text,
                                   const TextStyle& style, double max_width) {
    const std::string words = collapse_spaces(text);
    return fill(m, break_points(words, style.lang), style, max_width);
}

std::vector<std::string> wrap_balanced(const TextMetrics& m, const std::string& text,
                                       const TextStyle& style, double max_width) {
    const std::string words = collapse_spaces(text);
    const std::vector<std::string_view> pieces = break_points(words, style.lang);
    const std::vector<std::string> greedy = fill(m, pieces, style, max_width);
    if (greedy.size() < 2) return greedy;
    // The narrowest width (to a pixel) that still needs no more lines than max_width does.
    double fits = max_width, too_narrow = 0;
    while (fits - too_narrow > 1) {
        const double mid = (fits + too_narrow) / 2;
        (fill(m, pieces, style, mid).size() <= greedy.size() ? fits : too_narrow) = mid;
    }
    return fill(m, pieces, style, fits);
}

double fit_size(const TextMetrics& m, const std::string& text, TextStyle style, double max_width,
                double min_size) {
    const double width = m.measure(text, style).advance;
    if (width <= max_width || width <= 0) return style.size;
    return std::max(min_size, style.size * max_width / width);
}

namespace {

// The settings the chapter changes, muted under the title in up to two lines as wide as it may
// be, smaller where two lines at the label size would not hold them.
void add_settings(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c,
                  double baseline, double right) {
    TextStyle style{frame::kLabelSize, Weight::regular, false, c.lang};
    std::vector<std::string> lines = wrap_balanced(m, c.settings, style, right - frame::kLeft);
    if (lines.size() > 2) {
        style.size = frame::kMinTextSize;
        lines = wrap_balanced(m, c.settings, style, right - frame::kLeft);
    }
    const bool rtl = is_rtl(c.lang);
    for (const std::string& line : lines) {
        s.add(Text{rtl ? right : frame::kLeft, baseline, line, style, p.muted,
                   rtl ? Align::right : Align::left},
              c.alpha);
        baseline += style.size * 1.3;
    }
}

void add_title(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c) {
    TextStyle style{frame::kTitleSize, Weight::semibold, false, c.lang};
    const double right = c.stats.empty() ? frame::kRight : kStatPanelLeft - 40;
    style.size = fit_size(m, c.title, style, right - frame::kLeft, frame::kHeadingSize);
    const double baseline = frame::kTop + m.measure(c.title, style).ascent;
    const bool rtl = is_rtl(c.lang);
    s.add(Text{rtl ? right : frame::kLeft, baseline, c.title, style, p.text,
               rtl ? Align::right : Align::left},
          c.alpha);
    if (!c.settings.empty()) add_settings(s, p, m, c, baseline + 42, right);
}

// Each stat's share of the panel's width: as wide as its widest line (label, value at full
// size, detail), so a long detail ("tp + dp + pp · 256 ms") takes room from a short "0%" rather
// than running into its neighbour.
std::vector<double> stat_cells(const TextMetrics& m, const Chrome& c, double width) {
    const TextStyle label{frame::kLabelSize, Weight::medium, false, c.lang};
    const TextStyle value{frame::kBodySize + 6, Weight::semibold, true, c.lang};
    const TextStyle detail{24, Weight::regular, true, c.lang};
    std::vector<double> wants;
    for (const Stat& st : c.stats)
        wants.push_back(
            std::max({m.measure(st.label, label).advance, m.measure(st.value, value).advance,
                      m.measure(st.detail, detail).advance}) +
            40);
    double total = 0;
    for (double w : wants) total += w;
    for (double& w : wants) w *= width / total;
    return wants;
}

void add_stat_panel(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c) {
    const double top = frame::kTop - 16, height = 124, width = frame::kRight - kStatPanelLeft;
    s.add(Rect{kStatPanelLeft, top, width, height, 12, p.panel, p.grid, 2}, c.alpha);
    const std::vector<double> cells = stat_cells(m, c, width);
    const TextStyle label{frame::kLabelSize, Weight::medium, false, c.lang};
    // A detail line moves every label and value up (they stay in one row) rather than growing
    // the panel into the picture below it.
    const bool detailed = std::any_of(c.stats.begin(), c.stats.end(),
                                      [](const Stat& st) { return !st.detail.empty(); });
    double right = kStatPanelLeft - 24;
    for (std::size_t i = 0; i < c.stats.size(); ++i) {
        const double cell = cells[i];
        right += cell;
        TextStyle value{frame::kBodySize + 6, Weight::semibold, true, c.lang};
        value.size = fit_size(m, c.stats[i].value, value, cell - 40);
        s.add(
            Text{right, top + (detailed ? 36 : 44), c.stats[i].label, label, p.muted, Align::right},
            c.alpha);
        s.add(
            Text{right, top + (detailed ? 80 : 98), c.stats[i].value, value, p.text, Align::right},
            c.alpha);
        if (c.stats[i].detail.empty()) continue;
        TextStyle detail{24, Weight::regular, true, c.lang};
        detail.size = fit_size(m, c.stats[i].detail, detail, cell - 40);
        s.add(Text{right, top + 110, c.stats[i].detail, detail,
                   c.stats[i].alert ? p.highlight : p.muted, Align::right},
              c.alpha);
    }
}

void add_caption(Scene& s, const Palette& p, const TextMetrics& m, const Chrome& c) {
    TextStyle style{frame::kBodySize, Weight::regular, false, c.lang};
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
    const bool rtl = is_rtl(c.lang);
    for (const std::string& line : lines) {
        s.add(Text{rtl ? (frame::kWidth + width) / 2 : frame::kWidth / 2, baseline, line, style,
                   p.text, rtl ? Align::right : Align::center},
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

// The frame every chapter shares (STYLE.md): safe area, title, stat panel, caption band, and
// text helpers that place labels from measured extents.
#pragma once
#include <string>
#include <vector>

#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/scene/theme.hpp"

namespace story {

namespace frame {
inline constexpr double kWidth = 1920, kHeight = 1080;
inline constexpr double kLeft = 96, kRight = 1920 - 96, kTop = 72;
inline constexpr double kCaptionTop = 1080 - 150;  // the caption band starts here
inline constexpr double kPictureTop = 250, kPictureBottom = kCaptionTop - 30;
inline constexpr double kTitleSize = 60, kHeadingSize = 40, kBodySize = 34, kLabelSize = 26;
inline constexpr double kMinTextSize = 22;
}  // namespace frame

// Greedy wrap by measured advance, breaking only where the Unicode line breaking algorithm allows
// in style.lang (story/text/line_breaks.hpp): after spaces (collapsed to one), between Chinese and
// Japanese characters; never right after a hyphen (compounds stay whole). A word wider than
// max_width on a line of its own is cut between graphemes, with a hyphen ending each part but the
// last in Latin, Greek and Cyrillic script. Lines are measured, and returned, without trailing
// spaces.
std::vector<std::string> wrap_text(const TextMetrics& m, const std::string& text,
                                   const TextStyle& style, double max_width);
// Centred text (captions, subtitles): as many lines as wrap_text needs, but as even as they can
// be, so a last line never holds one stray word.
std::vector<std::string> wrap_balanced(const TextMetrics& m, const std::string& text,
                                       const TextStyle& style, double max_width);
// The largest size <= style.size (and >= min_size) at which text fits max_width.
double fit_size(const TextMetrics& m, const std::string& text, TextStyle style, double max_width,
                double min_size = frame::kMinTextSize);

struct Stat {
    std::string label, value;
    std::string detail = {};  // a smaller line under the value (the time a transfer takes)
    bool alert = false;       // the detail in the highlight colour ("over by 50.3 GB")
};

// What the shared frame shows at one instant.
struct Chrome {
    std::string title;
    std::vector<Stat> stats;  // empty: no stat panel (title cards)
    std::string caption;      // empty: none
    double caption_alpha = 1;
    double alpha = 1;  // title and panel fade in at the chapter start
    // The film's language (Video::lang): every line is set in it. Right to left, the title ends
    // at the right of its row and the caption's lines at the band's right edge.
    std::string lang = {};
    std::string settings = {};  // under the title, muted: what the chapter changes ("Here: ZeRO-3")
};

void add_chrome(Scene& scene, const Palette& p, const TextMetrics& m, const Chrome& c);

// Left edge of the stat panel, so pictures and titles keep clear of it.
inline constexpr double kStatPanelLeft = 1920 - 96 - 660;

}  // namespace story

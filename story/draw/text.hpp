// Named text roles (STYLE.md "Type") and a column of text that advances line by line from
// measured extents, so read-outs and notes never sit at hand-picked y positions.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"

namespace story {

// title 60 semibold; heading 40 semibold; body 34 regular; label 26 medium (names: "GPU 3");
// note 26 regular (explanations, usually muted); small 22 regular (the floor: STYLE.md allows
// nothing under 22 px); value 40 semibold tabular (a number that changes on screen, a read-out's
// result); figure 26 semibold tabular (changing numbers inside labels).
enum class Role { title, heading, body, label, note, small, value, figure };
TextStyle style_of(Role r);
// The same style with another weight, with tabular figures, at another size, or in a language
// (a BCP-47 tag: the film's is ChapterBase::lang_).
TextStyle weighted(TextStyle s, Weight w);
TextStyle tabular(TextStyle s);
TextStyle sized(TextStyle s, double px);
TextStyle in_language(TextStyle s, std::string lang);

// The baseline that centres one line of text vertically on y.
double centred_baseline(const TextMetrics& m, std::string_view text, const TextStyle& style,
                        double y);
// The y a line of text is centred on (centred_baseline's inverse): things beside a line, such as
// swatches and bars, centre on it.
double middle_of(const TextMetrics& m, const Text& line);

// Lines of text under one another from `top`, anchored at x by align: each baseline sits below
// the previous line's descent by the new line's leading (kLeading of its size) and ascent.
//   TextColumn col(metrics_, x, top);
//   col.line("Each card sends …", Role::label, p.muted).line("= 1.2 GB", Role::value, p.comm);
//   col.add_to(scene, alpha);
class TextColumn {
  public:
    static constexpr double kLeading = 0.2;  // em: baselines ~1.4 em apart in one role
    TextColumn(const TextMetrics& m, double x, double top, Align align = Align::left);
    TextColumn& line(std::string text, const TextStyle& style, Color color);
    TextColumn& line(std::string text, Role role, Color color);
    // Text wrapped to max_width (wrap_text), a line each: a label that runs longer in another
    // language takes more lines instead of running into what stands beside it. A left-aligned
    // column's lines in a right-to-left style.lang end at x + max_width instead, so a paragraph
    // is ragged at its end, as its readers expect, and the box it wraps to stays where it was.
    TextColumn& wrapped(const std::string& text, const TextStyle& style, Color color,
                        double max_width);
    TextColumn& gap(double px);  // extra space before the next line
    // Moves every line so the column, from its top to bottom(), centres on y: a table row's name
    // over its detail, centred in the row.
    TextColumn& centre_on(double y);
    // The baseline of line i (of the first by default). A column laid out once in a chapter's
    // constructor (with the roles of its lines) gives the read-outs drawn at t their baselines: a
    // number that changes, or a line shrunk to fit, never moves the lines under it.
    double baseline(std::size_t i = 0) const { return lines_.at(i).y; }
    // Below the last line's descent: where the next thing under the column may start.
    double bottom() const { return bottom_; }
    const std::vector<Text>& lines() const { return lines_; }
    void add_to(Scene& s, double alpha = 1) const;

  private:
    const TextMetrics& metrics_;
    double x_, top_, bottom_;
    Align align_;
    bool first_ = true;
    std::vector<Text> lines_;
};

}  // namespace story

// `title`: the film's title card: the model drawn as a loaf of layer slices, a forward pass
// sweeping through it, the title and subtitle beneath.
#include <algorithm>

#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/lang.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 6;
// Choreography in seconds, not scaled: a title card's entrance is over within 2 s at any length.
// The slices enter one after another, then a forward pass lights kLit of them at a time.
constexpr Stagger kSlicesIn{0.2};
constexpr double kSweepAt = 1.6, kSweepPerSlice = 0.18, kLit = 1.5;
constexpr double kTitleAt = 0.6, kSubtitleAt = 1.0, kTextFor = 0.6;

// The loaf: kSlices slices in the upper middle, each sliding kSlideIn px in from the left.
constexpr int kSlices = 10;
constexpr double kSliceW = 560, kSliceH = 22, kSliceGap = 9, kSlideIn = 60;
constexpr Box kLoaf{(frame::kWidth - kSliceW) / 2, 230, kSliceW,
                    kSlices* kSliceH + (kSlices - 1) * kSliceGap};
constexpr double kSliceRadius = 6, kLitStroke = 3;
// A text column from kTitleTop, rising kRise px as it fades in: the title (kTitleSize, fitted to
// the safe area), then kSubtitleGap under it the subtitle, wrapped to kSubtitleW; centred, or in
// a right-to-left language right-aligned within the centred block.
constexpr double kTitleSize = 80, kMinTitleSize = 48, kTitleTop = 582, kRise = 20;
constexpr double kSubtitleGap = 21, kSubtitleW = 1300;

class TitleChapter final : public ChapterBase {
  public:
    TitleChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          title_in_(Fade::in(kTitleAt, kTextFor)),
          subtitle_in_(Fade::in(kSubtitleAt, kTextFor)) {
        for (int i = 0; i < kSlices; ++i)
            slices_.push_back(column_cell(kLoaf, kSlices, i, kSliceGap));
        titles_ = title_lines();
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_loaf(s, t);
        add_titles(s, t);
        Chrome c = chrome_at(t, {});
        c.title.clear();  // the card itself is the title, before any setting changes
        c.settings.clear();
        default_language(s.items, lang_);
        add_chrome(s, palette_, metrics_, c);
        return s;
    }
    std::vector<Stat> stats_at(double) const override { return {}; }  // a title card has none

  private:
    // The title, then the subtitle's lines.
    std::vector<Text> title_lines() const {
        TextStyle title = in_language(sized(style_of(Role::title), kTitleSize), lang_);
        title.size =
            fit_size(metrics_, spec_.title, title, frame::kRight - frame::kLeft, kMinTitleSize);
        const TextStyle body = in_language(style_of(Role::body), lang_);
        const auto subtitle = wrap_balanced(metrics_, spec_.subtitle, body, kSubtitleW);
        // Right to left, the lines end together at the right edge of the centred block.
        double widest = metrics_.measure(spec_.title, title).advance;
        for (const std::string& line : subtitle)
            widest = std::max(widest, metrics_.measure(line, body).advance);
        const bool rtl = is_rtl(lang_);
        TextColumn column(metrics_, kLoaf.cx() + (rtl ? widest / 2 : 0), kTitleTop,
                          rtl ? Align::right : Align::center);
        column.line(spec_.title, title, palette_.text).gap(kSubtitleGap);
        for (const std::string& line : subtitle) column.line(line, body, palette_.muted);
        return column.lines();
    }

    void add_loaf(Scene& s, double t) const {
        const double sweep = (t - kSweepAt) / kSweepPerSlice;
        for (int i = 0; i < kSlices; ++i) {
            const double u = kSlicesIn.at(t, i);
            Box slice = slices_[i];
            slice.x -= kSlideIn * (1 - u);
            const bool lit = sweep >= i && sweep < i + kLit;
            s.add(filled(slice, kSliceRadius, palette_.weights,
                         lit ? std::optional<Color>(palette_.highlight) : std::nullopt, kLitStroke),
                  u);
        }
    }

    // The title's column rises with the title's fade; the subtitle fades in on its own.
    void add_titles(Scene& s, double t) const {
        const double u = title_in_.at(t);
        for (std::size_t i = 0; i < titles_.size(); ++i) {
            Text line = titles_[i];
            line.y += kRise * (1 - u);
            s.add(line, i == 0 ? u : subtitle_in_.at(t));
        }
    }

    const Fade title_in_, subtitle_in_;
    std::vector<Box> slices_;
    std::vector<Text> titles_;  // the title, then the subtitle's lines
};

const KindRegistrar registrar{{
    .name = "title",
    .default_duration = kDefaultDuration,
    .settable = {},
    .make = make_of<TitleChapter>,
    .shows = "the model as a loaf of layer slices with a forward pass sweeping through it; "
             "title and subtitle",
    .goldens = {{"chapter_title", 3.0, "the title card"}},
}};

}  // namespace

}  // namespace story

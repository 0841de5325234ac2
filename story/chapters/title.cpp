// `title`: the film's title card: the model drawn as a loaf of layer slices, a forward pass
// sweeping through it, the title and subtitle beneath.
#include "story/chapter_base.hpp"

namespace story {

namespace {

constexpr int kSlices = 10;
constexpr double kSliceW = 560, kSliceH = 22, kSliceGap = 9, kLoafTop = 230;

class TitleChapter final : public ChapterBase {
  public:
    using ChapterBase::ChapterBase;

    Scene scene_at(double t) const override {
        Scene s = blank();
        add_loaf(s, t);
        add_titles(s, t);
        Chrome c = chrome_at(t, {});
        c.title.clear();  // the card itself is the title
        add_chrome(s, palette_, metrics_, c);
        return s;
    }

  private:
    void add_loaf(Scene& s, double t) const {
        const double x = frame::kWidth / 2 - kSliceW / 2;
        // A forward pass sweeps down the layers once the loaf has assembled.
        const double sweep = (t - 1.6) / 0.18;
        for (int i = 0; i < kSlices; ++i) {
            const double u = progress(t, 0.2 + 0.08 * i, 0.5);
            const double y = kLoafTop + i * (kSliceH + kSliceGap);
            const bool lit = sweep >= i && sweep < i + 1.5;
            s.add(Rect{x - 60 * (1 - u), y, kSliceW, kSliceH, 6, palette_.weights,
                       lit ? std::optional<Color>(palette_.highlight) : std::nullopt, 3},
                  u);
        }
    }

    void add_titles(Scene& s, double t) const {
        TextStyle title{80, Weight::semibold, false};
        title.size = fit_size(metrics_, spec_.title, title, frame::kRight - frame::kLeft, 48);
        const double u = progress(t, 0.6, 0.6);
        const double y = 660 + 20 * (1 - u);
        s.add(Text{frame::kWidth / 2, y, spec_.title, title, palette_.text, Align::center}, u);
        if (spec_.subtitle.empty()) return;
        TextStyle sub{frame::kBodySize, Weight::regular, false};
        const auto lines = wrap_balanced(metrics_, spec_.subtitle, sub, 1300);
        const double v = progress(t, 1.0, 0.6);
        for (std::size_t i = 0; i < lines.size(); ++i)
            s.add(Text{frame::kWidth / 2, y + 80 + 46.0 * static_cast<double>(i), lines[i], sub,
                       palette_.muted, Align::center},
                  v);
    }
};

std::unique_ptr<Chapter> make(const ChapterSpec& spec, const Video& video,
                              const TextMetrics& metrics) {
    return std::make_unique<TitleChapter>(spec, video, metrics);
}

const KindRegistrar registrar{{"title", 6, {}, make}};

}  // namespace

}  // namespace story

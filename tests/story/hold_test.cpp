// Every new number is held (issue 33, STYLE.md): in both shipped films, in every language they
// list, timed by reading estimates (as `narration: off` times them), every figure a frame of a
// chapter shows, once fully visible, stays on screen at least 1.5 s before it goes. The frames
// are the film's own (every one at its fps), so a run is measured as the viewer sees it.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "chapter_fixture.hpp"
#include "engine/report.hpp"
#include "films.hpp"
#include "on_screen.hpp"
#include "story/chapter/chapter.hpp"
#include "story/text/format.hpp"
#include "story/uses/explore.hpp"
#include "tests/catch.hpp"

using namespace story;

namespace {

constexpr double kHold = 1.5;  // seconds, STYLE.md

// A digit in UTF-8: Latin, Arabic-Indic (U+0660-0669) or Devanagari (U+0966-096F).
bool has_digit(const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= '0' && c <= '9') return true;
        if (i + 1 < s.size()) {
            const auto d = static_cast<unsigned char>(s[i + 1]);
            if (c == 0xD9 && d >= 0xA0 && d <= 0xA9) return true;
        }
        if (i + 2 < s.size() && c == 0xE0 && static_cast<unsigned char>(s[i + 1]) == 0xA5) {
            const auto d = static_cast<unsigned char>(s[i + 2]);
            if (d >= 0xA6 && d <= 0xAF) return true;
        }
    }
    return false;
}

// Counting animations: a figure that runs through a range of numbers while the motion it names
// plays, each value the state of that moment, and lands on the engine's figure. A value of one
// counts as a change only where no other value of the same counter takes its place (or gives
// it its place) from one frame to the next, so where it lands, or stands alone, it is held.
struct Counter {
    const char* kind;
    std::vector<const char*> msgids;  // its messages; "{n}" alone: a bare figure
    const char* why;
};
const std::vector<Counter> kCounters = {
    {"bytes_per_parameter",
     {"over by {bytes}"},
     "the state pours into one card and the overflow grows with it, then drains as it spreads"},
    {"activation_checkpointing",
     {"over by {bytes}"},
     "the activations pour in over the card's top"},
    {"ring_allreduce",
     {"Reduce-scatter · step {k} of {n}", "All-gather · step {k} of {n}"},
     "names the hop the chunks are making, one per step of the ring"},
    {"fsdp_gather",
     {"{bytes}", "+{bytes}"},
     "each card's gauge and its magnified layer follow the shards arriving and freed"},
    {"fsdp_gather",
     {"Forward · slice {k} of {n}: all-gather the full weights",
      "Backward · slice {k} of {n}: all-gather the full weights",
      "Forward · slice {k} of {n}: compute", "Backward · slice {k} of {n}: compute gradients",
      "Backward · slice {k} of {n}: reduce-scatter the gradients",
      "Forward · slice {k} of {n}: free the full copy",
      "Backward · slice {k} of {n}: free the full copy"},
     "names the slice and the step the pass is at, as the cards do it"},
    {"context_parallel", {"{n}"}, "the key and value chunks each GPU holds, handed round the ring"},
    {"plan", {"{n}"}, "the layouts considered, counted up as the search writes them down"},
};

// A counter's texts in language `l`, as one pattern: a count where the message has one (digits
// and their separators), a size where it has {bytes} (a count, a thin space, a unit).
std::regex pattern_of(const Counter& c, const Locale& l) {
    static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
    const std::string count = "[^ A-Za-z]+", size = count + "\u2009[kMGT]?B";
    std::string alternatives;
    for (const char* msgid : c.msgids) {
        std::string text = l.tr(msgid, {{"k", "\x01"}, {"n", "\x01"}, {"bytes", "\x02"}}), out;
        text = std::regex_replace(text, special, R"(\$&)");
        for (char ch : text) out += ch == '\x01' ? count : ch == '\x02' ? size : std::string(1, ch);
        alternatives += (alternatives.empty() ? "" : "|") + out;
    }
    return std::regex(alternatives);
}

// The fully visible texts of a scene that hold a digit: its figures.
std::set<std::string> figures(const Scene& s) {
    std::set<std::string> out;
    for (const on_screen::Shown& text : on_screen::shown(s))
        if (has_digit(text.text)) out.insert(text.text);
    return out;
}

// A figure on screen for fewer frames than the hold, from `from` (its first frame) to `to` (the
// first frame without it).
struct Flash {
    std::string figure;
    double from, to;
};

// The figures of each frame of a chapter, and after its last frame none.
std::vector<std::set<std::string>> frames_of(const ChapterSpec& spec, const Video& video) {
    const auto chapter = make_chapter(spec, video, chapter_test::kMetrics);
    const int frames = static_cast<int>(spec.duration * video.fps);
    std::vector<std::set<std::string>> out;
    for (int f = 0; f < frames; ++f)
        out.push_back(figures(chapter->scene_at(double(f) / video.fps)));
    out.emplace_back();
    return out;
}

// Whether a value of the counter `count` matches other than `figure` comes or goes between
// frames f - 1 and f.
bool counting(const std::vector<std::set<std::string>>& frames, int f, const std::regex& count,
              const std::string& figure) {
    if (f <= 0 || f >= static_cast<int>(frames.size())) return false;
    auto changed = [&](const std::set<std::string>& a, const std::set<std::string>& b) {
        return std::ranges::any_of(a, [&](const std::string& x) {
            return x != figure && !b.count(x) && std::regex_match(x, count);
        });
    };
    return changed(frames[f], frames[f - 1]) || changed(frames[f - 1], frames[f]);
}

// What a chapter shows, frame by frame: every figure held for less than the hold before it goes
// (the chapter's end counts: a figure that appears just before the cut is as unread as one
// replaced), but a counter's value as it counts; how many figures it showed in all; and the
// counters that counted.
struct Held {
    std::vector<Flash> flashes;
    std::set<std::string> figures;
    std::set<const Counter*> counted;
};

Held held(const ChapterSpec& spec, const Video& video) {
    const Locale locale(video.lang);
    std::vector<std::pair<const Counter*, std::regex>> counters;
    for (const Counter& c : kCounters)
        if (spec.kind == c.kind) counters.emplace_back(&c, pattern_of(c, locale));
    const std::vector<std::set<std::string>> frames = frames_of(spec, video);
    std::map<std::string, int> since;  // figure -> its first frame on screen
    Held out;
    for (int f = 0; f < static_cast<int>(frames.size()); ++f) {
        for (auto it = since.begin(); it != since.end();) {
            if (frames[f].count(it->first)) {
                ++it;
                continue;
            }
            const auto [figure, first] = *it;
            it = since.erase(it);
            if (f - first >= kHold * video.fps) continue;
            const auto counter = std::ranges::find_if(counters, [&](const auto& c) {
                return std::regex_match(figure, c.second) &&
                       (counting(frames, first, c.second, figure) ||
                        counting(frames, f, c.second, figure));
            });
            if (counter != counters.end())
                out.counted.insert(counter->first);
            else
                out.flashes.push_back({figure, double(first) / video.fps, double(f) / video.fps});
        }
        for (const std::string& figure : frames[f])
            since.emplace(figure, f), out.figures.insert(figure);
    }
    return out;
}

}  // namespace

TEST_CASE("in both films every figure a frame shows stays on screen at least 1.5 s", "[hold]") {
    std::set<const Counter*> counted;
    std::size_t figures = 0;
    for (const char* film : {"distributed-training.yaml", "beyond-3d.yaml"}) {
        for (const std::string& lang : chapter_test::film_in(film, "").languages) {
            const Storyboard board = chapter_test::film_in(film, lang);
            Video video = board.video;
            video.captions = Captions::off;  // the words are not the picture's figures
            for (const ChapterSpec& spec : board.chapters) {
                const Held h = held(spec, video);
                figures += h.figures.size();
                counted.merge(std::set<const Counter*>(h.counted));
                for (const Flash& flash : h.flashes) {
                    INFO(film << " in " << lang << ": " << spec.id << " (" << spec.kind << ")");
                    INFO("\"" << flash.figure << "\" from " << flash.from << " s to " << flash.to
                              << " s");
                    CHECK(flash.to - flash.from >= kHold);
                }
            }
        }
    }
    CHECK(figures > 2000);  // every chapter's figures, in five languages
    for (const Counter& c : kCounters) {
        INFO(c.kind << ": " << c.msgids.front() << " (" << c.why << ")");
        CHECK(counted.count(&c) == 1);  // each counter named here counts in some chapter
    }
}

TEST_CASE("a figure replaced sooner than 1.5 s is found, and one held that long is not", "[hold]") {
    const Storyboard& board = chapter_test::shipped("distributed-training.yaml");
    ChapterSpec ring = chapter_test::chapter_of(board, "ring");
    Video video = board.video;
    video.captions = Captions::off;
    // Sixteen cards, then back to eight 1.2 s after the first morph's halfway.
    const Beat last = ring.beats.back();  // a copy: the push below moves the beats
    REQUIRE(last.set.size() == 1);
    Beat back = last;
    back.at = last.at + last.over / 2 + 1.2 - 0.5;
    back.set.front().value = "8";
    back.over = 1;
    back.say = {};
    ring.beats.push_back(back);
    const std::string sixteen = format_bytes(
        engine::analyze(config_at(ring, last.at + last.over, video.fps)).comm.sent_per_gpu().value,
        Locale("en"));
    auto flashes_of = [&](const std::string& figure) {
        std::vector<Flash> out;
        for (const Flash& f : held(ring, video).flashes)
            if (f.figure == figure) out.push_back(f);
        return out;
    };
    const std::vector<Flash> flashes = flashes_of(sixteen);
    REQUIRE(flashes.size() == 1);
    CHECK(flashes[0].to - flashes[0].from == Approx(1.2).margin(1.0 / video.fps));
    ring.beats.back().at += 0.3;  // held 1.5 s
    CHECK(flashes_of(sixteen).empty());
}

namespace {

// Every text a frame draws at all (a fade's first frame included).
std::set<std::string> drawn_texts(const Scene& s) {
    std::set<std::string> out;
    for (const PlacedText& p : texts_of(s))
        if (p.opacity > 0.01) out.insert(p.text.text);
    return out;
}

// The texts that first enter the chapter in the `lead` s before a beat that shows a phase: what
// that phase brings, begun before the line that introduces it.
std::vector<std::pair<std::string, double>> early(const ChapterSpec& spec, const Video& video,
                                                  double lead) {
    const auto chapter = make_chapter(spec, video, chapter_test::kMetrics);
    const Locale locale(video.lang);
    std::vector<std::regex> counters;
    for (const Counter& c : kCounters)
        if (spec.kind == c.kind) counters.push_back(pattern_of(c, locale));
    std::vector<double> pins;  // the chapter's opening (its title, its panel) is before any line
    for (std::size_t i = 1; i < spec.beats.size(); ++i)
        if (!spec.beats[i].show.empty()) pins.push_back(spec.beats[i].at);
    std::set<std::string> seen;
    std::vector<std::pair<std::string, double>> out;
    for (int f = 0; f < static_cast<int>(spec.duration * video.fps); ++f) {
        const double t = double(f) / video.fps;
        for (const std::string& text : drawn_texts(chapter->scene_at(t))) {
            if (!seen.insert(text).second) continue;
            const bool leads =
                std::ranges::any_of(pins, [&](double pin) { return t < pin && t >= pin - lead; });
            const bool counts = std::ranges::any_of(
                counters, [&](const std::regex& c) { return std::regex_match(text, c); });
            if (leads && !counts) out.emplace_back(text, t);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("in both films nothing enters in the half second before the line that brings it",
          "[hold]") {
    for (const char* film : {"distributed-training.yaml", "beyond-3d.yaml"})
        for (const std::string& lang : chapter_test::film_in(film, "").languages) {
            const Storyboard board = chapter_test::film_in(film, lang);
            Video video = board.video;
            video.captions = Captions::off;
            for (const ChapterSpec& spec : board.chapters)
                for (const auto& [text, t] : early(spec, video, 0.5)) {
                    INFO(film << " in " << lang << ": " << spec.id << " (" << spec.kind << ")");
                    INFO("\"" << text << "\" enters at " << t << " s");
                    CHECK(false);
                }
        }
}

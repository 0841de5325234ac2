// Shared by the chapter tests: load a kind's test storyboard, build a chapter with approximate
// metrics, and find the rectangles a scene draws (texts are read with tests/story/on_screen.hpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/report.hpp"
#include "story/chapter/chapter.hpp"
#include "story/draw/box.hpp"
#include "story/load/timed.hpp"
#include "story/text/format.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"

namespace chapter_test {

// The stat panel's "Per card" as a viewer reads it: the most loaded card's memory, and "over by
// X GB" under it where that passes the card's capacity (ChapterBase::per_card).
inline std::vector<std::string> per_card(const engine::Report& r) {
    std::vector<std::string> lines{story::format_bytes(r.per_gpu.total.value)};
    const double over = r.per_gpu.total.value - r.per_gpu.capacity.value;
    if (over > 0) lines.push_back("over by " + story::format_bytes(over));
    return lines;
}

inline const story::ApproxTextMetrics kMetrics;

// A file's whole text.
inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A storyboard file that must load and time without diagnostics.
inline story::Storyboard load_file(const std::string& path) {
    story::Diagnostics diags;
    std::vector<story::Diagnostic> warnings;
    auto sb = story::load_timed(slurp(path), path, diags, warnings);
    INFO(story::format_diagnostics(diags, warnings));
    REQUIRE(sb);
    REQUIRE(warnings.empty());
    return *sb;
}

// tests/storyboards/good/<storyboard>.
inline story::Storyboard load_board(const std::string& storyboard) {
    return load_file(std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/" + storyboard);
}

// The storyboard's only chapter.
inline story::ChapterSpec load_spec(const std::string& storyboard) {
    const story::Storyboard sb = load_board(storyboard);
    REQUIRE(sb.chapters.size() == 1);
    return sb.chapters.front();
}

// The storyboard's chapter `id`.
inline story::ChapterSpec load_spec(const std::string& storyboard, const std::string& id) {
    const story::Storyboard sb = load_board(storyboard);
    const auto it = std::find_if(sb.chapters.begin(), sb.chapters.end(),
                                 [&](const auto& c) { return c.id == id; });
    REQUIRE(it != sb.chapters.end());
    return *it;
}

// The chapter with no `set:` beat: one state, its configuration's, from start to end.
inline story::ChapterSpec without_sets(story::ChapterSpec spec) {
    std::erase_if(spec.beats, [](const story::Beat& b) { return !b.set.empty(); });
    return spec;
}

// A shipped storyboard (storyboards/<name>), loaded once. `name` a literal, not a std::string:
// GCC 14 (Debian 13) takes the reference returned for any temporary argument for a dangling one
// (-Wdangling-reference), a std::string made for the call or taken by value alike.
inline const story::Storyboard& shipped(const char* name) {
    static std::map<std::string, story::Storyboard> loaded;
    const std::string key = name;
    if (!loaded.count(key))
        loaded.emplace(key, load_file(std::string(SHARDREEL_SOURCE_DIR) + "/storyboards/" + key));
    return loaded.at(key);
}

// The storyboard's chapter `id`.
inline const story::ChapterSpec& chapter_of(const story::Storyboard& sb, const std::string& id) {
    const auto it = std::find_if(sb.chapters.begin(), sb.chapters.end(),
                                 [&](const auto& c) { return c.id == id; });
    REQUIRE(it != sb.chapters.end());
    return *it;
}

// Top-level rects stroked with `stroke` and fully visible.
inline long stroked(const story::Scene& s, story::Color stroke) {
    return std::count_if(s.items.begin(), s.items.end(), [&](const story::Item& i) {
        const auto* r = std::get_if<story::Rect>(&i.shape);
        return r && i.opacity > 0.99 && r->stroke == stroke;
    });
}

// Top-level rects filled with `fill`, fully visible, whose top-left lies inside the box.
inline std::vector<story::Rect> rects(const story::Scene& s, story::Color fill, double x0,
                                      double y0, double x1, double y1) {
    std::vector<story::Rect> out;
    for (const story::Item& item : s.items) {
        const auto* r = std::get_if<story::Rect>(&item.shape);
        if (r && item.opacity > 0.99 && r->fill == fill && r->x >= x0 && r->x <= x1 && r->y >= y0 &&
            r->y <= y1)
            out.push_back(*r);
    }
    return out;
}

// A loaf of layer slices (story/vocab/loaf.hpp draws each as one group): the rects of its pieces
// drawn fully visible (held) and faint, top down, and the box around them all.
struct Loaf {
    std::vector<story::Rect> held, faint;
    story::Box box;
};
inline std::vector<Loaf> loaves(const story::Scene& s) {
    std::vector<Loaf> out;
    for (const story::Item& item : s.items) {
        const auto* g = std::get_if<story::Group>(&item.shape);
        if (!g) continue;
        Loaf loaf;
        std::vector<story::Box> boxes;
        for (const story::Item& child : g->items) {
            const auto* r = std::get_if<story::Rect>(&child.shape);
            const double opacity = item.opacity * child.opacity;
            if (!r || opacity <= 0) continue;
            (opacity > 0.99 ? loaf.held : loaf.faint).push_back(*r);
            boxes.push_back({r->x, r->y, r->w, r->h});
        }
        if (boxes.empty()) continue;
        loaf.box = story::bounding(boxes);
        out.push_back(std::move(loaf));
    }
    return out;
}

// Top-level rectangles of one size and fill, e.g. the chunk tokens on the ring's links.
inline int count_rects(const story::Scene& s, double w, double h, story::Color fill) {
    int n = 0;
    for (const story::Item& item : s.items)
        if (const auto* r = std::get_if<story::Rect>(&item.shape))
            n += std::abs(r->w - w) < 1e-6 && std::abs(r->h - h) < 1e-6 && r->fill == fill &&
                 item.opacity > 0;
    return n;
}

}  // namespace chapter_test

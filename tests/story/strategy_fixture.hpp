// Shared by the strategy chapter tests: load a kind's test storyboard, build one chapter with
// approximate metrics, and read what a scene shows.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "story/chapter.hpp"
#include "story/load.hpp"
#include "story/timeline.hpp"

namespace strategy_test {

inline const story::ApproxTextMetrics kMetrics;

inline story::ChapterSpec load_spec(const std::string& storyboard, const std::string& id) {
    const std::string path = std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/" + storyboard;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text.str(), path, diags);
    REQUIRE(sb);
    const auto it = std::find_if(sb->chapters.begin(), sb->chapters.end(), [&](const auto& c) { return c.id == id; });
    REQUIRE(it != sb->chapters.end());
    return *it;
}

// Fully visible text exactly equal to `text`.
inline bool shows(const story::Scene& s, const std::string& text) {
    const auto texts = story::texts_of(s);
    return std::any_of(texts.begin(), texts.end(),
                       [&](const story::PlacedText& p) { return p.opacity > 0.99 && p.text.text == text; });
}

// Top-level rects filled with `fill`, fully visible, whose top-left lies inside the box.
inline std::vector<story::Rect> rects(const story::Scene& s, story::Color fill, double x0, double y0, double x1,
                                      double y1) {
    std::vector<story::Rect> out;
    for (const story::Item& item : s.items) {
        const auto* r = std::get_if<story::Rect>(&item.shape);
        if (r && item.opacity > 0.99 && r->fill == fill && r->x >= x0 && r->x <= x1 && r->y >= y0 && r->y <= y1)
            out.push_back(*r);
    }
    return out;
}

}  // namespace strategy_test

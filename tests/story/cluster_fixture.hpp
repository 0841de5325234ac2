// Shared by the interconnect, layout_3d and summary tests: load a kind's test storyboard, build
// its chapter with approximate metrics, and read what a scene shows.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "story/chapter.hpp"
#include "story/load.hpp"

namespace cluster_test {

inline const story::ApproxTextMetrics kMetrics;

inline story::ChapterSpec load_spec(const std::string& storyboard) {
    const std::string path = std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/" + storyboard;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text.str(), path, diags);
    REQUIRE(sb);
    REQUIRE(sb->chapters.size() == 1);
    return sb->chapters.front();
}

// How many fully visible texts read exactly `text`.
inline long count(const story::Scene& s, const std::string& text) {
    const auto texts = story::texts_of(s);
    return std::count_if(texts.begin(), texts.end(),
                         [&](const story::PlacedText& p) { return p.opacity > 0.99 && p.text.text == text; });
}
inline bool shows(const story::Scene& s, const std::string& text) { return count(s, text) > 0; }

// Top-level rects stroked with `stroke` and fully visible.
inline long stroked(const story::Scene& s, story::Color stroke) {
    return std::count_if(s.items.begin(), s.items.end(), [&](const story::Item& i) {
        const auto* r = std::get_if<story::Rect>(&i.shape);
        return r && i.opacity > 0.99 && r->stroke == stroke;
    });
}

}  // namespace cluster_test

// Shared by the chapter tests: load a kind's test storyboard, build a chapter with approximate
// metrics, and read what a scene shows.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "story/chapter.hpp"
#include "story/load.hpp"
#include "story/timeline.hpp"

namespace chapter_test {

inline const story::ApproxTextMetrics kMetrics;

// tests/storyboards/good/<storyboard>, which must load without diagnostics.
inline story::Storyboard load_board(const std::string& storyboard) {
    const std::string path =
        std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/" + storyboard;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    story::Diagnostics diags;
    auto sb = story::parse_storyboard(text.str(), path, diags);
    INFO(diags.format());
    REQUIRE(sb);
    return *sb;
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

// How many fully visible texts read exactly `text`.
inline long count(const story::Scene& s, const std::string& text) {
    const auto texts = story::texts_of(s);
    return std::count_if(texts.begin(), texts.end(), [&](const story::PlacedText& p) {
        return p.opacity > 0.99 && p.text.text == text;
    });
}
inline bool shows(const story::Scene& s, const std::string& text) { return count(s, text) > 0; }

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

}  // namespace chapter_test

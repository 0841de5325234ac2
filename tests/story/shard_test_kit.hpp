// Helpers for the ring_allreduce, zero_stages and fsdp_gather tests: load a kind storyboard's
// chapter, and read texts and rectangles off a scene.
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "story/chapter.hpp"
#include "story/load.hpp"

namespace shard_test {

inline story::ChapterSpec load_spec(const std::string& file, const std::string& id) {
    const std::string path = std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/" + file;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    story::Diagnostics diags;
    const auto board = story::parse_storyboard(text.str(), path, diags);
    REQUIRE(board);
    for (const story::ChapterSpec& c : board->chapters)
        if (c.id == id) return c;
    FAIL("no chapter " << id << " in " << file);
    return {};
}

// Some fully visible text on screen equals `text`.
inline bool shows(const story::Scene& s, const std::string& text) {
    const auto texts = story::texts_of(s);
    return std::any_of(texts.begin(), texts.end(), [&](const story::PlacedText& p) {
        return p.opacity > 0.99 && p.text.text == text;
    });
}

// Some fully visible text contains `part`.
inline bool shows_part(const story::Scene& s, const std::string& part) {
    const auto texts = story::texts_of(s);
    return std::any_of(texts.begin(), texts.end(), [&](const story::PlacedText& p) {
        return p.opacity > 0.99 && p.text.text.find(part) != std::string::npos;
    });
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

}  // namespace shard_test

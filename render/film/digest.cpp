// Binary serialisation into XXH3's streaming state, and the members of every display-list struct.
// Each struct is read through a structured binding, which names every member: a field added to
// story/scene/scene.hpp stops this file compiling until it is hashed too.
#include "render/film/digest.hpp"

#include <new>

#include "render/sys/hash.hpp"
#include "story/storyboard/time.hpp"

namespace render {

BinaryDigest::BinaryDigest() : state_(XXH3_createState()) {
    if (!state_ || XXH3_128bits_reset(state_) != XXH_OK) {
        XXH3_freeState(state_);
        throw std::bad_alloc();
    }
}

BinaryDigest::~BinaryDigest() { XXH3_freeState(state_); }

std::string BinaryDigest::hex() {
    flush();
    const XXH128_hash_t h = XXH3_128bits_digest(state_);
    return hex128(h.high64, h.low64);
}

auto fields(Members, const story::Color& c) {
    const auto& [r, g, b, a] = c;
    return std::tie(r, g, b, a);
}
auto fields(Members, const story::Point& p) {
    const auto& [x, y] = p;
    return std::tie(x, y);
}
auto fields(Members, const story::TextStyle& style) {
    const auto& [size, weight, tabular, lang] = style;
    return std::tie(size, weight, tabular, lang);
}
auto fields(Members, const story::Rect& r) {
    const auto& [x, y, w, h, radius, fill, stroke, stroke_width, dashed, hatch] = r;
    return std::tie(x, y, w, h, radius, fill, stroke, stroke_width, dashed, hatch);
}
auto fields(Members, const story::Line& l) {
    const auto& [a, b, color, width, dashed] = l;
    return std::tie(a, b, color, width, dashed);
}
auto fields(Members, const story::Arrow& arrow) {
    const auto& [a, b, color, width, head] = arrow;
    return std::tie(a, b, color, width, head);
}
auto fields(Members, const story::Path& p) {
    const auto& [points, closed, fill, stroke, width] = p;
    return std::tie(points, closed, fill, stroke, width);
}
auto fields(Members, const story::Text& t) {
    const auto& [x, y, text, style, color, align] = t;
    return std::tie(x, y, text, style, color, align);
}
auto fields(Members, const story::Group& g) {
    const auto& [dx, dy, scale, items] = g;
    return std::tie(dx, dy, scale, items);
}
auto fields(Members, const story::Item& item) {
    const auto& [shape, opacity] = item;
    return std::tie(shape, opacity);
}
auto fields(Members, const story::Scene& scene) {
    const auto& [width, height, background, items] = scene;
    return std::tie(width, height, background, items);
}

void SceneDigest::add(const story::Scene& scene) { digest_.put(scene); }

std::string frames_digest(const story::Chapter& chapter, int frames, int fps) {
    SceneDigest digest;
    for (int f = 0; f < frames; ++f) digest.add(chapter.scene_at(story::time_of_frame(f, fps)));
    return digest.hex();
}

}  // namespace render

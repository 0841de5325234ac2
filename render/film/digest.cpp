// Binary serialisation of display lists into XXH3's streaming state. Each struct is read through
// a structured binding, which names every member: a field added to story/scene.hpp stops this
// file compiling until it is hashed too.
#include "render/film/digest.hpp"

#include <xxhash.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>

#include "render/sys/hash.hpp"
#include "story/time.hpp"

namespace render {

// Bytes gathered in a buffer and handed to XXH3 in blocks (one update call per field would cost
// more than the hashing). Members, so every overload sees every other whatever their order.
struct SceneDigest::Impl {
    XXH3_state_t* state = XXH3_createState();
    std::array<unsigned char, 8192> buffer;
    std::size_t used = 0;

    Impl() {
        if (!state || XXH3_128bits_reset(state) != XXH_OK) throw std::bad_alloc();
    }
    ~Impl() { XXH3_freeState(state); }
    void flush() {
        XXH3_128bits_update(state, buffer.data(), used);
        used = 0;
    }
    void bytes(const void* data, std::size_t n) {
        if (used + n > buffer.size()) flush();
        if (n > buffer.size()) {
            XXH3_128bits_update(state, data, n);
            return;
        }
        std::memcpy(buffer.data() + used, data, n);
        used += n;
    }
    template <class T>
    void raw(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }

    void put(double v) { raw(v == 0 ? 0.0 : v); }
    void put(bool v) { raw(static_cast<std::uint8_t>(v)); }
    void put(std::uint8_t v) { raw(v); }
    void put(std::size_t n) { raw(static_cast<std::uint64_t>(n)); }
    template <class E>
    requires std::is_enum_v<E>
    void put(E v) { raw(static_cast<std::int64_t>(v)); }
    void put(const std::string& text) {
        put(text.size());
        bytes(text.data(), text.size());
    }
    void put(const std::optional<story::Color>& c) {
        put(c.has_value());
        if (c) put(*c);
    }
    template <class T>
    void put(const std::vector<T>& list) {
        put(list.size());
        for (const T& v : list) put(v);
    }
    template <class... T>
    void put_all(const T&... values) {
        (put(values), ...);
    }

    void put(const story::Color& c) {
        const auto& [r, g, b, a] = c;
        put_all(r, g, b, a);
    }
    void put(const story::Point& p) {
        const auto& [x, y] = p;
        put_all(x, y);
    }
    void put(const story::TextStyle& style) {
        const auto& [size, weight, tabular, lang] = style;
        put_all(size, weight, tabular, lang);
    }
    void put(const story::Rect& r) {
        const auto& [x, y, w, h, radius, fill, stroke, stroke_width, dashed, hatch] = r;
        put_all(x, y, w, h, radius, fill, stroke, stroke_width, dashed, hatch);
    }
    void put(const story::Line& l) {
        const auto& [a, b, color, width, dashed] = l;
        put_all(a, b, color, width, dashed);
    }
    void put(const story::Arrow& arrow) {
        const auto& [a, b, color, width, head] = arrow;
        put_all(a, b, color, width, head);
    }
    void put(const story::Path& p) {
        const auto& [points, closed, fill, stroke, width] = p;
        put_all(points, closed, fill, stroke, width);
    }
    void put(const story::Text& t) {
        const auto& [x, y, text, style, color, align] = t;
        put_all(x, y, text, style, color, align);
    }
    void put(const story::Group& g) {
        const auto& [dx, dy, scale, items] = g;
        put_all(dx, dy, scale, items);
    }
    void put(const story::Item& item) {
        const auto& [shape, opacity] = item;
        put(shape.index());
        std::visit([this](const auto& v) { put(v); }, shape);
        put(opacity);
    }
    void put(const story::Scene& scene) {
        const auto& [width, height, background, items] = scene;
        put_all(width, height, background, items);
    }
};

SceneDigest::SceneDigest() : impl_(std::make_unique<Impl>()) {}
SceneDigest::~SceneDigest() = default;

void SceneDigest::add(const story::Scene& scene) { impl_->put(scene); }

std::string SceneDigest::hex() {
    impl_->flush();
    const XXH128_hash_t h = XXH3_128bits_digest(impl_->state);
    return hex128(h.high64, h.low64);
}

std::string frames_digest(const story::Chapter& chapter, int frames, int fps) {
    SceneDigest digest;
    for (int f = 0; f < frames; ++f) digest.add(chapter.scene_at(story::time_of_frame(f, fps)));
    return digest.hex();
}

}  // namespace render

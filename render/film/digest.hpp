// XXH3-128 digests for the segment cache: of values streamed in binary (BinaryDigest), of what a
// chapter draws (every frame's display list, field by field), so a key changes exactly when a
// frame would, and by the same rules of what a chapter is made from
// (render/film/chapter_fields.hpp).
#pragma once
#include <xxhash.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "story/chapter/chapter.hpp"
#include "story/scene/scene.hpp"

namespace render {

// The tag by which BinaryDigest finds a struct's members: `fields(Members, const T&)`, a tuple of
// references to every member of T (read through a structured binding, so a member added to T stops
// it compiling until it is listed), declared in namespace render beside the code that hashes T.
// Argument-dependent lookup finds it through the tag wherever it is declared.
struct Members {};

// Values fed one after another: equal sequences give equal digests and, short of an XXH3-128
// collision, unequal ones differ (lists and strings are length-prefixed, optionals flagged,
// variants tagged, structs member by member; -0 is hashed as 0, which it equals and draws as).
// Bytes are gathered in a buffer and handed to XXH3 in blocks (one update call per field would
// cost more than the hashing).
class BinaryDigest {
  public:
    BinaryDigest();
    ~BinaryDigest();
    BinaryDigest(const BinaryDigest&) = delete;
    BinaryDigest& operator=(const BinaryDigest&) = delete;

    void put(double v) { raw(v == 0 ? 0.0 : v); }
    void put(bool v) { raw(static_cast<std::uint8_t>(v)); }
    void put(std::uint8_t v) { raw(v); }
    void put(int v) { raw(static_cast<std::int64_t>(v)); }
    void put(std::size_t n) { raw(static_cast<std::uint64_t>(n)); }
    template <class E>
    requires std::is_enum_v<E>
    void put(E v) { raw(static_cast<std::int64_t>(v)); }
    void put(const std::string& text) {
        put(text.size());
        bytes(text.data(), text.size());
    }
    template <class T>
    void put(const std::optional<T>& v) {
        put(v.has_value());
        if (v) put(*v);
    }
    template <class T>
    void put(const std::vector<T>& list) {
        put(list.size());
        for (const T& v : list) put(v);
    }
    template <class... T>
    void put(const std::variant<T...>& v) {
        put(v.index());
        std::visit([this](const auto& alternative) { put(alternative); }, v);
    }
    template <class T>
    requires std::is_class_v<T>
    void put(const T& v) {
        std::apply([this](const auto&... member) { (put(member), ...); }, fields(Members{}, v));
    }

    // 32 lowercase hex digits of everything put so far.
    std::string hex();

  private:
    void flush() {
        XXH3_128bits_update(state_, buffer_.data(), used_);
        used_ = 0;
    }
    void bytes(const void* data, std::size_t n) {
        if (used_ + n > buffer_.size()) flush();
        if (n > buffer_.size()) {
            XXH3_128bits_update(state_, data, n);
            return;
        }
        std::memcpy(buffer_.data() + used_, data, n);
        used_ += n;
    }
    template <class T>
    void raw(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }

    XXH3_state_t* state_;
    std::array<unsigned char, 8192> buffer_;
    std::size_t used_ = 0;
};

// Scenes fed one after another, as BinaryDigest streams them.
class SceneDigest {
  public:
    void add(const story::Scene& scene);
    // 32 lowercase hex digits of every scene added so far.
    std::string hex() { return digest_.hex(); }

  private:
    BinaryDigest digest_;
};

// The digest of the chapter's frames 0..frames-1 at fps: the display lists a segment draws.
std::string frames_digest(const story::Chapter& chapter, int frames, int fps);

}  // namespace render

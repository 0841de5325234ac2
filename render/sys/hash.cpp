// XXH3-128 hex digests; see hash.hpp.
#include "render/sys/hash.hpp"

#include <xxhash.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

namespace render {

std::string hex128(std::uint64_t high, std::uint64_t low) {
    char hex[33];
    std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(high),
                  static_cast<unsigned long long>(low));
    return hex;
}

std::string xxh3_hex(std::string_view bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return hex128(h.high64, h.low64);
}

std::optional<std::string> file_digest(const std::string& path, std::string& error) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    XXH3_state_t* state = XXH3_createState();
    if (!state || XXH3_128bits_reset(state) != XXH_OK) throw std::bad_alloc();
    std::array<char, 1 << 16> block;
    while (const std::size_t n = std::fread(block.data(), 1, block.size(), file))
        XXH3_128bits_update(state, block.data(), n);
    const bool failed = std::ferror(file);
    if (failed) error = std::strerror(errno);
    std::fclose(file);
    const XXH128_hash_t hash = XXH3_128bits_digest(state);
    XXH3_freeState(state);
    if (failed) return std::nullopt;
    return hex128(hash.high64, hash.low64);
}

}  // namespace render

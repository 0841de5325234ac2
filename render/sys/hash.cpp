// XXH3-128 hex digests; see hash.hpp.
#include "render/sys/hash.hpp"

#include <xxhash.h>

#include <cstdio>

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

}  // namespace render

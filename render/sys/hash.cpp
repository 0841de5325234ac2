// XXH3-128 hex digests; see hash.hpp.
#include "render/sys/hash.hpp"

#include <xxhash.h>

#include <cstdio>

namespace render {

std::string xxh3_hex(std::string_view bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    char hex[33];
    std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return hex;
}

}  // namespace render

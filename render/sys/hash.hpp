// XXH3-128 of bytes as 32 lowercase hex digits: the digest in every cache key and record.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace render {

std::string xxh3_hex(std::string_view bytes);
// A 128-bit digest given as its two halves (XXH128_hash_t's high64, low64), written the same way.
std::string hex128(std::uint64_t high, std::uint64_t low);
// XXH3-128 of a file's bytes, read in blocks (music may be large); nullopt with error set to the
// system's reason when it cannot be read.
std::optional<std::string> file_digest(const std::string& path, std::string& error);

}  // namespace render

// XXH3-128 of bytes as 32 lowercase hex digits: the digest in every cache key and record.
#pragma once
#include <string>
#include <string_view>

namespace render {

std::string xxh3_hex(std::string_view bytes);

}  // namespace render

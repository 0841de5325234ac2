// Pruning the segment cache (render/film/segment_cache.hpp) to a size, least recently used
// first, and the layout of its records that pruning reads. No libav: a render that finds its
// films unchanged (render/film/film_record.hpp) prunes without loading the video module.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "render/film/director.hpp"
#include "render/film/segment_cache.hpp"

namespace render {

// <dir>/<key>.json: the record beside an entry of the cache.
std::string entry_json(const std::string& dir, const std::string& key);

// <dir>/first: first keys' records live in a folder of their own, so that every <key>.json beside
// the segments is a segment's.
std::string first_records_dir(const std::string& dir);

// The segment a first key's record names by its key's inputs, which must hash to its key: a
// record edited or cut short names none.
std::optional<SegmentKey> named_segment(const nlohmann::json& record);

// Deletes least recently used entries until the cache in `dir` holds at most limit bytes, never
// one whose key is in keep, and temporary files an interrupted writer left over an hour ago.
// The speech cache's lines in <dir>/speech (render/voice/speech_cache.hpp) count and go too;
// a first key's record goes with its segment.
void prune_cache(const std::string& dir, std::uintmax_t limit, const std::set<std::string>& keep);

// After a render of `films` (when it used the cache): prune_cache to options.cache_limit, never
// removing a segment in `used` nor a line the films speak.
void prune_after_render(const std::string& dir, const BatchOptions& options,
                        const std::vector<FilmJob>& films, std::set<std::string> used);

}  // namespace render

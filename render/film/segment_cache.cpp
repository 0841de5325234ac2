// Segment cache keys and first keys, lookups that verify what they return, atomic records and
// LRU pruning.
#include "render/film/segment_cache.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "render/container/video_probe.hpp"
#include "render/drawing_digest.hpp"  // generated at build time
#include "render/film/cache_prune.hpp"
#include "render/film/digest.hpp"
#include "render/film/film_record.hpp"
#include "render/sound/aac_segment.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "render/sys/json_file.hpp"
#include "story/storyboard/time.hpp"

namespace render {
namespace fs = std::filesystem;

namespace {

bool opens_with_frames(const std::string& path, const SegmentKey& k) {
    if (k.kind == SegmentKind::sound) return audio_packet_count(path) == k.frames;
    try {
        return probe_video(path).frame_count == k.frames;
    } catch (const SystemError&) {
        return false;
    }
}

const char* extension(SegmentKind kind) { return kind == SegmentKind::sound ? ".m4a" : ".mp4"; }

}  // namespace

// No spec, theme, captions mode or engine figure appears here: whatever of them reaches the
// pixels is in the scenes, and whatever is not (an id, a caption sent as a track) is no reason
// to draw the segment again. The language and its catalogue's digest are (the words drawn are in
// the scenes too): a segment records what it was drawn in, and an edited translation re-keys its
// own language's segments, never another's.
SegmentKey segment_key(const story::ChapterSpec& spec, const story::Chapter& chapter,
                       const story::Video& video, const EncoderSettings& encoder,
                       const Fonts& fonts) {
    const int frames = story::frame_count(spec.duration, video.fps);
    const nlohmann::json inputs = {
        {"scenes", frames_digest(chapter, frames, video.fps)},
        {"frames", frames},
        {"video", {{"width", video.width}, {"height", video.height}, {"fps", video.fps}}},
        {"encoder", to_string(encoder)},
        {"fonts", fonts.digest()},
        {"drawing", SHARDREEL_DRAWING_DIGEST},
        {"lang", video.lang},
        {"catalogue", catalogue_digest(video.lang)},
    };
    std::string text = inputs.dump();  // object keys sorted: canonical
    return {xxh3_hex(text), std::move(text), frames};
}

SegmentCache::SegmentCache(std::string dir) : dir_(std::move(dir)) {}

SegmentCache::~SegmentCache() {
    std::error_code ec;
    if (created_) fs::remove(dir_, ec);  // succeeds only while empty
}

std::string SegmentCache::segment_path(const SegmentKey& k) const {
    return (fs::path(dir_) / (k.key + extension(k.kind))).string();
}

void SegmentCache::prepare() {
    std::error_code ec;
    if (fs::is_directory(dir_, ec)) return;
    fs::create_directories(dir_, ec);
    if (ec) throw SystemError("cannot create cache directory " + dir_ + ": " + ec.message());
    created_ = true;
}

bool SegmentCache::valid(const SegmentKey& k) const {
    const auto record = read_json_object(entry_json(dir_, k.key));
    if (!record || record->value("inputs", nlohmann::json()).dump() != k.inputs ||
        record->value("frames", -1) != k.frames)
        return false;
    std::string error;  // hashed as it is read, never held whole
    const auto digest = file_digest(segment_path(k), error);
    return digest && *digest == record->value("xxh3", "") && opens_with_frames(segment_path(k), k);
}

bool SegmentCache::lookup(const SegmentKey& k) const {
    if (!valid(k)) return false;
    touch(k);
    return true;
}

void SegmentCache::touch(const SegmentKey& k) const {
    touch_entry(dir_, fs::path(segment_path(k)).filename().string());
}

void SegmentCache::commit(const SegmentKey& k) const {
    std::string error;
    const auto bytes = read_file(segment_path(k), error);
    if (!bytes) throw SystemError("cannot read segment " + segment_path(k) + ": " + error);
    const nlohmann::json record = {{"key", k.key},
                                   {"frames", k.frames},
                                   {"bytes", bytes->size()},
                                   {"xxh3", xxh3_hex(*bytes)},
                                   {"inputs", nlohmann::json::parse(k.inputs)}};
    try {
        write_file_atomic(entry_json(dir_, k.key), record.dump(2) + "\n");
    } catch (const SystemError&) {
        std::error_code ec;  // a segment without its record is a miss: take the space back
        fs::remove(segment_path(k), ec);
        throw;
    }
}

std::optional<SegmentKey> SegmentCache::recorded(const FirstKey& first) const {
    const auto record = read_json_object(entry_json(first_records_dir(dir_), first.key));
    if (!record || record->value("inputs", nlohmann::json()).dump() != first.inputs) return {};
    auto k = named_segment(*record);
    if (!k || !valid(*k)) return {};
    return k;
}

void SegmentCache::record(const FirstKey& first, const SegmentKey& k) const {
    const nlohmann::json record = {
        {"key", first.key},
        {"inputs", nlohmann::json::parse(first.inputs)},
        {"segment",
         {{"key", k.key}, {"frames", k.frames}, {"inputs", nlohmann::json::parse(k.inputs)}}}};
    std::error_code ec;
    fs::create_directories(first_records_dir(dir_), ec);
    try {
        write_file_atomic(entry_json(first_records_dir(dir_), first.key), record.dump(2) + "\n");
    } catch (const SystemError&) {  // a missing record costs the next render its scenes, no more
    }
}

void SegmentCache::prune(std::uintmax_t limit, const std::set<std::string>& keep) const {
    prune_cache(dir_, limit, keep);
}

}  // namespace render

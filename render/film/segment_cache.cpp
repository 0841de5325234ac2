// Segment cache keys and first keys, lookups that verify what they return, atomic records and
// LRU pruning.
#include "render/film/segment_cache.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "render/av/aac_segment.hpp"
#include "render/av/video_probe.hpp"
#include "render/code_digest.hpp"     // generated at build time
#include "render/drawing_digest.hpp"  // generated at build time
#include "render/film/chapter_fields.hpp"
#include "render/film/digest.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "render/sys/json_file.hpp"
#include "story/storyboard/time.hpp"
#include "story/text/locale.hpp"

namespace render {
namespace fs = std::filesystem;

namespace {

std::string json_path(const std::string& dir, const std::string& key) {
    return (fs::path(dir) / (key + ".json")).string();
}

// First keys' records live in a folder of their own: every <key>.json beside the segments is a
// segment's.
fs::path first_dir(const std::string& dir) { return fs::path(dir) / "first"; }

// The segment a first key's record names by its key's inputs, which must hash to its key: a
// record edited or cut short names none.
std::optional<SegmentKey> named_segment(const nlohmann::json& record) {
    try {
        const nlohmann::json& segment = record.at("segment");
        SegmentKey k{segment.at("key").get<std::string>(), segment.at("inputs").dump(),
                     segment.at("frames").get<int>()};
        if (k.key != xxh3_hex(k.inputs)) return {};
        return k;
    } catch (const nlohmann::json::exception&) {
        return {};
    }
}

bool is_key(const std::string& stem) {
    return stem.size() == 32 && stem.find_first_not_of("0123456789abcdef") == std::string::npos;
}

bool opens_with_frames(const std::string& path, const SegmentKey& k) {
    if (k.kind == SegmentKind::sound) return audio_packet_count(path) == k.frames;
    try {
        return probe_video(path).frame_count == k.frames;
    } catch (const SystemError&) {
        return false;
    }
}

const char* extension(SegmentKind kind) { return kind == SegmentKind::sound ? ".m4a" : ".mp4"; }

// The XXH3-128 of locale/<language>.po the build embedded, or "" (English: no catalogue).
std::string catalogue_digest(const std::string& lang) {
    const story::Catalogue* c = story::Locale(lang).catalogue();
    return c ? std::string(c->digest()) : std::string();
}

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

std::string built_code_digest() { return SHARDREEL_CODE_DIGEST; }

// The scenes are not here, only what they are made from: whatever a spec, the storyboard's
// defaults, a line's timing, the theme, a font, a translation or the code changes, it changes
// one of these.
FirstKey first_key(const story::ChapterSpec& spec, const story::Video& video,
                   const EncoderSettings& encoder, const Fonts& fonts,
                   const std::string& code_digest) {
    BinaryDigest made_from;
    made_from.put(spec);
    made_from.put(video);
    made_from.put(encoder);
    const nlohmann::json inputs = {
        {"chapter", made_from.hex()},
        {"fonts", fonts.digest()},
        {"drawing", SHARDREEL_DRAWING_DIGEST},
        {"code", code_digest},
        {"catalogue", catalogue_digest(video.lang)},
    };
    std::string text = inputs.dump();
    return {xxh3_hex(text), std::move(text)};
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
    const auto record = read_json_object(json_path(dir_, k.key));
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
    std::error_code ec;  // a failed touch only makes the entry look older
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(segment_path(k), now, ec);
    fs::last_write_time(json_path(dir_, k.key), now, ec);
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
        write_file_atomic(json_path(dir_, k.key), record.dump(2) + "\n");
    } catch (const SystemError&) {
        std::error_code ec;  // a segment without its record is a miss: take the space back
        fs::remove(segment_path(k), ec);
        throw;
    }
}

std::optional<SegmentKey> SegmentCache::recorded(const FirstKey& first) const {
    const auto record = read_json_object(json_path(first_dir(dir_).string(), first.key));
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
    fs::create_directories(first_dir(dir_), ec);
    try {
        write_file_atomic(json_path(first_dir(dir_).string(), first.key), record.dump(2) + "\n");
    } catch (const SystemError&) {  // a missing record costs the next render its scenes, no more
    }
}

namespace {

struct Entry {
    fs::path segment;
    std::string key;
    fs::file_time_type used;
    std::uintmax_t bytes = 0;
};

std::uintmax_t size_or_zero(const fs::path& p) {
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    return ec ? 0 : n;
}

bool is_stale_temp(const fs::directory_entry& e, fs::file_time_type now) {
    std::error_code ec;
    const auto t = e.last_write_time(ec);
    return !ec && e.path().filename().string().find(".tmp-") != std::string::npos &&
           now - t > std::chrono::hours(1);
}

}  // namespace

namespace {

// The entries of one folder of the cache: files `<key><ext>` with their records `<key>.json`.
void collect(const fs::path& dir, const std::set<fs::path>& exts, fs::file_time_type now,
             std::vector<Entry>& entries) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        if (is_stale_temp(e, now)) fs::remove(e.path(), ec);
        const std::string stem = e.path().stem().string();
        if (!exts.count(e.path().extension()) || !is_key(stem)) continue;
        entries.push_back({e.path(), stem, e.last_write_time(ec),
                           size_or_zero(e.path()) + size_or_zero(json_path(dir.string(), stem))});
    }
}

// First keys' records whose segment is gone (or that name none), and temporary files an
// interrupted writer left there.
void drop_orphan_records(const std::string& dir, fs::file_time_type now) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(first_dir(dir), ec)) {
        if (is_stale_temp(e, now)) fs::remove(e.path(), ec);
        if (e.path().extension() != ".json" || !is_key(e.path().stem().string())) continue;
        const auto record = read_json_object(e.path().string());
        const auto segment = record ? named_segment(*record) : std::nullopt;
        if (!segment || !fs::exists(fs::path(dir) / (segment->key + ".mp4"), ec))
            fs::remove(e.path(), ec);
    }
}

}  // namespace

void SegmentCache::prune(std::uintmax_t limit, const std::set<std::string>& keep) const {
    std::vector<Entry> entries;
    const auto now = fs::file_time_type::clock::now();
    collect(dir_, {".mp4", ".m4a"}, now, entries);
    collect(fs::path(dir_) / "speech", {".f32"}, now, entries);  // render/voice/speech_cache
    std::uintmax_t total = 0;
    for (const Entry& e : entries) total += e.bytes;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.used < b.used; });
    std::error_code ec;
    for (const Entry& e : entries) {
        if (total <= limit) break;
        if (keep.count(e.key)) continue;
        // The record first: an entry without one is a miss.
        fs::remove(json_path(e.segment.parent_path().string(), e.key), ec);
        fs::remove(e.segment, ec);
        total -= e.bytes;
    }
    drop_orphan_records(dir_, now);
}

}  // namespace render

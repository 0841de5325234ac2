// Cache pruning; see cache_prune.hpp.
#include "render/film/cache_prune.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "render/sys/hash.hpp"
#include "render/sys/json_file.hpp"

namespace render {
namespace fs = std::filesystem;

std::string entry_json(const std::string& dir, const std::string& key) {
    return (fs::path(dir) / (key + ".json")).string();
}

std::string first_records_dir(const std::string& dir) { return (fs::path(dir) / "first").string(); }

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

namespace {

struct Entry {
    fs::path segment;
    std::string key;
    fs::file_time_type used;
    std::uintmax_t bytes = 0;
};

bool is_key(const std::string& stem) {
    return stem.size() == 32 && stem.find_first_not_of("0123456789abcdef") == std::string::npos;
}

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

// The entries of one folder of the cache: files `<key><ext>` with their records `<key>.json`.
void collect(const fs::path& dir, const std::set<fs::path>& exts, fs::file_time_type now,
             std::vector<Entry>& entries) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        if (is_stale_temp(e, now)) fs::remove(e.path(), ec);
        const std::string stem = e.path().stem().string();
        if (!exts.count(e.path().extension()) || !is_key(stem)) continue;
        entries.push_back({e.path(), stem, e.last_write_time(ec),
                           size_or_zero(e.path()) + size_or_zero(entry_json(dir.string(), stem))});
    }
}

// First keys' records whose segment is gone (or that name none), and temporary files an
// interrupted writer left there.
void drop_orphan_records(const std::string& dir, fs::file_time_type now) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(first_records_dir(dir), ec)) {
        if (is_stale_temp(e, now)) fs::remove(e.path(), ec);
        if (e.path().extension() != ".json" || !is_key(e.path().stem().string())) continue;
        const auto record = read_json_object(e.path().string());
        const auto segment = record ? named_segment(*record) : std::nullopt;
        if (!segment || !fs::exists(fs::path(dir) / (segment->key + ".mp4"), ec))
            fs::remove(e.path(), ec);
    }
}

}  // namespace

void prune_cache(const std::string& dir, std::uintmax_t limit, const std::set<std::string>& keep) {
    std::vector<Entry> entries;
    const auto now = fs::file_time_type::clock::now();
    collect(dir, {".mp4", ".m4a"}, now, entries);
    collect(fs::path(dir) / "speech", {".f32"}, now, entries);  // render/voice/speech_cache
    std::uintmax_t total = 0;
    for (const Entry& e : entries) total += e.bytes;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.used < b.used; });
    std::error_code ec;
    for (const Entry& e : entries) {
        if (total <= limit) break;
        if (keep.count(e.key)) continue;
        // The record first: an entry without one is a miss.
        fs::remove(entry_json(e.segment.parent_path().string(), e.key), ec);
        fs::remove(e.segment, ec);
        total -= e.bytes;
    }
    drop_orphan_records(dir, now);
}

void prune_after_render(const std::string& dir, const BatchOptions& options,
                        const std::vector<FilmJob>& films, std::set<std::string> used) {
    if (!options.use_cache || used.empty()) return;
    for (const FilmJob& film : films) {  // the lines the films speak
        for (const story::ChapterSpec& chapter : film.board.chapters) {
            for (const story::Beat& beat : chapter.beats) {
                if (beat.speech && !beat.speech->key.empty()) used.insert(beat.speech->key);
            }
        }
    }
    prune_cache(dir, options.cache_limit, used);
}

}  // namespace render

// Films' records; see film_record.hpp.
#include "render/film/film_record.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "render/sinks/sink.hpp"
#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "render/sys/json_file.hpp"
#include "story/time/film_time.hpp"

namespace render {
namespace fs = std::filesystem;

bool assembled_from_segments(const std::string& output) {
    return lowercase_extension(output) == ".mp4";
}

bool keeps_record(const FilmJob& film, const BatchOptions& options) {
    return options.use_cache && !options.segment_only && !options.sound_only &&
           assembled_from_segments(film.output);
}

void touch_entry(const std::string& dir, const std::string& name) {
    std::error_code ec;  // a failed touch only makes the entry look older
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(fs::path(dir) / name, now, ec);
    fs::last_write_time(fs::path(dir) / fs::path(name).replace_extension(".json"), now, ec);
}

namespace {

std::int64_t nanoseconds(const timespec& t) {
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// What says a file is the one written: nullopt when it is gone.
std::optional<nlohmann::json> file_state(const std::string& path) {
    struct stat s {};
    if (::stat(path.c_str(), &s) != 0) return std::nullopt;
    return nlohmann::json{{"device", static_cast<std::uint64_t>(s.st_dev)},
                          {"inode", static_cast<std::uint64_t>(s.st_ino)},
                          {"bytes", static_cast<std::int64_t>(s.st_size)},
                          {"mtime_ns", nanoseconds(s.st_mtim)},
                          {"ctime_ns", nanoseconds(s.st_ctim)}};
}

std::string record_path(const std::string& cache_dir, const std::string& output) {
    const std::string absolute = fs::absolute(output).lexically_normal().string();
    return (fs::path(cache_dir) / "films" / (xxh3_hex(absolute) + ".json")).string();
}

std::optional<std::string> digest_of(const std::string& path) {
    std::string error;
    return file_digest(path, error);
}

// Whether the file is still the one `recorded` describes; `racy` when the record was written in
// the clock tick of the file's last change (its times would not show a change in that tick).
bool same_file(const nlohmann::json& recorded, std::int64_t record_written, bool& racy) {
    const std::string path = recorded.value("path", "");
    const auto now = file_state(path);
    if (!now) return false;
    for (const auto& [name, value] : now->items())
        if (recorded.value(name, nlohmann::json()) != value) return false;
    if (now->at("ctime_ns").get<std::int64_t>() < record_written) return true;
    racy = true;
    return digest_of(path) == recorded.value("xxh3", "");
}

bool same_files(const nlohmann::json& record, const std::string& path, bool& racy) {
    const auto written = file_state(path);
    const nlohmann::json files = record.value("files", nlohmann::json::array());
    if (!written || !files.is_array() || files.empty()) return false;
    const std::int64_t when = written->at("mtime_ns");
    for (const nlohmann::json& f : files)
        if (!f.is_object() || !same_file(f, when, racy)) return false;
    return true;
}

KeptFilm kept(const FilmJob& film, const FilmKey& key, const nlohmann::json& segments,
              const std::string& cache_dir) {
    KeptFilm out;
    out.report.output = film.output;
    const story::FilmTime time(film.board.chapters, film.video.fps);
    for (std::size_t c = 0; c < time.chapters().size(); ++c) {
        out.report.chapters.push_back({film.board.chapters[c].id, true, time.chapter(c).frames, 0});
        if (key.sound) out.report.chapters.back().sound_cached = true;
    }
    for (const nlohmann::json& name : segments) {
        touch_entry(cache_dir, name.get<std::string>());
        out.segments.insert(fs::path(name.get<std::string>()).stem().string());
    }
    return out;
}

}  // namespace

std::optional<KeptFilm> unchanged_film(const FilmJob& film, const FilmKey& key,
                                       const std::string& cache_dir) {
    const std::string path = record_path(cache_dir, film.output);
    const auto record = read_json_object(path);
    if (!record || record->value("key", "") != key.key ||
        record->value("inputs", nlohmann::json()).dump() != key.inputs)
        return std::nullopt;
    bool racy = false;
    if (!same_files(*record, path, racy)) return std::nullopt;
    const nlohmann::json segments = record->value("segments", nlohmann::json::array());
    if (!segments.is_array()) return std::nullopt;
    for (const nlohmann::json& name : segments)
        if (!name.is_string()) return std::nullopt;
    try {
        if (racy) write_file_atomic(path, record->dump(2) + "\n");  // now later than the files
    } catch (const SystemError&) {  // the next render compares the bytes again
    }
    return kept(film, key, segments, cache_dir);
}

std::vector<FilmState> film_states(const std::vector<FilmJob>& films, const Fonts& fonts,
                                   const BatchOptions& options, const std::string& cache_dir,
                                   const std::vector<bool>& muted) {
    std::vector<FilmState> out(films.size());
    for (std::size_t i = 0; i < films.size(); ++i) {
        if (!keeps_record(films[i], options)) continue;
        out[i].key = film_key(films[i], fonts, options.encoder, options.code.digest, muted[i]);
        if (out[i].key) out[i].kept = unchanged_film(films[i], *out[i].key, cache_dir);
    }
    return out;
}

void record_film(const FilmJob& film, const FilmKey& key, const std::vector<std::string>& files,
                 const std::vector<std::string>& segments, const std::string& cache_dir) {
    nlohmann::json written = nlohmann::json::array();
    for (const std::string& file : files) {
        auto state = file_state(file);
        const auto digest = digest_of(file);
        if (!state || !digest || file_state(file) != state) return;  // changed as it was read
        (*state)["path"] = fs::absolute(file).lexically_normal().string();
        (*state)["xxh3"] = *digest;
        written.push_back(std::move(*state));
    }
    const nlohmann::json record = {{"key", key.key},
                                   {"inputs", nlohmann::json::parse(key.inputs)},
                                   {"files", written},
                                   {"segments", segments}};
    const std::string path = record_path(cache_dir, film.output);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    try {
        write_file_atomic(path, record.dump(2) + "\n");
    } catch (const SystemError&) {  // a missing record costs the next render an assembly
    }
}

}  // namespace render

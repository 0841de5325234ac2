// Speech cache keys, verified lookups and atomic stores; see speech_cache.hpp.
#include "render/voice/speech_cache.hpp"

#include <bit>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"
#include "render/sys/json_file.hpp"
#include "render/voice_digest.hpp"  // generated at build time

namespace render {
namespace fs = std::filesystem;

static_assert(std::endian::native == std::endian::little, "<key>.f32 is little-endian");

namespace {

// What each engine's output depends on beyond our code: its Debian packages' versions, read
// when the build was configured (SHARDREEL_*_VERSION, CMakeLists.txt).
const char* engine_version(story::VoiceEngine engine) {
    switch (engine) {
        case story::VoiceEngine::espeak:
            return SHARDREEL_ESPEAK_VERSION;
        case story::VoiceEngine::festival:
            return SHARDREEL_FESTIVAL_VERSION;
        case story::VoiceEngine::open_jtalk:
            return SHARDREEL_OPEN_JTALK_VERSION;
        case story::VoiceEngine::recorded:
            return SHARDREEL_LIBAV_VERSION;
        case story::VoiceEngine::off:
            break;
    }
    return "";
}

story::Speech speech_of(const std::string& key, std::size_t samples, std::vector<double> marks) {
    return {static_cast<double>(samples) / kAudioRate, std::move(marks), key};
}

}  // namespace

SpeechKey speech_key(const voice::LineRequest& request, const std::string& file_digest) {
    const nlohmann::json inputs = {
        {"engine", voice::engine_name(request.engine)},
        {"engine_version", engine_version(request.engine)},
        {"voice", request.voice},
        {"wpm", request.wpm},
        {"text", request.text},
        {"marks", request.marks},
        {"file", file_digest},
        {"code", SHARDREEL_VOICE_DIGEST},
    };
    std::string text = inputs.dump();  // object keys sorted: canonical
    return {xxh3_hex(text), std::move(text)};
}

SpeechCache::SpeechCache(const std::string& cache_dir)
    : dir_((fs::path(cache_dir) / "speech").string()) {}

std::string SpeechCache::pcm_path(const std::string& key) const {
    return (fs::path(dir_) / (key + ".f32")).string();
}

std::optional<story::Speech> SpeechCache::lookup(const SpeechKey& k) const {
    const auto record = read_json_object((fs::path(dir_) / (k.key + ".json")).string());
    if (!record || record->value("inputs", nlohmann::json()).dump() != k.inputs) return {};
    const auto samples = record->value("samples", std::size_t{0});
    // Hashed as it is read, never held whole: the default film's 67 lines are 74 MB.
    std::error_code ec;
    std::string error;
    if (fs::file_size(pcm_path(k.key), ec) != samples * sizeof(float) || ec) return {};
    const auto pcm = file_digest(pcm_path(k.key), error);
    if (!pcm || *pcm != record->value("xxh3", "")) return {};
    // A hit is touched, as the segments are: pruning (SegmentCache::prune) goes by last use.
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(pcm_path(k.key), now, ec);
    fs::last_write_time(fs::path(dir_) / (k.key + ".json"), now, ec);
    try {
        return speech_of(k.key, samples, record->at("marks").get<std::vector<double>>());
    } catch (const nlohmann::json::exception&) {
        return {};
    }
}

story::Speech SpeechCache::store(const SpeechKey& k, const voice::Line& line) const {
    std::string pcm(line.pcm.size() * sizeof(float), '\0');
    std::memcpy(pcm.data(), line.pcm.data(), pcm.size());
    const nlohmann::json record = {{"key", k.key},
                                   {"samples", line.pcm.size()},
                                   {"seconds", static_cast<double>(line.pcm.size()) / kAudioRate},
                                   {"marks", line.marks},
                                   {"xxh3", xxh3_hex(pcm)},
                                   {"inputs", nlohmann::json::parse(k.inputs)}};
    ensure_parent_dir(pcm_path(k.key));
    // The PCM first: a record is only ever written beside the samples it describes.
    write_file_atomic(pcm_path(k.key), pcm);
    write_file_atomic((fs::path(dir_) / (k.key + ".json")).string(), record.dump(2) + "\n");
    return speech_of(k.key, line.pcm.size(), line.marks);
}

}  // namespace render

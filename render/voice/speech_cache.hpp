// The speech cache: each spoken line as <cache>/speech/<key>.f32 (48 kHz mono float,
// little-endian, no header) beside <key>.json {key, samples, marks, xxh3, inputs}. The key is the
// XXH3-128 of the inputs: engine, its version, voice, wpm, text, bookmark offsets, the digest of
// the file spoken from (the take, or Open JTalk's .htsvoice) and the digest of the voice code, so
// a hit needs no engine at all.
#pragma once
#include <optional>
#include <string>

#include "render/voice/synthesizer.hpp"
#include "story/storyboard/narration.hpp"

namespace render {

struct SpeechKey {
    std::string key;     // 32 hex digits
    std::string inputs;  // canonical JSON of what the key hashes
};

// file_digest: XXH3-128 of the bytes of the take (recorded) or of the voice's .htsvoice
// (open-jtalk), else empty.
SpeechKey speech_key(const voice::LineRequest& request, const std::string& file_digest);

class SpeechCache {
  public:
    explicit SpeechCache(const std::string& cache_dir);  // files go into <cache_dir>/speech

    std::string pcm_path(const std::string& key) const;
    // The line's speech when <key>.json holds exactly these inputs and <key>.f32 the recorded
    // number of samples and digest; a damaged entry is a miss (and is overwritten).
    std::optional<story::Speech> lookup(const SpeechKey& key) const;
    // Writes the PCM, then the record, each to a temporary name renamed into place; throws
    // SystemError (a full disk, a read-only cache).
    story::Speech store(const SpeechKey& key, const voice::Line& line) const;

  private:
    std::string dir_;
};

}  // namespace render

// The segment cache: each chapter's encoded MP4 segment stored as <key>.mp4 under a directory,
// keyed by a hash of what it draws and how that is encoded, and its sound as <key>.m4a keyed by
// what it plays, each with the key's inputs and the segment's digest in <key>.json beside it;
// least recently used segments are pruned first. A cheap first key, of what a chapter is made
// from, records in first/<key>.json which segment key its scenes gave.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "render/draw/fonts.hpp"
#include "render/film/film_key.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "story/chapter/chapter.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

inline constexpr std::uintmax_t kDefaultCacheLimit = 2'000'000'000;  // 2 GB

// What one chapter's segment depends on: its display lists (the digest of every frame's scene,
// which carries the spec, theme, burnt captions and every engine figure drawn), the frame count,
// the output size and fps, the encoder settings, the font files' digest, the digest of the
// code that turns scenes into pixels and bytes (render/draw, render/markup, render/sinks,
// render/av: the picture's, no sound code), and the film's language with its message
// catalogue's digest (locale/<language>.po; none for English).
enum class SegmentKind { video, sound };

struct SegmentKey {
    std::string key;     // 32 hex digits: XXH3-128 of `inputs`
    std::string inputs;  // canonical JSON text (sorted keys), stored in <key>.json
    int frames = 0;      // the segment's frame count (sound: AAC packets)
    SegmentKind kind = SegmentKind::video;
};
// Builds every frame's scene (not its pixels) to hash it.
SegmentKey segment_key(const story::ChapterSpec& spec, const story::Chapter& chapter,
                       const story::Video& video, const EncoderSettings& encoder,
                       const Fonts& fonts);

class SegmentCache {
  public:
    explicit SegmentCache(std::string dir);
    // Removes the directory if this object created it and nothing was stored in it.
    ~SegmentCache();
    SegmentCache(const SegmentCache&) = delete;
    SegmentCache& operator=(const SegmentCache&) = delete;

    const std::string& dir() const { return dir_; }
    std::string segment_path(const SegmentKey& k) const;  // <dir>/<key>.mp4 (sound: .m4a)
    // Creates the directory if missing. Throws SystemError.
    void prepare();

    // A usable segment: <key>.json holds exactly these inputs, the segment's XXH3-128 matches
    // the one recorded, and libavformat reads it with the expected frame (or packet) count.
    // Never modifies
    // the cache (a bad entry is simply overwritten when re-rendered).
    bool valid(const SegmentKey& k) const;
    // valid(), and on a hit marks the entry as just used (touch()).
    bool lookup(const SegmentKey& k) const;
    // Marks the entry as just used (modification time: LRU pruning).
    void touch(const SegmentKey& k) const;
    // Records a segment just renamed into segment_path(k): writes <key>.json atomically. Two
    // processes storing the same key write identical files, so either rename may win.
    void commit(const SegmentKey& k) const;

    // The segment key recorded for `first` (first/<key>.json), when the record holds exactly its
    // inputs and names a segment valid() finds; nullopt otherwise (no record, a damaged one, its
    // segment gone). Never modifies the cache.
    std::optional<SegmentKey> recorded(const FirstKey& first) const;
    // Records that `first` gave segment k, written atomically. A record that cannot be written is
    // left out: the next render builds the scenes again.
    void record(const FirstKey& first, const SegmentKey& k) const;

    // Deletes least recently used entries until the cache holds at most limit bytes, never one
    // whose key is in keep, and temporary files an interrupted writer left over an hour ago.
    // The speech cache's lines in <dir>/speech (render/voice/speech_cache.hpp) count and go too;
    // a first key's record goes with its segment.
    void prune(std::uintmax_t limit, const std::set<std::string>& keep) const;

  private:
    std::string dir_;
    bool created_ = false;
};

}  // namespace render

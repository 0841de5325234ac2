// Open JTalk, Japanese only, through Debian's open_jtalk program (Debian ships no library): one
// run per line in a private temporary folder, its 48 kHz WAV read back with libav (~0.2 s a
// line). Bookmarks are timed from the run's label trace; see open_jtalk_voice.cpp.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "render/voice/module/raw_speech.hpp"

namespace render::voice {

// A new folder, made from `pattern` (a path ending in XXXXXX, mkdtemp), removed with its files.
class TempFolder {
  public:
    explicit TempFolder(std::string pattern);  // throws std::runtime_error
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const char* name) const { return path_ + "/" + name; }

  private:
    std::string path_;
};

class OpenJtalk {
  public:
    // Finds the program, its dictionary and the voices; throws std::runtime_error naming the
    // Debian package to install for whichever is missing. Makes a folder of its own under
    // $TMPDIR (or /tmp), removed with the instance: each line's files are in a folder in it, and
    // those of a worker killed mid-line (a failure elsewhere, an interrupt) go with it too.
    OpenJtalk();

    // The installed voices' names ("nitech-jp-atr503-m001"), sorted.
    const std::vector<std::string>& voices() const { return voices_; }
    // Speaks with one of voices(); wpm 0: the voice's own pace, else open_jtalk's speed ratio -r
    // is speed_ratio(wpm). HTS meets that ratio in the whole utterance, silence included, and
    // stretches silence and pauses most: at half the wpm the speech is about 1.5 times as long.
    // Runs open_jtalk once for the line and once more for the text before each bookmark that is
    // not at its start.
    RawSpeech speak(const std::string& voice, int wpm, const std::string& text,
                    const std::vector<std::size_t>& marks) const;

  private:
    std::map<std::string, std::string> files_;  // each voice's .htsvoice
    std::vector<std::string> voices_;
    TempFolder folder_;
};

}  // namespace render::voice

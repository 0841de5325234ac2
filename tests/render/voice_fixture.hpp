// What the voice tests share (voice_test, takes_test, open_jtalk_test): a one-chapter storyboard
// whose beats say lines, its speech filled by fill_speech into a cache, and what it spoke read
// back.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "story/storyboard/narration.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render_test {

inline constexpr const char* kLine =
    "Scale to 70 billion parameters, and the state grows to 1,120 GB.";

// A narration by `engine` in `name` at `wpm` (0: the engine's pace), written at line 3, col 12.
story::Narration voice(story::VoiceEngine engine, const std::string& name, int wpm = 0);
// Recorded takes from the folder `takes`.
story::Narration recorded(const std::string& takes);
extern const story::Narration kEspeak, kFestival;

// One chapter `intro` whose beats say lines (an empty one only animates), the Nth at line 10+2N.
story::Storyboard board(const story::Narration& narration, const std::vector<std::string>& lines,
                        const std::filesystem::path& file);
// Bookmarks the words of the first beat (by their first occurrence).
void mark(story::Storyboard& b, const std::vector<std::string>& words);

struct Filled {
    bool ok = false;
    std::string err;
};
// fill_speech against the cache folder.
Filled fill(story::Storyboard& b, const std::filesystem::path& cache);

// The speech of beat `beat` (it must have one).
const story::Speech& speech(const story::Storyboard& b, std::size_t beat = 0);
// Its samples as the cache holds them, as long as its length says.
std::vector<float> pcm(const story::Storyboard& b, const std::filesystem::path& cache,
                       std::size_t beat = 0);

// The four bookmarks of `s` fall in order inside the speech: the first within `first` seconds of
// the trimmed line's start, the last at least 0.3 s before its end (a word still to be said).
void check_four_marks_in_order(const story::Speech& s, double first);

// A worker speaks one line after another in one process: what the engine keeps from a line must
// not change the next one's sound. lines[2] is spoken alone, then third of four in one worker.
void check_alone_and_after(const story::Narration& n, const std::vector<std::string>& lines);

}  // namespace render_test

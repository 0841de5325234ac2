// See voice_fixture.hpp.
#include "tests/render/voice_fixture.hpp"

#include <cmath>
#include <sstream>

#include "render/sound/decode/audio_decode.hpp"
#include "render/voice/speech.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;

namespace render_test {

story::Narration voice(story::VoiceEngine engine, const std::string& name, int wpm) {
    story::Narration n;
    n.engine = engine;
    n.voice = name;
    n.wpm = wpm;
    n.pos = {3, 12};
    return n;
}

story::Narration recorded(const std::string& takes) {
    story::Narration n = voice(story::VoiceEngine::recorded, "");
    n.takes = takes;
    return n;
}

story::Storyboard board(const story::Narration& narration, const std::vector<std::string>& lines,
                        const fs::path& file) {
    story::Storyboard b;
    b.file = file.string();
    story::ChapterSpec chapter;
    chapter.id = "intro";
    chapter.duration = 20;
    chapter.narration = narration;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        story::Beat beat;
        beat.say = lines[i];
        beat.pos = {10 + 2 * static_cast<int>(i), 7};
        chapter.beats.push_back(beat);
    }
    b.chapters.push_back(chapter);
    return b;
}

void mark(story::Storyboard& b, const std::vector<std::string>& words) {
    story::Beat& beat = b.chapters[0].beats[0];
    for (const std::string& w : words) beat.marks.push_back({w, beat.say.find(w)});
}

Filled fill(story::Storyboard& b, const fs::path& cache) {
    std::ostringstream err;
    const bool ok = render::fill_speech(b, cache.string(), err);
    return {ok, err.str()};
}

const story::Speech& speech(const story::Storyboard& b, std::size_t beat) {
    REQUIRE(b.chapters[0].beats[beat].speech);
    return *b.chapters[0].beats[beat].speech;
}

std::vector<float> pcm(const story::Storyboard& b, const fs::path& cache, std::size_t beat) {
    const auto line = render::speech_line(b.chapters[0].beats[beat], cache.string());
    REQUIRE(line);
    std::vector<float> samples = render::decode_audio(line->path, 1).samples;
    CHECK(samples.size() == static_cast<std::size_t>(std::lround(line->seconds * 48000)));
    return samples;
}

const story::Narration kEspeak = voice(story::VoiceEngine::espeak, "en-us");
const story::Narration kFestival = voice(story::VoiceEngine::festival, "cmu_us_slt_arctic_hts");

void check_alone_and_after(const story::Narration& n, const std::vector<std::string>& lines) {
    INFO(n.voice);
    const TempDir dir;
    story::Storyboard alone = board(n, {lines[2]}, dir.path / "a.yaml");
    story::Storyboard after = board(n, lines, dir.path / "a.yaml");
    std::ostringstream err;
    REQUIRE(render::fill_speech(alone, (dir.path / "alone").string(), err, 1));
    REQUIRE(render::fill_speech(after, (dir.path / "after").string(), err, 1));
    CHECK(speech(alone, 0) == speech(after, 2));
    CHECK(slurp(dir.path / "alone/speech" / (speech(alone, 0).key + ".f32")) ==
          slurp(dir.path / "after/speech" / (speech(after, 2).key + ".f32")));
}

void check_four_marks_in_order(const story::Speech& s, double first) {
    REQUIRE(s.marks.size() == 4);
    CHECK(s.marks[0] < first);
    CHECK(s.marks[0] < s.marks[1]);
    CHECK(s.marks[1] < s.marks[2]);
    CHECK(s.marks[2] < s.marks[3]);
    CHECK(s.marks[3] < s.seconds - 0.3);
}

}  // namespace render_test

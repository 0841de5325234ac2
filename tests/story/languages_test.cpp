// Storyboards in several languages (issue 18): text fields as maps by language resolved to the
// language of each load, the fallback and its warning, language tags and their ISO 639-2 codes,
// the voice of each language, and the diagnostics of another language's timing.
#include "story/storyboard/languages.hpp"

#include "story/load/load.hpp"
#include "story/load/timed.hpp"
#include "story/text/lang.hpp"
#include "tests/catch.hpp"
#include "tests/story/expectations.hpp"

namespace {

const std::string kSource = SHARDREEL_SOURCE_DIR;

using story_test::slurp;

struct Loaded {
    std::optional<story::Storyboard> board;
    std::string diagnostics;  // errors and warnings as check prints them
};

Loaded load(const std::string& text, const std::string& lang) {
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    auto board = story::load_timed(text, "test.yaml", errors, warnings, {}, lang);
    return {board, story::format_diagnostics(errors, warnings)};
}

const char* kFallback = R"(shardreel: 1
languages: [en, de]
fallback: en
chapters:
  - id: intro
    kind: title
    title: {en: Hello, de: Hallo}
    beats:
      - {at: 0s, say: {en: A title card.}}
)";

}  // namespace

TEST_CASE("a storyboard written in three languages resolves to each, every text a plain string") {
    const std::string text = slurp(kSource + "/tests/storyboards/good/languages.yaml");
    const Loaded en = load(text, ""), de = load(text, "de"), ar = load(text, "ar");
    INFO(en.diagnostics << de.diagnostics << ar.diagnostics);
    REQUIRE(en.board);
    REQUIRE(de.board);
    REQUIRE(ar.board);
    CHECK(en.board->languages == std::vector<std::string>{"en", "de", "ar"});
    CHECK(en.board->video.lang == "en");
    CHECK(de.board->video.lang == "de");
    CHECK(ar.board->video.lang == "ar");
    CHECK(en.board->title == "Short");
    CHECK(de.board->title == "Kurz");
    CHECK(en.board->chapters[0].title == "Short film");
    CHECK(de.board->chapters[0].title == "Kurzfilm");
    CHECK(en.board->chapters[1].beats[1].say == "Then fifteen.");
    CHECK(de.board->chapters[1].beats[1].say == "Dann fünfzehn.");
    CHECK(ar.board->chapters[1].beats[1].say == "ثم خمسة عشر.");
    // A translation's errors point at its own text.
    CHECK(de.board->chapters[1].beats[1].say_pos != en.board->chapters[1].beats[1].say_pos);
    // Apart from the text and its positions, every language loads the same storyboard.
    story::Storyboard german = *de.board;
    german.video.lang = "en";
    german.title = en.board->title;
    for (std::size_t c = 0; c < german.chapters.size(); ++c) {
        german.chapters[c].title = en.board->chapters[c].title;
        for (std::size_t b = 0; b < german.chapters[c].beats.size(); ++b) {
            story::Beat& beat = german.chapters[c].beats[b];
            const story::Beat& english = en.board->chapters[c].beats[b];
            beat.say = english.say;
            beat.say_pos = english.say_pos;
            beat.speech = english.speech;
        }
    }
    CHECK(german == *en.board);
}

TEST_CASE("a storyboard without languages is in English, its text as written") {
    const std::string text = slurp(kSource + "/tests/storyboards/good/short.yaml");
    const Loaded en = load(text, "");
    REQUIRE(en.board);
    CHECK(en.board->languages == std::vector<std::string>{"en"});
    CHECK(en.board->video.lang == "en");
    CHECK(load(text, "en").board == en.board);
    CHECK(load(text, "de").diagnostics ==
          "test.yaml:3:1: error: this storyboard has no de text (it is in languages: [en]): add "
          "de to languages: with its translations, or ask for one of them\n");
}

TEST_CASE("fallback: a missing translation uses the fallback's text, with a warning") {
    const Loaded en = load(kFallback, ""), de = load(kFallback, "de");
    CHECK(en.diagnostics.empty());
    REQUIRE(de.board);
    CHECK(de.board->chapters[0].title == "Hallo");
    CHECK(de.board->chapters[0].beats[0].say == "A title card.");
    CHECK(de.diagnostics ==
          "test.yaml:9:23: warning: the say: of beat 1 in chapter 'intro' has no de translation: "
          "the en text is used (fallback: en)\n");
}

TEST_CASE("speech and timing in another language say which language they are in") {
    // Narrated and of fixed length: the German line reads (15 characters a second, no voice at
    // hand) longer than the chapter lasts.
    const char* text = R"(shardreel: 1
video: {narration: "espeak-ng:en-us"}
languages: [en, de]
chapters:
  - id: intro
    kind: title
    duration: 3s
    title: {en: Hi, de: Hallo}
    beats:
      - at: 0s
        say:
          en: Short.
          de: Ein deutlich längerer Satz auf Deutsch, der nicht passt.
)";
    CHECK(load(text, "").board);
    CHECK(load(text, "de").diagnostics ==
          "test.yaml:13:15: error: in de: speech runs 0.74s past the end of chapter 'intro' (the "
          "line ends at 3.733s, the chapter at 3s): give the chapter `duration: auto` or shorten "
          "the line\n");
}

TEST_CASE("the voice of each language: one voice for its own, espeak-ng for the rest, or a map") {
    const auto voice_of = [](const std::string& video, const std::string& lang) {
        const std::string text = "shardreel: 1\nvideo: " + video +
                                 "\nlanguages: [en, de, ja]\nchapters:\n"
                                 "  - {id: a, kind: title, title: {en: A, de: A, ja: A}}\n";
        story::Diagnostics errors;
        std::vector<story::Diagnostic> warnings;
        const auto sb = story::parse_storyboard(text, "test.yaml", errors, warnings, lang);
        INFO(errors.format());
        REQUIRE(sb);
        const story::Narration& n = sb->chapters[0].narration;
        return std::pair(n.engine, n.voice);
    };
    using story::VoiceEngine;
    const std::string festival = R"({narration: "festival:cmu_us_slt_arctic_hts"})";
    CHECK(voice_of(festival, "") ==
          std::pair(VoiceEngine::festival, std::string("cmu_us_slt_arctic_hts")));
    CHECK(voice_of(festival, "de") == std::pair(VoiceEngine::espeak, std::string("de")));
    CHECK(voice_of(festival, "ja") == std::pair(VoiceEngine::espeak, std::string("ja")));
    const std::string map =
        R"({narration: {voice: {en: "espeak-ng:en-gb", ja: "espeak-ng:ja"}, wpm: 160}})";
    CHECK(voice_of(map, "") == std::pair(VoiceEngine::espeak, std::string("en-gb")));
    CHECK(voice_of(map, "ja") == std::pair(VoiceEngine::espeak, std::string("ja")));
    CHECK(voice_of(map, "de") == std::pair(VoiceEngine::espeak, std::string("de")));
    CHECK(voice_of("{narration: off}", "de") == std::pair(VoiceEngine::off, std::string()));
    // An English espeak-ng voice speaks English in whatever variant the film is in.
    CHECK(story::voice_speaks(VoiceEngine::espeak, "en-gb-x-rp", "en-US"));
    CHECK(story::voice_speaks(VoiceEngine::espeak, "cmn", "zh-Hant"));
    CHECK_FALSE(story::voice_speaks(VoiceEngine::festival, "cmu_us_slt_arctic_hts", "de"));
    // Open JTalk speaks Japanese and nothing else; the default film's map gives it ja only.
    CHECK(story::voice_speaks(VoiceEngine::open_jtalk, "nitech-jp-atr503-m001", "ja"));
    CHECK(story::voice_speaks(VoiceEngine::open_jtalk, "nitech-jp-atr503-m001", "jpn"));
    CHECK_FALSE(story::voice_speaks(VoiceEngine::open_jtalk, "nitech-jp-atr503-m001", "en"));
    const std::string jtalk = R"({narration: {voice: {en: "festival:cmu_us_slt_arctic_hts", )"
                              R"(ja: "open-jtalk:nitech-jp-atr503-m001"}}})";
    CHECK(voice_of(jtalk, "ja") ==
          std::pair(VoiceEngine::open_jtalk, std::string("nitech-jp-atr503-m001")));
    CHECK(voice_of(jtalk, "") ==
          std::pair(VoiceEngine::festival, std::string("cmu_us_slt_arctic_hts")));
    CHECK(voice_of(jtalk, "de") == std::pair(VoiceEngine::espeak, std::string("de")));
}

TEST_CASE("pronounce: the film's language's readings, longest first, a chapter's over the film's") {
    const std::string text = R"(shardreel: 1
video: {narration: {voice: "espeak-ng:en-us", pronounce: {ja: {ZeRO: ゼロ, ZeRO-3: ゼロスリー}, en: {FSDP: F S D P}}}}
languages: [en, ja]
chapters:
  - {id: a, kind: title, title: {en: A, ja: A}}
  - id: b
    kind: title
    title: {en: B, ja: B}
    narration: {pronounce: {ja: {NVLink: エヌブイリンク}}}
)";
    const auto readings = [&](const std::string& lang, std::size_t chapter) {
        story::Diagnostics errors;
        std::vector<story::Diagnostic> warnings;
        const auto sb = story::parse_storyboard(text, "test.yaml", errors, warnings, lang);
        INFO(errors.format());
        REQUIRE(sb);
        return sb->chapters[chapter].narration.readings;
    };
    using R = std::vector<story::Reading>;
    CHECK(readings("ja", 0) == R{{"ZeRO-3", "ゼロスリー"}, {"ZeRO", "ゼロ"}});
    CHECK(readings("ja", 1) == R{{"NVLink", "エヌブイリンク"}});
    CHECK(readings("", 0) == R{{"FSDP", "F S D P"}});
    CHECK(readings("", 1) == R{{"FSDP", "F S D P"}});  // the chapter names ja only
}

TEST_CASE("a line as the voice is given it: readings in, whole Latin words only, marks moved") {
    using story::voiced_line;
    const std::vector<story::Reading> ja{{"ZeRO-3", "ゼロスリー"},
                                         {"NVLink", "エヌブイリンク"},
                                         {"ZeRO", "ゼロ"},
                                         {"重み", "おもみ"}};
    CHECK(voiced_line("NVLinkで ZeRO-3 と ZeRO", {}, ja).text ==
          "エヌブイリンクで ゼロスリー と ゼロ");
    CHECK(voiced_line("ZeROs and MyNVLink stay", {}, ja).text == "ZeROs and MyNVLink stay");
    CHECK(voiced_line("各GPUの重みです", {}, ja).text == "各GPUのおもみです");
    // "NVLinkで[[fast]]速い": the mark's word moves with the longer reading before it.
    const std::string say = "NVLinkで速い";
    const auto line = voiced_line(say, {{"fast", say.find("速")}}, ja);
    REQUIRE(line.marks.size() == 1);
    CHECK(line.text.substr(line.marks[0]) == "速い");
    const auto start = voiced_line(say, {{"start", 0}}, ja);
    CHECK(start.marks == std::vector<std::size_t>{0});
    CHECK(voiced_line(say, {{"end", say.size()}}, {}).marks ==
          std::vector<std::size_t>{say.size()});
}

TEST_CASE("language tags: canonical case, ISO 639-2 codes, right-to-left, what is refused") {
    CHECK(story::check_language_tag("de").tag == "de");
    CHECK(story::check_language_tag("DE-at").tag == "de-AT");
    CHECK(story::check_language_tag("zh-hant-tw").tag == "zh-Hant-TW");
    CHECK(story::check_language_tag("es-419").tag == "es-419");
    CHECK(story::check_language_tag("deu").tag == "deu");
    CHECK(story::primary_language("deu") == "de");
    CHECK(*story::check_language_tag("en_US").error ==
          "'en_US' is not a language tag (expected a BCP-47 tag such as en, de-AT, zh-Hant or "
          "es-419)");
    CHECK(*story::check_language_tag("xx").error ==
          "unknown language 'xx' (did you mean 'xh'? a tag starts with an ISO 639 code such as "
          "en, de, ar, ja or hi)");
    CHECK(story::check_language_tag("en-US-x-twain").error);
    for (const auto& [tag, code] :
         std::vector<std::pair<const char*, const char*>>{{"en", "eng"},
                                                          {"de", "deu"},
                                                          {"ar", "ara"},
                                                          {"ja", "jpn"},
                                                          {"hi", "hin"},
                                                          {"he", "heb"},
                                                          {"pt-BR", "por"},
                                                          {"zz", "und"}})
        CHECK(story::iso639_2(tag) == code);
    CHECK(story::language_name("ar-EG") == "Arabic");
    CHECK(story::language_codes().size() == 184);
    CHECK(story::is_rtl("ar"));
    CHECK(story::is_rtl("he-IL"));
    CHECK_FALSE(story::is_rtl("ja"));
}

TEST_CASE("a caption no voice speaks is read at its language's pace: Japanese at 4 a second") {
    story::Beat line;
    line.say = "学習中、パラメータ1個ごとにメモリが3重にかかります。";  // 27 characters
    CHECK(story::reading_estimate(line, "ja").seconds == Approx(27 / 4.0));
    CHECK(story::reading_estimate(line, "en").seconds == Approx(27 / 15.0));
    CHECK(story::reading_rate("ja-JP") == 4);
    CHECK(story::reading_rate("de") == 15);
}

// Films in other languages through the CLI (issue 18): `render --lang` writes one film per
// language with its own captions, `--captions all` a mov_text track per language read back with
// libav, the English film is the same bytes with and without text maps, a German film's segments
// are its own, `jobs --lang` lists each segment once, `still`, `page` and `check` in each
// language.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "render/container/video_probe.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/markup.hpp"

namespace fs = std::filesystem;
using render_test::Attrs;
using render_test::element;
using render_test::Element;
using render_test::elements;
using render_test::q;
using render_test::run_cli;
using render_test::slurp;
using render_test::table_rows;
using render_test::TempDir;
using render_test::texts;

namespace {

fs::path languages_film() {
    return fs::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/good/languages.yaml";
}

render_test::CliRun render_film(const fs::path& cwd, const std::string& args) {
    const render_test::CliRun run = run_cli("render " + args + " --quiet", cwd);
    INFO(run.err);
    CHECK(run.exit_code == 0);
    return run;
}

// The article page `page --lang LANG` writes for the fixture, as text.
std::string page_in(const std::string& lang) {
    TempDir dir;
    const render_test::CliRun run =
        run_cli("page " + q(languages_film()) + " --lang " + lang + " --cache cache", dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return slurp(dir.path / ("out/languages." + lang + "-page/index.html"));
}

// The page's own words in its language: the chapter list's label and each chapter's link (the
// word "read" and the chapter's title), and the footer.
void check_page_words(const std::string& html, const std::string& chapters,
                      const std::vector<std::string>& links, const std::string& footer) {
    CHECK(element(html, "nav").attr("aria-label") == chapters);
    CHECK(texts(element(html, "nav").inner, "a") == links);
    CHECK(texts(html, "footer") == std::vector<std::string>{footer});
}

std::vector<std::string> cue_texts(const render::ProbedSubtitles& track) {
    std::vector<std::string> out;
    for (const render::ProbedCue& c : track.cues) out.push_back(c.text);
    return out;
}

}  // namespace

TEST_CASE("render --lang de,ar writes one film per language, each with its own captions") {
    TempDir dir;
    render_film(dir.path, q(languages_film()) + " --lang de,ar --cache cache");
    for (const char* name : {"languages.de.mp4", "languages.de.vtt", "languages.de.srt",
                             "languages.ar.mp4", "languages.ar.vtt", "languages.ar.srt"})
        CHECK(fs::exists(dir.path / "out" / name));
    CHECK_FALSE(fs::exists(dir.path / "out/languages.mp4"));
    CHECK(slurp(dir.path / "out/languages.de.vtt") ==
          "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nEine Titelkarte.\n\n"
          "00:00:01.000 --> 00:00:01.600\nJe sechzehn Bytes.\n\n"
          "00:00:01.600 --> 00:00:02.533\nDann fünfzehn.\n");
    const render::VideoInfo de = render::probe_video((dir.path / "out/languages.de.mp4").string());
    REQUIRE(de.subtitles.size() == 1);
    CHECK(de.subtitles[0].language == "deu");
    CHECK(cue_texts(de.subtitles[0]) ==
          std::vector<std::string>{"Eine Titelkarte.", "Je sechzehn Bytes.", "Dann fünfzehn."});
    REQUIRE(de.chapters.size() == 2);
    CHECK(de.chapters[0].title == "Kurzfilm");
    const render::VideoInfo ar = render::probe_video((dir.path / "out/languages.ar.mp4").string());
    REQUIRE(ar.subtitles.size() == 1);
    CHECK(ar.subtitles[0].language == "ara");
    CHECK(ar.chapters[1].title == "البايتات");
}

TEST_CASE("captions all: a track per language, the film's first and default, at the same times") {
    TempDir dir;
    render_film(dir.path, q(languages_film()) + " --lang ar --captions all --cache cache");
    const render::VideoInfo info =
        render::probe_video((dir.path / "out/languages.ar.mp4").string());
    REQUIRE(info.subtitles.size() == 3);
    std::vector<std::string> tags;
    for (const render::ProbedSubtitles& s : info.subtitles) tags.push_back(s.language);
    CHECK(tags == std::vector<std::string>{"ara", "eng", "deu"});
    CHECK(info.subtitles[0].is_default);
    CHECK_FALSE(info.subtitles[1].is_default);
    CHECK_FALSE(info.subtitles[2].is_default);
    CHECK(cue_texts(info.subtitles[1]) ==
          std::vector<std::string>{"A title card.", "Sixteen bytes each.", "Then fifteen."});
    CHECK(cue_texts(info.subtitles[2]) ==
          std::vector<std::string>{"Eine Titelkarte.", "Je sechzehn Bytes.", "Dann fünfzehn."});
    for (const render::ProbedSubtitles& s : info.subtitles) {
        REQUIRE(s.cues.size() == 3);
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(s.cues[i].start_seconds == info.subtitles[0].cues[i].start_seconds);
            CHECK(s.cues[i].end_seconds == info.subtitles[0].cues[i].end_seconds);
        }
    }
    // The film's own caption files stay in its language; each other language's are named by its
    // tag, at the film's times.
    CHECK(render_test::has_line(slurp(dir.path / "out/languages.ar.vtt"), "ثم خمسة عشر."));
    const std::string own = slurp(dir.path / "out/languages.ar.srt");
    CHECK(slurp(dir.path / "out/languages.ar.de.vtt") ==
          "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nEine Titelkarte.\n\n"
          "00:00:01.000 --> 00:00:01.600\nJe sechzehn Bytes.\n\n"
          "00:00:01.600 --> 00:00:02.533\nDann fünfzehn.\n");
    const std::string en = slurp(dir.path / "out/languages.ar.en.srt");
    CHECK(en.rfind("1\n00:00:00,000 --> 00:00:01,000\nA title card.\n", 0) == 0);
    const std::regex times(R"(\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3})");
    auto all_times = [&](const std::string& srt) {
        std::string out;
        for (std::sregex_iterator i(srt.begin(), srt.end(), times), end; i != end; ++i)
            out += i->str() + "\n";
        return out;
    };
    CHECK(all_times(en) == all_times(own));
    CHECK(fs::exists(dir.path / "out/languages.ar.de.srt"));
    CHECK(fs::exists(dir.path / "out/languages.ar.en.vtt"));
    CHECK_FALSE(fs::exists(dir.path / "out/languages.ar.ar.vtt"));
}

TEST_CASE("the English film is the same bytes with and without text maps, and without --lang") {
    TempDir dir;
    render_film(dir.path, q(render_test::short_film()) + " -o plain.mp4 --cache cache");
    render_film(dir.path, q(languages_film()) + " -o maps.mp4 --cache cache");
    CHECK(slurp(dir.path / "maps.mp4") == slurp(dir.path / "plain.mp4"));
    CHECK(slurp(dir.path / "maps.vtt") == slurp(dir.path / "plain.vtt"));
    // Without --lang the film keeps today's name; --lang en names it by its language.
    render_film(dir.path, q(languages_film()) + " --cache cache");
    render_film(dir.path, q(languages_film()) + " --lang en --cache cache");
    CHECK(slurp(dir.path / "out/languages.mp4") == slurp(dir.path / "plain.mp4"));
    CHECK(slurp(dir.path / "out/languages.en.mp4") == slurp(dir.path / "plain.mp4"));
}

TEST_CASE("a German film's segments are its own: no key is shared with the English film's") {
    TempDir dir;
    render_film(dir.path, q(languages_film()) + " -o en.mp4 --cache en");
    render_film(dir.path, q(languages_film()) + " --lang de -o de.mp4 --cache de");
    const std::set<std::string> en = render_test::segment_keys(dir.path / "en"),
                                de = render_test::segment_keys(dir.path / "de");
    CHECK(en.size() == 2);
    CHECK(de.size() == 2);
    for (const std::string& key : de) CHECK(en.count(key) == 0);
}

TEST_CASE("jobs --lang lists the segments of every language, each key once") {
    TempDir dir;
    // Every segment key holds its film's language (and catalogue), so no segment is shared
    // between the languages; the storyboard is given twice, and each key still comes once.
    render_test::write_text(dir.path / "two.yaml", R"(shardreel: 1
video: {size: 320x180, fps: 10, captions: track}
languages: [en, de]
chapters:
  - id: same
    kind: bytes_per_parameter
    duration: 1s
    title: {en: Bytes, de: Bytes}
    beats:
      - {at: 0s, say: {en: Sixteen bytes., de: Sechzehn Bytes.}}
  - id: titled
    kind: title
    duration: 1s
    title: {en: Hello, de: Hallo}
)");
    const render_test::CliRun run =
        run_cli("jobs two.yaml two.yaml --lang all --cache cache", dir.path);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::regex line(R"(render two\.yaml --only ([a-z]+) --lang ([a-z]+) --cache)");
    std::vector<std::string> jobs;
    for (std::sregex_iterator it(run.out.begin(), run.out.end(), line), end; it != end; ++it)
        jobs.push_back((*it)[1].str() + " " + (*it)[2].str());
    CHECK(jobs == std::vector<std::string>{"same en", "titled en", "same de", "titled de"});
    // The lines draw every segment both films need: the render that assembles draws nothing.
    const render_test::CliRun work = render_test::run_shell(run.out, dir.path);
    REQUIRE(work.exit_code == 0);
    const render_test::CliRun assemble =
        run_cli("render two.yaml --lang en,de --cache cache --json", dir.path);
    INFO(assemble.err);
    REQUIRE(assemble.exit_code == 0);
    const nlohmann::json films = nlohmann::json::parse(assemble.out);
    REQUIRE(films.size() == 2);
    CHECK(films[0]["output"] == "out/two.en.mp4");
    CHECK(films[1]["output"] == "out/two.de.mp4");
    for (const nlohmann::json& film : films) CHECK(film["frames_drawn"] == 0);
}

TEST_CASE("still --lang ar draws the Arabic film's frame - an unknown or unlisted language is 2") {
    TempDir dir;
    const render_test::CliRun ar =
        run_cli("still " + q(languages_film()) + " --lang ar --at bytes@1s", dir.path);
    INFO(ar.err);
    CHECK(ar.exit_code == 0);
    CHECK(fs::exists(dir.path / "out/languages.ar-bytes-1s.png"));
    const render_test::CliRun en =
        run_cli("still " + q(languages_film()) + " --at bytes@1s", dir.path);
    CHECK(en.exit_code == 0);
    CHECK(slurp(dir.path / "out/languages-bytes-1s.png") !=
          slurp(dir.path / "out/languages.ar-bytes-1s.png"));

    const render_test::CliRun fr =
        run_cli("still " + q(languages_film()) + " --lang fr --at bytes@1s -o fr.png", dir.path);
    CHECK(fr.exit_code == 2);
    CHECK(fr.err == languages_film().string() +
                        ":8:1: error: this storyboard has no fr text (it is in languages: [en, "
                        "de, ar]): add fr to languages: with its translations, or ask for one of "
                        "them\n");
    const render_test::CliRun bad =
        run_cli("still " + q(languages_film()) + " --lang en_US --at bytes@1s -o x.png", dir.path);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: --lang: 'en_US' is not a language tag (expected a BCP-47 tag such "
          "as en, de-AT, zh-Hant or es-419)\n");
    CHECK_FALSE(fs::exists(dir.path / "fr.png"));
    CHECK_FALSE(fs::exists(dir.path / "x.png"));
}

TEST_CASE("page --lang ar is a right-to-left page in Arabic, its captions track named so") {
    const std::string html = page_in("ar");
    CHECK(element(html, "html").attrs == Attrs{{"lang", "ar"}, {"dir", "rtl"}});
    const Element captions = element(html, "track", {{"kind", "captions"}});
    CHECK(captions.attr("srclang") == "ar");
    CHECK(captions.attr("label") == "Arabic");
    CHECK(captions.attrs.contains("default"));
    CHECK(texts(html, "h1") == std::vector<std::string>{"قصير"});
    // The page's own words come from the catalogue, its figures in Arabic-Indic digits; the
    // formulas run left to right like the diagrams.
    const Element numbers = element(html, "table", {{"class", "numbers"}});
    CHECK(texts(numbers.inner, "caption") == std::vector<std::string>{"أرقام نموذج التكلفة"});
    CHECK(table_rows(numbers).at(2) == std::vector<std::string>{"حالات النموذج", "١٠٥\u2009GB"});
    CHECK(element(numbers.inner, "td", {{"data-key", "model_states_bytes"}}).attr("data-value") ==
          "105000000000");
    CHECK(texts(html, "h3") == std::vector<std::string>{"النص المنطوق", "النص المنطوق"});
    const std::vector<Element> maths = elements(html, "math");
    REQUIRE_FALSE(maths.empty());
    for (const Element& m : maths) CHECK(m.attrs == Attrs{{"display", "block"}, {"dir", "ltr"}});
    check_page_words(html, "الفصول", {"اقرأ فيلم قصير", "اقرأ البايتات"},
                     "صُنعت باستخدام shardreel: كل شكل وكل رقم في هذه الصفحة مأخوذ من نموذج "
                     "التكلفة الخاص به.");
    for (const char* english :
         {"Transcript", ">read<", "The cost model", "Made with", "Chapters\""})
        CHECK(html.find(english) == std::string::npos);
}

TEST_CASE("page --lang de writes its figures as German does, under German headings") {
    const std::string html = page_in("de");
    const Element numbers = element(html, "table", {{"class", "numbers"}});
    CHECK(table_rows(numbers).at(0) == std::vector<std::string>{"Parameter", "7\u00a0Mrd."});
    CHECK(element(numbers.inner, "td", {{"data-key", "params"}}).attr("data-value") ==
          "7000000000");
    CHECK(table_rows(numbers).at(2) == std::vector<std::string>{"Modellzustände", "105\u2009GB"});
    check_page_words(html, "Kapitel", {"lesen Kurzfilm", "lesen Bytes"},
                     "Erstellt mit shardreel: Jede Abbildung und jede Zahl auf dieser Seite stammt "
                     "aus seinem Kostenmodell.");
}

TEST_CASE("check times every language the storyboard lists, each by its own voice") {
    TempDir dir;
    render_test::write_text(dir.path / "spoken.yaml", R"(shardreel: 1
video: {size: 320x180, fps: 10, narration: {voice: "espeak-ng:en-us", wpm: 180}}
languages: [en, de]
chapters:
  - id: bytes
    kind: bytes_per_parameter
    duration: 4s
    title: {en: Bytes, de: Bytes}
    beats:
      - at: 0s
        say:
          en: Sixteen bytes.
          de: Jeder Parameter kostet im gemischten Training sechzehn Bytes Speicher, und das ist viel.
)");
    const render_test::CliRun run = run_cli("check spoken.yaml", dir.path);
    CHECK(run.exit_code == 2);
    CHECK(run.out.starts_with("spoken.yaml: ok (1 chapter, 0:04)\n  chapter 'bytes': speech "));
    CHECK(run.out.find("spoken.yaml (de)") == std::string::npos);
    INFO(run.err);
    CHECK(render_test::lines_matching(run.err,
                                      "spoken\\.yaml:13:15: error: in de: speech runs .* "
                                      "past the end of chapter 'bytes'.*")
              .size() == 1);
}

TEST_CASE("a narrated film's sound track is tagged with the language it speaks") {
    TempDir dir;
    render_test::write_text(dir.path / "spoken.yaml", R"(shardreel: 1
video: {size: 320x180, fps: 10, narration: {voice: "espeak-ng:en-us"}}
languages: [en, de]
chapters:
  - id: bytes
    kind: bytes_per_parameter
    duration: auto
    title: {en: Bytes, de: Bytes}
    beats:
      - {at: 0s, say: {en: Sixteen bytes., de: Sechzehn Bytes.}}
)");
    render_film(dir.path, "spoken.yaml --lang en,de --cache cache");
    CHECK(render::probe_video((dir.path / "out/spoken.en.mp4").string()).audio_language == "eng");
    CHECK(render::probe_video((dir.path / "out/spoken.de.mp4").string()).audio_language == "deu");
}

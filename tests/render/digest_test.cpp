// The digests in a segment key beside the scenes' own: the scene digest sees every field of
// every display-list item, and the drawing digest every file of render/draw, render/markup,
// render/sinks and render/av; the sound digest in a sound segment's key every file of
// render/sound and render/av, and neither key holds the other's; and the code digest in every
// first key every file of story, engine and render/film (the lists CMake hashed against the
// folders, and the script re-run on edited copies).
#include "render/film/digest.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "render/film/segment_cache.hpp"
#include "render/film/sound_plan.hpp"
#include "render/voice/speech_cache.hpp"
#include "story/load/load.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using render_test::lines_of;
using render_test::q;
using render_test::slurp;
using render_test::TempDir;
using render_test::write_text;

namespace {

std::string digest_of(const std::vector<story::Scene>& scenes) {
    render::SceneDigest d;
    for (const story::Scene& s : scenes) d.add(s);
    return d.hex();
}

// One item of every shape, a group holding a text, and every optional field set.
story::Scene sample() {
    using namespace story;
    Scene s;
    s.background = hex(0x101820);
    s.add(Rect{10, 20, 30, 40, 5, hex(0x56B4E9), hex(0xE69F00), 2, true, hex(0x009E73)});
    s.add(Line{{1, 2}, {3, 4}, hex(0xF0E442), 2, true});
    s.add(Arrow{{5, 6}, {7, 8}, hex(0x0072B2), 3, 14});
    s.add(Path{{{0, 0}, {10, 0}, {10, 10}}, true, hex(0xD55E00), hex(0xCC79A7), 2});
    Group g{100, 200, 1.5, {}};
    g.items.push_back(
        Item{Text{1, 2, "7B", {34, Weight::medium, true}, hex(0xFFFFFF), Align::right}, 0.5});
    s.add(g, 0.75);
    return s;
}

using Edit = std::function<void(story::Scene&)>;

template <class Shape>
Shape& item(story::Scene& s, std::size_t i) {
    return std::get<Shape>(s.items[i].shape);
}
story::Text& text(story::Scene& s) {
    return std::get<story::Text>(std::get<story::Group>(s.items[4].shape).items[0].shape);
}

// One edit per field (and per element of the lists), each to a value the sample does not have.
const std::vector<std::pair<const char*, Edit>>& edits() {
    using namespace story;
    static const std::vector<std::pair<const char*, Edit>> all{
        {"width", [](Scene& s) { s.width = 1280; }},
        {"height", [](Scene& s) { s.height = 720; }},
        {"background", [](Scene& s) { s.background.g = 1; }},
        {"background alpha", [](Scene& s) { s.background.a = 254; }},
        {"item added", [](Scene& s) { s.add(Line{}); }},
        {"item removed", [](Scene& s) { s.items.pop_back(); }},
        {"items swapped", [](Scene& s) { std::swap(s.items[0], s.items[1]); }},
        {"opacity", [](Scene& s) { s.items[0].opacity = 0.5; }},
        {"rect x", [](Scene& s) { item<Rect>(s, 0).x = 11; }},
        {"rect y", [](Scene& s) { item<Rect>(s, 0).y = 21; }},
        {"rect w", [](Scene& s) { item<Rect>(s, 0).w = 31; }},
        {"rect h", [](Scene& s) { item<Rect>(s, 0).h = 41; }},
        {"rect radius", [](Scene& s) { item<Rect>(s, 0).radius = 0; }},
        {"rect fill", [](Scene& s) { item<Rect>(s, 0).fill->r = 0; }},
        {"rect no fill", [](Scene& s) { item<Rect>(s, 0).fill.reset(); }},
        {"rect stroke", [](Scene& s) { item<Rect>(s, 0).stroke->b = 1; }},
        {"rect no stroke", [](Scene& s) { item<Rect>(s, 0).stroke.reset(); }},
        {"rect stroke width", [](Scene& s) { item<Rect>(s, 0).stroke_width = 3; }},
        {"rect dashed", [](Scene& s) { item<Rect>(s, 0).dashed = false; }},
        {"rect hatch", [](Scene& s) { item<Rect>(s, 0).hatch->a = 128; }},
        {"rect no hatch", [](Scene& s) { item<Rect>(s, 0).hatch.reset(); }},
        {"line a", [](Scene& s) { item<Line>(s, 1).a.x = 9; }},
        {"line b", [](Scene& s) { item<Line>(s, 1).b.y = 9; }},
        {"line color", [](Scene& s) { item<Line>(s, 1).color.g = 0; }},
        {"line width", [](Scene& s) { item<Line>(s, 1).width = 4; }},
        {"line dashed", [](Scene& s) { item<Line>(s, 1).dashed = false; }},
        {"arrow a", [](Scene& s) { item<Arrow>(s, 2).a.y = 9; }},
        {"arrow b", [](Scene& s) { item<Arrow>(s, 2).b.x = 9; }},
        {"arrow color", [](Scene& s) { item<Arrow>(s, 2).color.r = 1; }},
        {"arrow width", [](Scene& s) { item<Arrow>(s, 2).width = 4; }},
        {"arrow head", [](Scene& s) { item<Arrow>(s, 2).head = 10; }},
        {"path point", [](Scene& s) { item<Path>(s, 3).points[2].x = 11; }},
        {"path point added",
         [](Scene& s) {
             item<Path>(s, 3).points.push_back({5, 5});
         }},
        {"path closed", [](Scene& s) { item<Path>(s, 3).closed = false; }},
        {"path fill", [](Scene& s) { item<Path>(s, 3).fill.reset(); }},
        {"path stroke", [](Scene& s) { item<Path>(s, 3).stroke->g = 0; }},
        {"path width", [](Scene& s) { item<Path>(s, 3).width = 1; }},
        {"group dx", [](Scene& s) { item<Group>(s, 4).dx = 101; }},
        {"group dy", [](Scene& s) { item<Group>(s, 4).dy = 201; }},
        {"group scale", [](Scene& s) { item<Group>(s, 4).scale = 1; }},
        {"group child opacity", [](Scene& s) { item<Group>(s, 4).items[0].opacity = 1; }},
        {"group child added", [](Scene& s) { item<Group>(s, 4).items.push_back(Item{Line{}}); }},
        {"text x", [](Scene& s) { text(s).x = 3; }},
        {"text y", [](Scene& s) { text(s).y = 3; }},
        {"text text", [](Scene& s) { text(s).text = "70B"; }},
        {"text size", [](Scene& s) { text(s).style.size = 33; }},
        {"text weight", [](Scene& s) { text(s).style.weight = Weight::semibold; }},
        {"text tabular", [](Scene& s) { text(s).style.tabular = false; }},
        {"text lang", [](Scene& s) { text(s).style.lang = "ar"; }},
        {"text color", [](Scene& s) { text(s).color.b = 0; }},
        {"text align", [](Scene& s) { text(s).align = Align::center; }},
        // The same fields under another shape: the variant's alternative is hashed too.
        {"shape kind",
         [](Scene& s) {
             s.items[2].shape = Line{{5, 6}, {7, 8}, hex(0x0072B2), 3};
         }},
    };
    return all;
}

fs::path source_dir() { return SHARDREEL_SOURCE_DIR; }

const std::vector<std::string> kDrawingDirs{"render/draw", "render/markup", "render/sinks",
                                            "render/av"};
const std::vector<std::string> kSoundDirs{"render/sound", "render/av"};
const std::vector<std::string> kVoiceDirs{"render/voice", "render/sound/decode", "render/markup",
                                          "render/av"};
const std::vector<std::string> kCodeDirs{"story", "engine", "render/film",
                                         "cmake/embed_catalogues.cpp"};

// Runs cmake/drawing_digest.cmake over root's copies of `hashed` (the drawing folders unless
// given), with the compiler text `build`; returns the digest.
std::string run_digest_script(const fs::path& root, const fs::path& out,
                              const std::vector<std::string>& hashed = kDrawingDirs,
                              const std::string& build = "") {
    std::string dirs;
    for (const std::string& d : hashed) dirs += (dirs.empty() ? "" : ";") + d;
    const auto run = render_test::run_shell(
        q(SHARDREEL_CMAKE) + " -DROOT=" + q(root) + " -DDIRS=" + q(dirs) + " -DBUILD=" + q(build) +
        " -DOUT=" + q(out / "digest.hpp") + " -DLIST=" + q(out / "digest.txt") + " -P " +
        q(source_dir() / "cmake/drawing_digest.cmake"));
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::string header = slurp(out / "digest.hpp");
    const auto open = header.find("DIGEST \"");
    REQUIRE(open != std::string::npos);
    return header.substr(open + 8, 64);
}

const render::Fonts& fonts() {
    static const render::Fonts instance(render::default_font_dir());
    return instance;
}

// The first chapter of the short film and its video.
std::pair<story::ChapterSpec, story::Video> short_chapter() {
    story::Diagnostics diags;
    const auto board =
        story::parse_storyboard(slurp(render_test::short_film()), "short.yaml", diags);
    REQUIRE(board);
    return {board->chapters[0], board->video};
}

// What this build put in the first chapter's segment key.
nlohmann::json segment_inputs() {
    const auto [spec, video] = short_chapter();
    const auto chapter = story::make_chapter(spec, video, fonts());
    return nlohmann::json::parse(render::segment_key(spec, *chapter, video, {}, fonts()).inputs);
}

// What this build put in the key of a second of sound (no clip, no music).
nlohmann::json sound_inputs() {
    render::FilmAudio sound;
    sound.fps = 30;
    sound.frames = 30;
    const auto window = render::aac_window(0, sound.samples(), sound.samples());
    return nlohmann::json::parse(render::sound_key(sound, window).inputs);
}

// The digest this build put in every segment key.
std::string built_drawing_digest() { return segment_inputs()["drawing"]; }
// The digest this build put in every sound segment's key.
std::string built_sound_digest() { return sound_inputs()["code"]; }

// The digest this build put in every speech key.
std::string built_voice_digest() {
    render::voice::LineRequest line;
    line.voice = "en-us";
    line.text = "One.";
    return nlohmann::json::parse(render::speech_key(line, "").inputs)["code"];
}

}  // namespace

TEST_CASE("the scene digest changes with every field of every display-list item", "[key]") {
    const std::string base = digest_of({sample()});
    CHECK(base.size() == 32);
    CHECK(base.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(digest_of({sample()}) == base);
    std::set<std::string> seen{base};
    for (const auto& [name, edit] : edits()) {
        INFO(name);
        story::Scene s = sample();
        edit(s);
        REQUIRE_FALSE(s == sample());  // the edit changes the scene
        CHECK(seen.insert(digest_of({s})).second);
    }
}

TEST_CASE("the scene digest tells frames apart and treats -0 as 0, as Scene equality does",
          "[key]") {
    story::Scene a, b, ab;
    a.add(story::Line{{0, 0}, {1, 1}});
    b.add(story::Line{{2, 2}, {3, 3}});
    ab.items = {a.items[0], b.items[0]};
    CHECK(digest_of({a, b}) != digest_of({ab, story::Scene{}}));
    CHECK(digest_of({a, b}) != digest_of({b, a}));
    CHECK(digest_of({a}) != digest_of({a, a}));
    CHECK(digest_of({}) != digest_of({story::Scene{}}));
    story::Scene negative = a;
    std::get<story::Line>(negative.items[0].shape).a.x = -0.0;
    REQUIRE(negative == a);
    CHECK(digest_of({negative}) == digest_of({a}));
    // Past the digest's internal buffer: a long text and many frames.
    story::Scene long_text;
    long_text.add(story::Text{0, 0, std::string(20000, 'x')});
    story::Scene other_end = long_text;
    std::get<story::Text>(other_end.items[0].shape).text.back() = 'y';
    CHECK(digest_of({long_text}) != digest_of({other_end}));
    CHECK(digest_of(std::vector(500, sample())) != digest_of(std::vector(501, sample())));
}

namespace {

// Every file under the folders (or the file itself), relative to the source tree.
std::set<std::string> files_under(const std::vector<std::string>& hashed) {
    std::set<std::string> out;
    for (const std::string& entry : hashed) {
        if (fs::is_regular_file(source_dir() / entry)) out.insert(entry);
        if (!fs::is_directory(source_dir() / entry)) continue;
        for (const auto& e : fs::recursive_directory_iterator(source_dir() / entry))
            if (e.is_regular_file())
                out.insert(fs::relative(e.path(), source_dir()).generic_string());
    }
    return out;
}

std::set<std::string> listed_in(const std::string& list) {
    const auto lines = lines_of(slurp(list));
    return {lines.begin(), lines.end()};
}

// Copies of `hashed` under root.
void copy_sources(const std::vector<std::string>& hashed, const fs::path& root) {
    for (const std::string& d : hashed) {
        fs::create_directories((root / d).parent_path());
        fs::copy(source_dir() / d, root / d, fs::copy_options::recursive);
    }
}

// Appends a line to root/f, returns the digest then, and restores the file.
std::string digest_with_line_added(const fs::path& root, const std::string& f,
                                   const std::function<std::string()>& digest) {
    const std::string original = slurp(root / f);
    write_text(root / f, original + "\n");
    const std::string changed = digest();
    write_text(root / f, original);
    return changed;
}

}  // namespace

namespace {

// Runs the script over copies of `dirs`: it gives the digest the build did (`built`), and
// appending a line to any file it lists, renaming `renamed` or adding `added` each gives a digest
// of its own.
void check_every_edit_changes(const std::vector<std::string>& dirs, const std::string& built,
                              const std::string& built_list, const std::string& renamed,
                              const std::string& added) {
    TempDir dir;
    const fs::path root = dir.path / "src", out = dir.path / "out";
    fs::create_directories(out);
    copy_sources(dirs, root);
    const auto digest = [&] { return run_digest_script(root, out, dirs); };
    const std::string base = digest();
    CHECK(base == built);  // the copies hash as the build did

    std::set<std::string> seen{base};
    for (const std::string& f : lines_of(slurp(out / "digest.txt"))) {
        INFO(f);
        CHECK(seen.insert(digest_with_line_added(root, f, digest)).second);
    }
    CHECK(digest() == base);
    fs::rename(root / renamed, root / (renamed + ".old"));
    CHECK(seen.insert(digest()).second);
    write_text(root / added, "// new\n");
    CHECK(seen.insert(digest()).second);
    CHECK(lines_of(slurp(out / "digest.txt")).size() == lines_of(slurp(built_list)).size() + 1);
}

// The files of `listed` under `dir`.
std::set<std::string> under(const std::set<std::string>& listed, const std::string& dir) {
    std::set<std::string> out;
    for (const std::string& f : listed)
        if (f.starts_with(dir + "/")) out.insert(f);
    return out;
}

// Every string anywhere in a key's inputs.
void strings_in(const nlohmann::json& j, std::set<std::string>& out) {
    if (j.is_string()) out.insert(j.get<std::string>());
    if (j.is_structured())
        for (const auto& v : j) strings_in(v, out);
}
std::set<std::string> strings_in(const nlohmann::json& j) {
    std::set<std::string> out;
    strings_in(j, out);
    return out;
}

}  // namespace

TEST_CASE("the drawing digest hashes every file under render/draw, markup, sinks and av", "[key]") {
    const std::set<std::string> listed = listed_in(SHARDREEL_DRAWING_LIST);
    CHECK(listed == files_under(kDrawingDirs));
    CHECK(listed.count("render/sinks/video/encoded_stream.cpp") == 1);
    CHECK(listed.size() > 20);
}

TEST_CASE("editing, adding or renaming any file there changes the drawing digest", "[key]") {
    check_every_edit_changes(kDrawingDirs, built_drawing_digest(), SHARDREEL_DRAWING_LIST,
                             "render/draw/painter.cpp", "render/sinks/video/new_codec.cpp");
}

TEST_CASE("the sound digest hashes every file under render/sound and render/av", "[key]") {
    const std::set<std::string> listed = listed_in(SHARDREEL_SOUND_LIST);
    CHECK(listed == files_under(kSoundDirs));
    CHECK(listed.count("render/sound/audio_mix.cpp") == 1);
    CHECK(listed.count("render/sound/decode/audio_decode.cpp") == 1);
    CHECK(listed.size() > 15);
}

TEST_CASE("editing, adding or renaming any file there changes the sound digest", "[key]") {
    check_every_edit_changes(kSoundDirs, built_sound_digest(), SHARDREEL_SOUND_LIST,
                             "render/sound/audio_mix.cpp", "render/sound/new_filter.cpp");
}

TEST_CASE("the picture and the sound share only libav's basics: no painter edit re-keys sound",
          "[key]") {
    const std::set<std::string> drawing = listed_in(SHARDREEL_DRAWING_LIST),
                                sound = listed_in(SHARDREEL_SOUND_LIST);
    std::set<std::string> both;
    std::set_intersection(drawing.begin(), drawing.end(), sound.begin(), sound.end(),
                          std::inserter(both, both.end()));
    CHECK(both == files_under({"render/av"}));
    CHECK(under(drawing, "render/sound").empty());
    CHECK(under(sound, "render/draw").empty());
    CHECK(under(sound, "render/sinks").empty());
}

TEST_CASE("the voice digest hashes the code that speaks and levels lines, nothing of the mix",
          "[key]") {
    const std::set<std::string> listed = listed_in(SHARDREEL_VOICE_LIST);
    CHECK(listed == files_under(kVoiceDirs));
    CHECK(listed.count("render/voice/module/level.cpp") == 1);
    CHECK(listed.count("render/markup/markup.cpp") == 1);
    CHECK(under(listed, "render/sound/decode") == files_under({"render/sound/decode"}));
    CHECK(under(listed, "render/sound") == under(listed, "render/sound/decode"));
    CHECK(listed.count("render/sound/audio_mix.cpp") == 0);
}

TEST_CASE("editing, adding or renaming any file there changes the voice digest", "[key]") {
    check_every_edit_changes(kVoiceDirs, built_voice_digest(), SHARDREEL_VOICE_LIST,
                             "render/voice/speech.cpp", "render/voice/module/new_engine.cpp");
}

TEST_CASE("the container digest, in every film's key, hashes every file under render/container",
          "[key]") {
    const std::set<std::string> listed = listed_in(SHARDREEL_CONTAINER_LIST);
    CHECK(listed == files_under({"render/container"}));
    CHECK(listed.count("render/container/concat.cpp") == 1);
}

TEST_CASE("a sound key holds no drawing digest and a segment key no sound digest", "[key]") {
    const nlohmann::json sound = sound_inputs(), segment = segment_inputs();
    const std::string sound_digest = sound["code"], drawing_digest = segment["drawing"];
    CHECK(sound_digest.size() == 64);
    CHECK(drawing_digest.size() == 64);
    REQUIRE(sound_digest != drawing_digest);
    CHECK(strings_in(sound).count(drawing_digest) == 0);
    CHECK(strings_in(segment).count(sound_digest) == 0);
}

TEST_CASE("the code digest hashes every file under story, engine and render/film", "[key]") {
    const std::set<std::string> listed = listed_in(SHARDREEL_CODE_LIST);
    CHECK(listed == files_under(kCodeDirs));
    CHECK(listed.count("story/chapters/ring_allreduce.cpp") == 1);
    CHECK(listed.count("engine/memory.hpp") == 1);
    CHECK(listed.count("render/film/segment_cache.cpp") == 1);
    CHECK(listed.count("cmake/embed_catalogues.cpp") == 1);
}

TEST_CASE("editing, adding or renaming a file there, or another compiler, changes the code digest",
          "[key]") {
    TempDir dir;
    const fs::path root = dir.path / "src", out = dir.path / "out";
    fs::create_directories(out);
    copy_sources(kCodeDirs, root);
    const auto digest = [&](const std::string& build = SHARDREEL_CODE_BUILD) {
        return run_digest_script(root, out, kCodeDirs, build);
    };
    const std::string base = digest();
    CHECK(base == render::built_code_digest());  // the copies hash as the build did

    std::set<std::string> seen{base};
    for (const std::string f :
         {"story/chapters/ring_allreduce.cpp", "story/scene/scene.hpp", "engine/memory.cpp",
          "render/film/plan.cpp", "cmake/embed_catalogues.cpp"}) {
        INFO(f);
        CHECK(seen.insert(digest_with_line_added(root, f, [&] { return digest(); })).second);
    }
    CHECK(digest() == base);
    CHECK(seen.insert(digest("another compiler -O2")).second);
    fs::rename(root / "story/time/easing.cpp", root / "story/easing2.cpp");
    CHECK(seen.insert(digest()).second);
    write_text(root / "engine/new_model.cpp", "// new\n");
    CHECK(seen.insert(digest()).second);
}

// Segment cache keys: derived from what a chapter draws, so two chapters share a key exactly when
// every frame's display list is equal (same video, encoder, fonts); checked for every chapter kind
// and settable parameter, for engine figures, and for what is not drawn (positions, ids).
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "render/film/director.hpp"
#include "render/film/segment_cache.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "render/sys/hash.hpp"
#include "story/load/load.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/time.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;

namespace {

const render::Fonts& fonts() {
    static const render::Fonts f(render::default_font_dir());
    return f;
}

story::Storyboard board(const std::string& path) {
    std::ostringstream err;
    auto b = render::load_storyboard(std::string(SHARDREEL_SOURCE_DIR) + "/" + path, err);
    INFO(err.str());
    REQUIRE(b);
    return *b;
}

render::SegmentKey key_of(const story::ChapterSpec& spec, const story::Video& video,
                          const render::EncoderSettings& encoder = {}) {
    const auto chapter = story::make_chapter(spec, video, fonts());
    return render::segment_key(spec, *chapter, video, encoder, fonts());
}

// Whether some frame of the two chapters (same duration, same video) has a different scene.
bool draws_differently(const story::ChapterSpec& a, const story::ChapterSpec& b,
                       const story::Video& video) {
    const auto ca = story::make_chapter(a, video, fonts()),
               cb = story::make_chapter(b, video, fonts());
    const int frames = story::frame_count(a.duration, video.fps);
    REQUIRE(story::frame_count(b.duration, video.fps) == frames);
    for (int f = 0; f < frames; ++f) {
        const double t = story::time_of_frame(f, video.fps);
        if (!(ca->scene_at(t) == cb->scene_at(t))) return true;
    }
    return false;
}

// One chapter of `kind` whose `set:` beat gives `param` the value `value`; nullopt if the
// loader rejects that value for the kind's configuration.
std::optional<story::Storyboard> one_chapter(const story::KindInfo& kind, const std::string& param,
                                             const std::string& value) {
    std::string defaults;  // the kind's sample configuration, indented under defaults:
    std::istringstream sample(kind.sample);
    for (std::string line; std::getline(sample, line);) defaults += "  " + line + "\n";
    const std::string text = "shardreel: 1\nvideo: {size: 480x270, fps: 4}\ndefaults:\n" +
                             defaults +
                             "chapters:\n"
                             "  - id: c\n"
                             "    kind: " +
                             kind.name +
                             "\n"
                             "    duration: 6s\n"
                             "    title: Perturbed\n"
                             "    beats:\n"
                             "      - {at: 0s, say: Before.}\n"
                             "      - {at: 2s, over: 1s, say: After., set: {" +
                             param + ": '" + value + "'}}\n";
    story::Diagnostics diags;
    return story::parse_storyboard(text, "perturbed.yaml", diags);
}

// A kind's own values for a parameter where the generic ones miss what it draws
// (KindInfo::set_values), else the setting's own (SettingSpec::tried); the first two the loader
// accepts are compared.
const std::vector<std::string>& candidates_for(const story::KindInfo& kind,
                                               const std::string& param) {
    for (const auto& [name, values] : kind.set_values)
        if (name == param) return values;
    return story::find_setting(param)->tried;
}

}  // namespace

TEST_CASE("segment keys change with what a segment draws and encodes, and only with that",
          "[batch][key]") {
    const story::Storyboard b = board("tests/storyboards/good/short.yaml");
    const story::ChapterSpec& spec = b.chapters[1];
    const render::SegmentKey base = key_of(spec, b.video);
    CHECK(base.key.size() == 32);
    CHECK(base.frames == 23);
    CHECK(key_of(spec, b.video).key == base.key);
    CHECK(key_of(spec, b.video).inputs == base.inputs);
    const auto inputs = nlohmann::json::parse(base.inputs);
    std::set<std::string> names;
    for (const auto& [name, value] : inputs.items()) names.insert(name);
    CHECK(names == std::set<std::string>{"scenes", "frames", "video", "encoder", "fonts", "drawing",
                                         "lang", "catalogue"});
    CHECK(inputs["frames"] == 23);

    story::ChapterSpec retitled = spec;  // drawn
    retitled.title = "Other";
    CHECK(key_of(retitled, b.video).key != base.key);
    story::ChapterSpec fp32 = spec;
    fp32.beats[1].set = {{"precision", "fp32"}};
    CHECK(key_of(fp32, b.video).key != base.key);

    story::Video light = b.video;  // the background and every colour
    light.theme = story::ThemeName::light;
    CHECK(key_of(spec, light).key != base.key);
    story::Video faster = b.video;
    faster.fps = 30;
    CHECK(key_of(spec, faster).frames == 45);
    CHECK(key_of(spec, faster).key != base.key);
    story::Video larger = b.video;
    larger.width = 640, larger.height = 360;  // the same scenes, other pixels
    CHECK(key_of(spec, larger).key != base.key);
    render::EncoderSettings crf;
    crf.crf = 23;
    CHECK(key_of(spec, b.video, crf).key != base.key);

    // Captions burnt into the frame are drawn; sent as a track they are not in the segment.
    REQUIRE(b.video.captions == story::Captions::burn);
    story::Video track = b.video, off = b.video;
    track.captions = story::Captions::track;
    off.captions = story::Captions::off;
    CHECK(key_of(spec, track).key != base.key);
    CHECK(key_of(spec, off).key == key_of(spec, track).key);
    story::ChapterSpec reworded = spec;
    reworded.beats[0].say = "Sixteen bytes for every parameter.";
    CHECK(key_of(reworded, b.video).key != base.key);
    CHECK(key_of(reworded, track).key == key_of(spec, track).key);
}

TEST_CASE("a chapter moved in its file or renamed keeps its key: neither is drawn",
          "[batch][key]") {
    const story::Storyboard b = board("tests/storyboards/good/short.yaml");
    const story::ChapterSpec& spec = b.chapters[1];
    story::ChapterSpec moved = spec;
    moved.pos = {99, 3};
    for (auto& beat : moved.beats) beat.pos = {120, 7};
    CHECK(key_of(moved, b.video).inputs == key_of(spec, b.video).inputs);
    story::ChapterSpec renamed = spec;
    renamed.id = "costs";
    CHECK(key_of(renamed, b.video).inputs == key_of(spec, b.video).inputs);
}

TEST_CASE("for every kind and settable parameter, keys differ exactly when some frame differs",
          "[batch][key]") {
    int differ = 0, same = 0;
    for (const story::KindInfo& kind : story::chapter_kinds()) {
        for (const std::string& param : kind.settable) {
            INFO(kind.name << " " << param);
            REQUIRE(story::find_setting(param));
            std::vector<story::Storyboard> boards;
            for (const std::string& value : candidates_for(kind, param))
                if (auto loaded = one_chapter(kind, param, value); loaded && boards.size() < 2)
                    boards.push_back(std::move(*loaded));
            REQUIRE(boards.size() == 2);
            const story::ChapterSpec &a = boards[0].chapters[0], &b = boards[1].chapters[0];
            const story::Video& video = boards[0].video;
            const bool scenes_differ = draws_differently(a, b, video);
            CHECK((key_of(a, video).key != key_of(b, video).key) == scenes_differ);
            ++(scenes_differ ? differ : same);
        }
    }
    CHECK(differ > 40);  // most settable parameters show within six seconds
    CHECK(same > 0);     // e.g. pipeline chunks under 1f1b (only interleaved uses them)
    // The title card draws no engine figure: a configuration it does not show keeps its key.
    const story::Storyboard title = board("tests/storyboards/good/kind_title.yaml");
    story::ChapterSpec resized = title.chapters[0];
    resized.config.layout.gpus = 64;
    CHECK_FALSE(draws_differently(title.chapters[0], resized, title.video));
    CHECK(key_of(resized, title.video).key == key_of(title.chapters[0], title.video).key);
}

TEST_CASE("an engine figure re-keys exactly the chapters that draw it", "[batch][key]") {
    story::Storyboard film = render_test::default_film_unvoiced();
    film.video.fps = 2;  // every chapter, fewer frames
    const auto changed_by = [&](const std::function<void(engine::Config&)>& edit) {
        std::set<std::string> changed;
        for (const story::ChapterSpec& spec : film.chapters) {
            INFO(spec.id);
            story::ChapterSpec edited = spec;
            edit(edited.config);
            if (edited.film) edit(*edited.film);  // a preset changes the film's defaults too
            const bool rekeyed = key_of(spec, film.video).key != key_of(edited, film.video).key;
            CHECK(rekeyed == draws_differently(spec, edited, film.video));
            if (rekeyed) changed.insert(spec.id);
        }
        return changed;
    };
    // As if engine/presets.cpp gave the H100 40 GB: the chapters that draw its capacity.
    const auto memory = changed_by([](engine::Config& c) { c.cluster.gpu.memory.value = 40e9; });
    CHECK(memory.count("bytes") == 1);
    CHECK(memory.count("zero") == 1);
    CHECK(memory.count("title") == 0);
    CHECK(memory.size() < film.chapters.size());
    // A slower network: the chapters whose traffic crosses nodes.
    const auto network = changed_by([](engine::Config& c) { c.cluster.network.value /= 2; });
    CHECK(network.count("interconnect") == 1);
    CHECK(network.count("title") == 0);
    CHECK(network.count("bytes") == 0);
}

namespace {

// The digest embed_catalogues (the build's tool) gives the catalogue `po` (named <language>.po).
std::string embedded_digest(const fs::path& po) {
    const fs::path out = po.parent_path() / "catalogues.cpp";
    const auto run = render_test::run_shell(render_test::q(SHARDREEL_EMBED_CATALOGUES) + " " +
                                            render_test::q(out) + " " + render_test::q(po));
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::string source = render_test::slurp(out);
    const std::string head = "{\"" + po.stem().string() + "\", \"";
    const auto at = source.find(head);
    REQUIRE(at != std::string::npos);
    return source.substr(at + head.size(), 32);
}

}  // namespace

TEST_CASE("keys record the language and its catalogue, so a translation re-keys its own segments",
          "[batch][key]") {
    const story::Storyboard b = board("tests/storyboards/good/short.yaml");
    const story::ChapterSpec& spec = b.chapters[1];
    // The same scenes keyed in each language: only the language's own inputs differ.
    const auto chapter = story::make_chapter(spec, b.video, fonts());
    const auto key_in = [&](const std::string& lang) {
        story::Video v = b.video;
        v.lang = lang;
        return render::segment_key(spec, *chapter, v, {}, fonts());
    };
    const auto inputs = [](const render::SegmentKey& k) { return nlohmann::json::parse(k.inputs); };
    const render::SegmentKey en = key_in("en"), de = key_in("de"), ja = key_in("ja");
    const render::SegmentKey swiss = key_in("de-CH");
    CHECK(std::set<std::string>{en.key, de.key, ja.key, swiss.key}.size() == 4);
    CHECK(inputs(de)["scenes"] == inputs(en)["scenes"]);
    CHECK(inputs(de)["lang"] == "de");
    CHECK(inputs(en)["catalogue"] == "");  // English is the msgids: no catalogue
    CHECK(inputs(swiss)["catalogue"] == inputs(de)["catalogue"]);  // de-CH reads de.po
    std::string error;
    for (const std::string lang : {"de", "ja", "ar", "hi"}) {
        INFO(lang);
        const auto po = fs::path(SHARDREEL_SOURCE_DIR) / "locale" / (lang + ".po");
        CHECK(inputs(key_in(lang))["catalogue"] == render::file_digest(po.string(), error).value());
    }

    // An edited translation: the build embeds another digest, for that catalogue alone.
    render_test::TempDir dir;
    const fs::path po = dir.path / "de.po";
    const std::string text = render_test::slurp(fs::path(SHARDREEL_SOURCE_DIR) / "locale/de.po");
    render_test::write_text(po, text);
    CHECK(embedded_digest(po) == inputs(de)["catalogue"].get<std::string>());
    const auto at = text.find("msgstr \"Pro Karte\"");
    REQUIRE(at != std::string::npos);
    render_test::write_text(po, std::string(text).replace(at, 18, "msgstr \"Je Karte\""));
    CHECK(embedded_digest(po) != inputs(de)["catalogue"].get<std::string>());
    CHECK(inputs(ja)["catalogue"] != inputs(de)["catalogue"]);
}

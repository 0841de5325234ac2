// Segment cache keys: stable for identical input, changed by everything that shapes a segment's
// bytes (spec, video, encoder), blind to source positions; chapter fingerprints carry the
// engine schedules each kind draws.
#include <catch2/catch.hpp>
#include <sstream>

#include "render/cli/storyboard_inputs.hpp"
#include "render/film/segment_cache.hpp"

namespace {

const render::Fonts& fonts() {
    static const render::Fonts f(render::default_font_dir());
    return f;
}

story::Storyboard board(const std::string& name) {
    std::ostringstream err;
    auto b = render::load_storyboard(
        std::string(SHARDREEL_SOURCE_DIR) + "/tests/storyboards/good/" + name, err);
    INFO(err.str());
    REQUIRE(b);
    return *b;
}

render::SegmentKey key_of(const story::ChapterSpec& spec, const story::Video& video,
                          const render::EncoderSettings& encoder = {}) {
    const auto chapter = story::make_chapter(spec, video, fonts());
    return render::segment_key(spec, *chapter, video, encoder, fonts());
}

}  // namespace

TEST_CASE("segment keys change with what shapes the segment, and only with that", "[batch][key]") {
    const story::Storyboard b = board("short.yaml");
    const story::ChapterSpec& spec = b.chapters[1];
    const render::SegmentKey base = key_of(spec, b.video);
    CHECK(base.key.size() == 32);
    CHECK(base.frames == 23);
    CHECK(key_of(spec, b.video).key == base.key);
    CHECK(key_of(spec, b.video).inputs == base.inputs);

    story::ChapterSpec moved = spec;  // the same chapter elsewhere in the file
    moved.pos = {99, 3};
    for (auto& beat : moved.beats) beat.pos = {120, 7};
    CHECK(key_of(moved, b.video).key == base.key);

    story::ChapterSpec retitled = spec;
    retitled.title = "Other";
    CHECK(key_of(retitled, b.video).key != base.key);
    story::ChapterSpec reshaped = spec;
    reshaped.config.training.seq_len = 2048;
    CHECK(key_of(reshaped, b.video).key != base.key);

    story::Video light = b.video;
    light.theme = story::ThemeName::light;
    CHECK(key_of(spec, light).key != base.key);
    story::Video faster = b.video;
    faster.fps = 30;
    CHECK(key_of(spec, faster).frames == 45);
    CHECK(key_of(spec, faster).key != base.key);
    story::Video no_captions = b.video;
    no_captions.captions = story::Captions::off;
    CHECK(key_of(spec, no_captions).key != base.key);
    render::EncoderSettings crf;
    crf.crf = 23;
    CHECK(key_of(spec, b.video, crf).key != base.key);
}

TEST_CASE("chapter fingerprints include the engine schedules and plans the kind draws",
          "[batch][key]") {
    const std::pair<const char*, const char*> kinds[] = {
        // ring_allreduce and layout_3d no longer describe their engine figures (branch cache
        // derives every fingerprint from what a chapter draws).
        {"kind_pipeline_bubble.yaml", "slots["},        {"kind_fsdp_gather.yaml", "events["},
        {"kind_interconnect.yaml", "timings["},         {"kind_summary.yaml", "rows["},
        {"kind_tensor_parallel.yaml", "links{"},        {"kind_zero_stages.yaml", "stages["},
        {"kind_activation_checkpointing.yaml", "coef{"}};
    for (const auto& [file, marker] : kinds) {
        INFO(file);
        const story::Storyboard b = board(file);
        const auto chapter = story::make_chapter(b.chapters.front(), b.video, fonts());
        const std::string text = chapter->fingerprint();
        CHECK(text.rfind("reports[", 0) == 0);
        CHECK(text.find(marker) != std::string::npos);
        CHECK(story::make_chapter(b.chapters.front(), b.video, fonts())->fingerprint() == text);
    }
}

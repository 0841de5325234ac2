// A configuration written back as flags (render/inputs/config_values.hpp config_flags, with
// story::setting_text): the flags give the very configuration again, for every moment a beat
// begins in the fixtures' chapters and for every value the settings' tests try. The article
// page opens a chapter's configuration in the calculator with these flags.
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "render/inputs/config_values.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/setting_text.hpp"
#include "story/storyboard/settings.hpp"
#include "story/uses/explore.hpp"
#include "tests/catch.hpp"

namespace {

// c, from its flags.
engine::Config again(const engine::Config& c) {
    engine::Config out = story::default_config();
    const std::vector<std::string> errors =
        render::apply_config_values({render::config_flags(c), {}}, out);
    INFO((errors.empty() ? "" : errors.front()));
    CHECK(errors.empty());
    return out;
}

}  // namespace

TEST_CASE("every setting's tried values come back through their text", "[config_flags]") {
    for (const story::SettingSpec& s : story::settings()) {
        if (s.section == story::SettingSection::model) continue;
        for (const std::string& value : s.tried) {
            engine::Config c = story::default_config();
            REQUIRE_FALSE(story::apply_setting(c, s.name, value));
            INFO(s.name << " = " << value << ", written " << story::setting_text(c, s.name));
            engine::Config read = story::default_config();
            CHECK_FALSE(story::apply_setting(read, s.name, story::setting_text(c, s.name)));
            CHECK(read == c);
            CHECK(again(c) == c);
        }
    }
}

TEST_CASE("every model preset and a nominal count come back as --model", "[config_flags]") {
    for (const engine::ModelSpec& m : engine::model_presets()) {
        engine::Config c = story::default_config();
        c.model = m;
        CHECK(render::config_flags(c) == std::map<std::string, std::string>{{"--model", m.name}});
        CHECK(again(c) == c);
    }
    engine::Config c = story::default_config();
    REQUIRE_FALSE(story::apply_setting(c, "model", "30B"));
    CHECK(render::config_flags(c) == std::map<std::string, std::string>{{"--model", "30B"}});
    CHECK(again(c) == c);
}

TEST_CASE("a custom shape with gpt blocks comes back with --arch", "[config_flags]") {
    engine::Config c = story::default_config();
    const std::map<std::string, std::string> flags = {
        {"--params", "13101352960"}, {"--arch", "gpt"}, {"--layers", "40"},
        {"--hidden", "5120"},        {"--heads", "40"}, {"--vocab", "50368"}};
    REQUIRE(render::apply_config_values({flags, {}}, c).empty());
    CHECK(c.model.arch == engine::Arch::gpt);
    CHECK(c.model.ffn == 4 * 5120);  // GPT's MLP, not the nearest preset's (Llama 2 13B's)
    CHECK(c.model.context == 0);
    CHECK(render::config_flags(c).at("--arch") == "gpt");
    CHECK(again(c) == c);
    // GPT-3's own blocks and position table, from its count: no --arch needed or written.
    engine::Config gpt3 = story::default_config();
    REQUIRE(render::apply_config_values({{{"--params", "175B"}, {"--layers", "90"}}, {}}, gpt3)
                .empty());
    CHECK(gpt3.model.arch == engine::Arch::gpt);
    CHECK(gpt3.model.context == 2048);
    CHECK_FALSE(render::config_flags(gpt3).contains("--arch"));
    CHECK(again(gpt3) == gpt3);
    // A storyboard's map of Llama blocks (no position table): --arch llama says so.
    engine::Config mapped = story::default_config();
    mapped.model.name = "13B";
    mapped.model.params = 13e9;
    mapped.model.context = 0;
    CHECK(render::config_flags(mapped).at("--arch") == "llama");
    CHECK(again(mapped) == mapped);
}

TEST_CASE("dropout comes back where it differs from the blocks' own", "[config_flags]") {
    // MPT's blocks: gpt without dropout, and its fused loss.
    engine::Config mpt = story::default_config();
    const std::map<std::string, std::string> flags = {
        {"--params", "13101352960"}, {"--arch", "gpt"},           {"--layers", "40"},
        {"--hidden", "5120"},        {"--heads", "40"},           {"--vocab", "50368"},
        {"--dropout", "off"},        {"--cross-entropy", "fused"}};
    REQUIRE(render::apply_config_values({flags, {}}, mpt).empty());
    CHECK_FALSE(mpt.model.dropout);
    CHECK(mpt.training.cross_entropy == engine::CrossEntropy::fused);
    CHECK(render::config_flags(mpt).at("--dropout") == "false");
    CHECK(render::config_flags(mpt).at("--cross-entropy") == "fused");
    CHECK(again(mpt) == mpt);
    // GPT blocks keep their masks unless told; a Llama preset with dropout on says so.
    engine::Config gpt = story::default_config();
    REQUIRE(render::apply_config_values({{{"--model", "gpt-3-175b"}}, {}}, gpt).empty());
    CHECK(gpt.model.dropout);
    CHECK_FALSE(render::config_flags(gpt).contains("--dropout"));
    engine::Config llama = story::default_config();
    REQUIRE_FALSE(story::apply_setting(llama, "dropout", "true"));
    CHECK(render::config_flags(llama).at("--dropout") == "true");
    CHECK(again(llama) == llama);
}

TEST_CASE("a setting left at its default comes back when another flag moves that default",
          "[config_flags]") {
    // --nodes 8 alone means 64 GPUs (8 a node): a pipeline of 8 stages on 8 of them, as the
    // llama-70b film's bubble chapter sets it, needs --gpus 8 written although 8 is the default.
    engine::Config c = story::default_config();
    for (const auto& [name, value] : {std::pair{"nodes", "8"}, {"gpus", "8"}, {"pp", "8"}})
        REQUIRE_FALSE(story::apply_setting(c, name, value));
    const auto flags = render::config_flags(c);
    CHECK(flags.at("--gpus") == "8");
    CHECK(again(c) == c);
}

TEST_CASE("each beat's configuration in the fixtures comes back from its flags", "[config_flags]") {
    int moments = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(SHARDREEL_SOURCE_DIR "/tests/storyboards/good")) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("kind_") && name != "explore.yaml" && name != "planned.yaml")
            continue;
        std::ostringstream err;
        const auto board = render::load_storyboard(entry.path().string(), err);
        INFO(name << ": " << err.str());
        REQUIRE(board);
        for (const story::ChapterSpec& chapter : board->chapters) {
            std::vector<double> times{0, chapter.duration};
            for (const story::Beat& b : chapter.beats) times.push_back(b.at + b.over);
            for (double t : times) {
                const engine::Config c = story::config_at(chapter, t, board->video.fps);
                INFO(chapter.id << " at " << t << " s");
                CHECK(again(c) == c);
                ++moments;
            }
        }
    }
    CHECK(moments > 50);
}

TEST_CASE("a flag's refusal names its flag and its line is the line numbers prints",
          "[config_flags]") {
    const auto problems = [](std::map<std::string, std::string> given) {
        engine::Config c = story::default_config();
        return render::config_problems({std::move(given), {}}, c);
    };
    const auto tp = problems({{"--tp", "0"}});
    REQUIRE(tp.size() == 1);
    CHECK(std::ranges::find(tp[0].args, engine::ProblemArg{"flag", "--tp", false}) !=
          tp[0].args.end());
    CHECK(story::problem_line(tp[0]) == "--tp: 'tp' must be between 1 and 65536, got 0");
    // A template that names {flag} itself is its line as it is.
    const auto both = problems({{"--model", "llama-2-7b"}, {"--params", "7B"}});
    REQUIRE(both.size() == 1);
    CHECK(story::problem_line(both[0]) == "--model and --params both given: use one");
    const auto shape = problems({{"--layers", "4"}});
    REQUIRE(shape.size() == 1);
    CHECK(story::problem_line(shape[0]) == "--layers describes a custom model: give --params too");
    const auto batch = problems({{"--global-batch", "1000 tokens"}});
    REQUIRE(batch.size() == 1);
    CHECK(story::problem_line(batch[0]) ==
          "--global-batch: 1000 tokens is not a whole number of 4096-token sequences (try 4096 "
          "tokens)");
    // The lines apply_config_values gives are these.
    engine::Config c = story::default_config();
    std::vector<std::string> lines;
    for (const engine::Problem& p : tp) lines.push_back(story::problem_line(p));
    CHECK(render::apply_config_values({{{"--tp", "0"}}, {}}, c) == lines);
}

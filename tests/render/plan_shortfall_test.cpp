// plan's shortfall names the nearest layout as a template of its own (ProblemArg::parts), which
// the calculator page translates and fills as it does the sentence around it; its English is what
// plan prints ("dp 8 x tp 2 x pp 2, ZeRO-3 in groups of 4, offload optimizer, full recompute").
#include <algorithm>
#include <regex>
#include <string>

#include "engine/plan.hpp"
#include "engine/problem.hpp"
#include "render/inputs/plan_json.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"

namespace {

// p and every part inside it, depth first.
void each_part(const engine::Problem& p, std::vector<const engine::Problem*>& out) {
    out.push_back(&p);
    for (const engine::ProblemArg& a : p.args)
        for (const engine::Problem& part : a.parts) each_part(part, out);
}

}  // namespace

TEST_CASE("plan's shortfall names the nearest layout in parts the calculator translates") {
    engine::Config nearest = story::default_config();
    engine::Parallel& p = nearest.layout;
    p.gpus = 64, p.tp = 2, p.pp = 2, p.cp = 2, p.ep = 2, p.zero = 3, p.shard_group = 4;
    p.offload = engine::Offload::optimizer;
    nearest.training.recompute = engine::Recompute::selective;
    engine::PlanResult r;
    r.leanest = engine::PlanEntry{nearest, {}};
    const engine::Problem shortfall = render::plan_shortfall(story::default_config(), r);
    const auto layout = std::ranges::find(shortfall.args, "layout", &engine::ProblemArg::name);
    REQUIRE(layout != shortfall.args.end());
    CHECK(layout->text ==
          "dp 8 x tp 2 x pp 2 x cp 2, ep 2, ZeRO-3 in groups of 4, offload optimizer, selective "
          "recompute");
    REQUIRE(layout->parts.size() == 1);
    CHECK(engine::english(layout->parts[0]) == layout->text);
    CHECK(std::string(engine::english(shortfall)).find("the nearest (" + layout->text + ")") !=
          std::string::npos);
    // plan's table names the layout and its ZeRO the same way, from the same parts.
    CHECK(render::plan_layout_name(nearest) == "dp 8 x tp 2 x pp 2 x cp 2, ep 2");
    CHECK(render::plan_zero_name(p) == "3 in groups of 4, offload optimizer");
    // Each part's template is a message of the catalogue (a refusal's, which every language
    // translates) or code with no words: the degrees' names and "ZeRO-".
    std::vector<const engine::Problem*> parts;
    each_part(layout->parts[0], parts);
    CHECK(parts.size() == 5);  // the name, its degrees, offload, groups, the stage
    const auto formats = story::refusal_formats();
    const std::regex code(R"(((dp|tp|pp|cp|ep|x|ZeRO-|\{\w+\})[ ,]*)+)");
    for (const engine::Problem* part : parts) {
        INFO(part->format);
        CHECK((std::ranges::find(formats, part->format) != formats.end() ||
               std::regex_match(part->format, code)));
        for (const engine::ProblemArg& a : part->args)
            if (!a.parts.empty()) CHECK(engine::english(a.parts[0]) == a.text);
    }
}

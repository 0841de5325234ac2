// `shardreel plan` run as a process: its JSON layouts are what `numbers` reports for the same
// flags, the Markdown names the winner and why, and bad input or a model nothing holds exits 2.
// Also `numbers`' --global-batch and MoE shape flags, which plan shares.
#include <nlohmann/json.hpp>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace {

using nlohmann::json;
using render_test::lines_matching;
using render_test::run_cli;

const std::string kSeventyB = "--model llama-2-70b --gpus 64 --global-batch 512";

std::string numbers_flags(const json& layout) {
    return "--tp " + std::to_string(layout["tp"].get<int>()) + " --pp " +
           std::to_string(layout["pp"].get<int>()) + " --zero " +
           std::to_string(layout["zero"].get<int>()) + " --recompute " +
           layout["recompute"].get<std::string>() + " --schedule " +
           layout["schedule"].get<std::string>() + " --chunks " +
           std::to_string(layout["chunks"].get<int>()) + " --micro-batch " +
           std::to_string(layout["micro_batch"].get<int>()) + " --sequence-parallel " +
           (layout["sequence_parallel"].get<bool>() ? "on" : "off") + " --cp " +
           std::to_string(layout["cp"].get<int>()) + " --ep " +
           std::to_string(layout["ep"].get<int>()) + " --shard-group " +
           std::to_string(layout["shard_group"].get<int>()) + " --offload " +
           layout["offload"]["mode"].get<std::string>();
}

}  // namespace

TEST_CASE("plan --format json: layouts best first, each what numbers reports for it") {
    const auto run = run_cli("plan " + kSeventyB + " --top 3 --format json");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const json layouts = json::parse(run.out);
    REQUIRE(layouts.is_array());
    REQUIRE(layouts.size() == 3);
    double previous = 0;
    for (const json& l : layouts) {
        for (const char* key : {"dp", "tp", "pp", "cp", "ep", "zero", "micro_batches"})
            CHECK(l.contains(key));
        CHECK(l["dp"].get<int>() * l["tp"].get<int>() * l["pp"].get<int>() == 64);
        CHECK(l["step"]["seconds"].get<double>() >= previous);
        previous = l["step"]["seconds"].get<double>();
        CHECK(l["per_gpu"]["fits"] == true);
        // The same flags through numbers give the same figures, key for key.
        const auto n = run_cli("numbers " + kSeventyB + " " + numbers_flags(l) + " --format json");
        INFO(n.err);
        REQUIRE(n.exit_code == 0);
        json expected = json::parse(n.out);
        for (const auto& [key, value] : expected.items()) {
            INFO(key);
            CHECK(l[key] == value);  // the model's shape too, the same for every layout
        }
    }
}

TEST_CASE("plan prints the ranked table, the rejections and why the winner wins") {
    const auto run = run_cli("plan " + kSeventyB + " --top 2");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(render_test::has_line(run.out, "# Plan: llama-2-70b on 64 x h100-sxm-80gb"));
    // What the step times are: the step model's, whose constants come from nanotron's runs.
    CHECK_THAT(run.out, Catch::Contains("step time predicted from each layout (set on nanotron's "
                                        "H100 runs).\n"));
    CHECK(lines_matching(run.out,
                         "Layouts considered: [0-9,]+; fit: [0-9,]+\\. [0-9,]+: does not "
                         "fit in the GPU's memory\\.")
              .size() == 1);
    // The ranked rows, the top 2 and no more, each a layout.
    const std::vector<std::string> ranked = lines_matching(run.out, R"(\| [0-9]+ \| dp .*)");
    REQUIRE(ranked.size() == 2);
    CHECK(ranked[0].starts_with("| 1 | dp "));
    CHECK(ranked[1].starts_with("| 2 | dp "));
    CHECK(lines_matching(run.out,
                         "dp .* wins, .*: tensor parallelism stays inside a node's "
                         "NVLink(\\.|, .*)")
              .size() == 1);
}

TEST_CASE("plan's why-line names only the groups the winner has, and where each sits") {
    const std::string last_line_of_7b = [] {
        const auto run = run_cli("plan --model llama-2-7b --gpus 8 --top 1");
        REQUIRE(run.exit_code == 0);
        return run.out.substr(run.out.rfind("dp 8 x tp 1 x pp 1 wins"));
    }();
    CHECK(last_line_of_7b ==
          "dp 8 x tp 1 x pp 1 wins: data parallel only, with no model-parallel group to place.\n");
    const auto long_context = run_cli(
        "plan --model llama-3.1-405b --gpus 16384 --seq 131072 --global-batch '16777216 tokens'");
    REQUIRE(long_context.exit_code == 0);
    // The verdict line (its figures are the planner's): the predicted step's winner (dp 8 x
    // tp 8 x pp 16 x cp 16) names its three groups and where each sits, and no data-parallel one.
    CHECK(render_test::lines_matching(
              long_context.out,
              "dp 8 x tp 8 x pp 16 x cp 16 wins, .*: tensor parallelism stays inside a node's "
              "NVLink, context parallelism crosses nodes, the pipeline spans nodes, sending only "
              "activations between stages, bubble [0-9.]+%\\.")
              .size() == 1);
}

TEST_CASE("plan: bad flags and a model nothing holds exit 2 and say what would do") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--top 0", "shardreel: error: --top: expected at least 1, got 0\n"},
        {"--format csv", "shardreel: error: --format: expected md or json, got 'csv'\n"},
        {"--global-batch lots",
         "shardreel: error: --global-batch: expected a number of sequences (2048) or of tokens "
         "(16M tokens), got 'lots'\n"},
        {"--model llama-3.1-405b --gpus 16 --seq 8192",
         "shardreel: error: no layout of llama-3.1-405b fits 16 x h100-sxm-80gb: the nearest (dp "
         "8 x tp 1 x pp 2, ZeRO-3, offload optimizer, full recompute) needs 103\u2009GB per GPU "
         "of 80\u2009GB and 355\u2009GB of host memory of 256\u2009GB; 32 GPUs would (--gpus "
         "32)\n"},
    };
    for (const auto& [args, message] : cases) {
        INFO(args);
        const auto run = run_cli("plan " + args);
        CHECK(run.exit_code == 2);
        CHECK(run.out.empty());
        CHECK(run.err == message);
    }
    // The planner chooses the layout: no flag for it.
    for (const char* flag :
         {"--tp 8", "--pp 2", "--cp 2", "--ep 2", "--zero 3", "--shard-group 8",
          "--offload optimizer", "--micro-batches 4", "--schedule zb-h1", "--recompute full"})
        CHECK(run_cli(std::string("plan ") + flag).exit_code == 2);
}

TEST_CASE("numbers --global-batch sets the micro-batches from the layout, or says what splits") {
    const auto ok = run_cli(
        "numbers --gpus 64 --tp 8 --seq 8192 --micro-batch 2 --global-batch "
        "'16777216 tokens' --format json");
    INFO(ok.err);
    REQUIRE(ok.exit_code == 0);
    // 2,048 sequences over dp 8 in micro-batches of 2: 128 micro-batches.
    CHECK(json::parse(ok.out)["flops"]["tokens_per_step"] == 16777216);
    const auto bad = run_cli("numbers --gpus 64 --tp 8 --global-batch 100");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: --global-batch: a global batch of 100 sequences does not "
          "split into micro-batches of dp x micro_batch = 8 x 1 sequences (try 96)\n");
    CHECK(run_cli("numbers --global-batch 64 --micro-batches 4").exit_code == 2);
}

TEST_CASE("numbers: --expert-ffn, --shared-experts and --dense-layers shape a custom MoE") {
    // DeepSeek-V3's MoE shape (report 4.2) on Llama-style attention: the MLPs of 3 dense layers
    // of 18,432 and 58 of 1 shared + 256 routed experts of 2,048 (8 per token).
    const auto run = run_cli(
        "numbers --params 671B --layers 61 --hidden 7168 --heads 128 --ffn 18432 --experts 256 "
        "--top-k 8 --expert-ffn 2048 --shared-experts 1 --dense-layers 3 --vocab 129280 "
        "--format json");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const double h = 7168, attention = 4 * h * h + 2 * h;
    const double dense = attention + 3 * h * 18432;
    const double moe = attention + (8 + 1) * 3 * h * 2048 + h * 256;
    const double active = 3 * dense + 58 * moe + 2 * 129280 * h + h;
    const double total = 3 * dense + 58 * (moe + 248 * 3 * h * 2048) + 2 * 129280 * h + h;
    const json j = json::parse(run.out);
    CHECK(j["params"] == 671000000000);
    // --params keeps the count given; the active share is the shape's, scaled to it.
    CHECK(j["params_active"].get<double>() == Approx(671e9 * active / total).epsilon(1e-9));
    const auto bad = run_cli("numbers --params 7B --shared-experts 1");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: shared_experts and dense_layers describe a mixture of experts: give "
          "experts too (DeepSeek-V3: 256 experts, 1 shared, 3 dense layers)\n");
}

// `shardreel numbers` run as a process, issue 32's figures: tied embeddings and the expected
// peak's settings, the step time (predicted, overridden by --mfu, or measured) and a whole run's
// totals with --tokens.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace {

render_test::CliRun numbers(const std::string& args) {
    return render_test::run_cli("numbers " + args);
}

}  // namespace

TEST_CASE("numbers: tied embeddings and the expected peak's settings reach the figures") {
    // Llama 3.2 1B ties its output layer to the embedding: 1.24B parameters, 1.50B untied.
    const auto tied =
        nlohmann::ordered_json::parse(numbers("--model llama-3.2-1b --format json").out);
    CHECK(tied["params"] == 1235814400);
    const auto untied = nlohmann::ordered_json::parse(
        numbers("--model llama-3.2-1b --tie-embeddings false --format json").out);
    CHECK(untied["params"] == 1235814400 + 128256LL * 2048);
    // An fp32 accumulation buffer beside the bf16 gradients: 4 bytes a parameter, on one GPU.
    const auto fp32 = nlohmann::ordered_json::parse(
        numbers("--model llama-3.2-1b --gpus 1 --grad-accum-dtype fp32 --format json").out);
    CHECK(fp32["expected_peak"]["first_stage"]["grad_accum_bytes"] == 4LL * 1235814400);
    CHECK(tied["expected_peak"]["first_stage"]["grad_accum_bytes"] == 0);
    // nanotron's split by compute puts more layers on the first stage.
    const auto split = nlohmann::ordered_json::parse(
        numbers("--model llama-3.2-1b --pp 2 --pipeline-split compute --format json").out);
    CHECK(split["expected_peak"]["first_stage"]["layers"] == 11);
    CHECK(split["activations"]["layers_per_gpu"] == 8);  // on paper: ceil(16 / 2)
}

TEST_CASE("numbers --grad-reduce: after the backward the step is longer by what it hid") {
    const std::string run = "--model llama-3-8b --gpus 64 --zero 1 --format json";
    const auto overlapped = nlohmann::ordered_json::parse(numbers(run).out);
    const auto after =
        nlohmann::ordered_json::parse(numbers(run + " --grad-reduce after-backward").out);
    CHECK(after["step"]["seconds"].get<double>() > overlapped["step"]["seconds"].get<double>());
    CHECK(after["per_gpu"] == overlapped["per_gpu"]);  // memory does not change
    CHECK(numbers(run + " --grad-reduce later").exit_code == 2);
}

TEST_CASE("numbers --flag= gives the flag an empty value and leaves the next flag alone") {
    // As the calculator and a shell's --tp '' do: CLI11 alone took --gpus=64 for tp's value.
    const auto empty = numbers("--tp= --gpus=64");
    CHECK(empty.exit_code == 2);
    CHECK(empty.err.find("--tp: expected a number for 'tp', got ''") != std::string::npos);
    CHECK(numbers("--tp=4 --gpus=64 --format json").exit_code == 0);
}

TEST_CASE("numbers reports the step's FLOPs and time, and refuses bad step-time flags") {
    const auto json = [](const std::string& flags) {
        const auto run = numbers(flags + " --format json");
        INFO(run.err);
        REQUIRE(run.exit_code == 0);
        return nlohmann::json::parse(run.out);
    };
    const auto estimated = json("--gpus 1 --micro-batches 8");
    CHECK(estimated["step"]["measured"] == false);
    // Predicted: on one GPU nothing is exposed and the host keeps up, so MFU is the matmuls'
    // efficiency at 4,096 tokens and the whole width 4,096: 0.65 / (1 + 256/4096) / (1 + 512/4096).
    CHECK(estimated["step"]["mfu"].get<double>() == Approx(0.65 / (1.0625 * 1.125)));
    const auto measured = json("--gpus 1 --micro-batches 8 --step-time 2s");
    CHECK(measured["step"]["seconds"] == 2.0);
    CHECK(measured["step"]["mfu"].get<double>() ==
          Approx(measured["flops"]["model_per_step"].get<double>() / (2 * 989e12)));
    CHECK(json("--gpus 1 --mfu 0.5")["step"]["mfu"].get<double>() == Approx(0.5));
    for (const auto& [flags, says] : std::vector<std::pair<std::string, std::string>>{
             {"--mfu 1.5", "--mfu: 'mfu' must be between 0.01 and 1, got 1.5"},
             {"--mfu 4B", "--mfu: expected a number for 'mfu', got '4B'"},
             {"--step-time 12f",
              "--step-time: expected seconds for 'step_time' (e.g. 12.5s, 800ms or 12.5), got "
              "'12f'"},
             {"--overlap dpp", "--overlap: unknown overlap 'dpp' (did you mean 'dp'?)"}}) {
        const auto run = numbers(flags);
        INFO(flags);
        CHECK(run.exit_code == 2);
        CHECK(run.err == "shardreel: error: " + says + "\n");
    }
}

TEST_CASE("numbers --tokens gives the run's steps, days and GPU-hours from the step time") {
    const auto run = numbers("--model llama-3-8b --gpus 64 --tokens 15T --format json");
    REQUIRE(run.exit_code == 0);
    const auto j = nlohmann::ordered_json::parse(run.out);
    const double per_step = j["flops"]["tokens_per_step"], seconds = j["step"]["seconds"];
    const nlohmann::ordered_json& r = j["run"];
    CHECK(r["tokens"] == 15e12);
    CHECK(r["steps"] == std::ceil(15e12 / per_step));  // 7,152,558 steps of 2,097,152 tokens
    CHECK(r["steps"] == 7152558);
    CHECK(r["days"].get<double>() == Approx(7152558 * seconds / 86400));
    CHECK(r["gpu_hours"].get<double>() == Approx(7152558 * seconds * 64 / 3600));
    // The table's rows say the same; without --tokens there is no run.
    const auto md = numbers("--model llama-3-8b --gpus 64 --tokens 15T");
    CHECK(render_test::has_line(md.out, "| run (15T tokens): steps | 7,152,558 |"));
    CHECK_FALSE(nlohmann::ordered_json::parse(numbers("--format json").out).contains("run"));
    const auto csv = numbers("--model llama-3-8b --gpus 64 --tokens 15T --format csv");
    CHECK(render_test::has_line(csv.out, "run.steps,7152558.0"));
}

TEST_CASE("numbers --tokens that is not a count exits 2 naming the flag and an example") {
    const auto bad = numbers("--tokens lots");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out.empty());
    CHECK(bad.err ==
          "shardreel: error: --tokens: expected a count of tokens such as 15T, 300B or "
          "2e12, got 'lots'\n");
}

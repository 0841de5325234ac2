// `shardreel numbers` run as a process: stable JSON keys whose values are analyze()'s, CSV with
// the same keys, the Markdown table, and exit 2 with one error line per bad input.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/report.hpp"
#include "story/storyboard/settings.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace {

render_test::CliRun numbers(const std::string& args) {
    return render_test::run_cli("numbers " + args);
}

void flatten(const nlohmann::ordered_json& j, const std::string& prefix,
             std::vector<std::string>& keys) {
    for (const auto& [key, value] : j.items()) {
        if (value.is_object()) {
            flatten(value, prefix + key + ".", keys);
        } else {
            keys.push_back(prefix + key);
        }
    }
}

const std::vector<std::string> kKeys = {"model.name",
                                        "model.arch",
                                        "model.layers",
                                        "model.hidden",
                                        "model.heads",
                                        "model.kv_heads",
                                        "model.ffn",
                                        "model.vocab",
                                        "model.experts",
                                        "model.top_k",
                                        "model.shared_experts",
                                        "model.dense_layers",
                                        "model.dense_ffn",
                                        "model.tie_embeddings",
                                        "model.dropout",
                                        "params",
                                        "params_active",
                                        "bytes_per_param.weights",
                                        "bytes_per_param.gradients",
                                        "bytes_per_param.optimizer",
                                        "bytes_per_param.total",
                                        "model_states_bytes",
                                        "gpus_to_hold_model_states",
                                        "layout.gpus",
                                        "layout.dp",
                                        "layout.tp",
                                        "layout.pp",
                                        "layout.zero",
                                        "layout.ep",
                                        "layout.shard_group",
                                        "layout.cp",
                                        "layout.cp_mode",
                                        "per_gpu.weights_bytes",
                                        "per_gpu.gradients_bytes",
                                        "per_gpu.optimizer_bytes",
                                        "per_gpu.activations_bytes",
                                        "per_gpu.total_bytes",
                                        "per_gpu.capacity_bytes",
                                        "per_gpu.fits",
                                        "per_gpu.host_bytes",
                                        "per_gpu.host_capacity_bytes",
                                        "expected_peak.first_stage.layers",
                                        "expected_peak.first_stage.in_flight_micro_batches",
                                        "expected_peak.first_stage.weights_bytes",
                                        "expected_peak.first_stage.gradients_bytes",
                                        "expected_peak.first_stage.grad_accum_bytes",
                                        "expected_peak.first_stage.optimizer_bytes",
                                        "expected_peak.first_stage.dp_buckets_bytes",
                                        "expected_peak.first_stage.param_gather_bytes",
                                        "expected_peak.first_stage.tp_gather_bytes",
                                        "expected_peak.first_stage.activations_bytes",
                                        "expected_peak.first_stage.logits_bytes",
                                        "expected_peak.first_stage.reserve_bytes",
                                        "expected_peak.first_stage.context_bytes",
                                        "expected_peak.first_stage.allocator_bytes",
                                        "expected_peak.first_stage.total_bytes",
                                        "expected_peak.last_stage.layers",
                                        "expected_peak.last_stage.in_flight_micro_batches",
                                        "expected_peak.last_stage.weights_bytes",
                                        "expected_peak.last_stage.gradients_bytes",
                                        "expected_peak.last_stage.grad_accum_bytes",
                                        "expected_peak.last_stage.optimizer_bytes",
                                        "expected_peak.last_stage.dp_buckets_bytes",
                                        "expected_peak.last_stage.param_gather_bytes",
                                        "expected_peak.last_stage.tp_gather_bytes",
                                        "expected_peak.last_stage.activations_bytes",
                                        "expected_peak.last_stage.logits_bytes",
                                        "expected_peak.last_stage.reserve_bytes",
                                        "expected_peak.last_stage.context_bytes",
                                        "expected_peak.last_stage.allocator_bytes",
                                        "expected_peak.last_stage.total_bytes",
                                        "expected_peak.total_bytes",
                                        "expected_peak.capacity_bytes",
                                        "expected_peak.fits",
                                        "activations.per_layer_bytes",
                                        "activations.layers_per_gpu",
                                        "activations.in_flight_micro_batches",
                                        "comm_per_step.dp_bytes_per_gpu",
                                        "comm_per_step.tp_bytes_per_gpu",
                                        "comm_per_step.pp_bytes_per_gpu",
                                        "comm_per_step.dp_intra_bytes_per_gpu",
                                        "comm_per_step.dp_inter_bytes_per_gpu",
                                        "comm_per_step.dp_intra_seconds",
                                        "comm_per_step.dp_inter_seconds",
                                        "comm_per_step.ep_bytes_per_gpu",
                                        "comm_per_step.ep_seconds",
                                        "comm_per_step.cp_bytes_per_gpu",
                                        "comm_per_step.cp_seconds",
                                        "comm_per_step.seconds",
                                        "offload.mode",
                                        "offload.pcie_bytes_per_step",
                                        "offload.pcie_seconds",
                                        "pipeline.bubble_fraction",
                                        "flops.per_token",
                                        "flops.model_per_step",
                                        "flops.hardware_per_step",
                                        "flops.executed_per_step",
                                        "flops.tokens_per_step",
                                        "step.seconds",
                                        "step.compute_seconds",
                                        "step.exposed_comm_seconds",
                                        "step.measured",
                                        "step.source",
                                        "step.mfu",
                                        "step.hfu",
                                        "step.tokens_per_second_per_gpu"};

long long whole(engine::Bytes b) { return (long long)std::floor(b.value); }

void check_matches(const nlohmann::ordered_json& j, const engine::Report& r) {
    CHECK(j["params"] == r.params);
    CHECK(j["bytes_per_param"]["weights"] == r.bytes_per_param.weights);
    CHECK(j["bytes_per_param"]["gradients"] == r.bytes_per_param.gradients);
    CHECK(j["bytes_per_param"]["optimizer"] == r.bytes_per_param.optimizer);
    CHECK(j["bytes_per_param"]["total"] == r.bytes_per_param.total());
    CHECK(j["model_states_bytes"] == whole(r.model_states));
    CHECK(j["gpus_to_hold_model_states"] == r.gpus_to_hold_model_states);
    CHECK(j["layout"]["gpus"] == r.layout.gpus);
    CHECK(j["layout"]["dp"] == r.layout.dp());
    CHECK(j["layout"]["tp"] == r.layout.tp);
    CHECK(j["layout"]["pp"] == r.layout.pp);
    CHECK(j["layout"]["zero"] == r.layout.zero);
    CHECK(j["layout"]["ep"] == r.layout.ep);
    CHECK(j["layout"]["shard_group"] == r.layout.shard_group);
    CHECK(j["comm_per_step"]["dp_intra_bytes_per_gpu"] == whole(r.comm.dp_intra_per_gpu));
    CHECK(j["comm_per_step"]["dp_inter_bytes_per_gpu"] == whole(r.comm.dp_inter_per_gpu));
    CHECK(j["layout"]["cp"] == r.layout.cp);
    CHECK(j["layout"]["cp_mode"] == std::string(engine::to_string(r.layout.cp_mode)));
    const nlohmann::ordered_json& g = j["per_gpu"];
    CHECK(g["weights_bytes"] == whole(r.per_gpu.weights));
    CHECK(g["gradients_bytes"] == whole(r.per_gpu.gradients));
    CHECK(g["optimizer_bytes"] == whole(r.per_gpu.optimizer));
    CHECK(g["activations_bytes"] == whole(r.per_gpu.activations));
    CHECK(g["total_bytes"] == whole(r.per_gpu.total));
    CHECK(g["capacity_bytes"] == whole(r.per_gpu.capacity));
    CHECK(g["fits"] == r.per_gpu.fits);
    CHECK(g["host_bytes"] == whole(r.per_gpu.host));
    CHECK(g["host_capacity_bytes"] == whole(r.per_gpu.host_capacity));
    const nlohmann::ordered_json& e = j["expected_peak"];
    const engine::ExpectedPeak& x = r.per_gpu.expected;
    CHECK(e["first_stage"]["layers"] == x.first.layers);
    CHECK(e["first_stage"]["activations_bytes"] == whole(x.first.terms.activations));
    CHECK(e["first_stage"]["allocator_bytes"] == whole(x.first.terms.allocator()));
    CHECK(e["last_stage"]["logits_bytes"] == whole(x.last.terms.logits));
    CHECK(e["last_stage"]["total_bytes"] == whole(x.last.terms.total()));
    CHECK(e["total_bytes"] == whole(x.total));
    CHECK(e["fits"] == r.per_gpu.fits);
    CHECK(j["offload"]["pcie_bytes_per_step"] == whole(r.offload.bytes()));
    CHECK(j["activations"]["per_layer_bytes"] == whole(r.activations.per_layer));
    CHECK(j["activations"]["layers_per_gpu"] == r.activations.layers_per_gpu);
    CHECK(j["activations"]["in_flight_micro_batches"] == r.activations.in_flight_micro_batches);
    CHECK(j["comm_per_step"]["dp_bytes_per_gpu"] == whole(r.comm.dp_per_gpu));
    CHECK(j["comm_per_step"]["tp_bytes_per_gpu"] == whole(r.comm.tp_per_gpu));
    CHECK(j["comm_per_step"]["pp_bytes_per_gpu"] == whole(r.comm.pp_per_gpu));
    CHECK(j["comm_per_step"]["ep_bytes_per_gpu"] == whole(r.comm.ep_per_gpu));
    CHECK(j["comm_per_step"]["ep_seconds"].get<double>() == Approx(r.comm.ep_time.value));
    CHECK(j["comm_per_step"]["cp_bytes_per_gpu"] == whole(r.comm.cp_per_gpu));
    CHECK(j["comm_per_step"]["cp_seconds"].get<double>() == Approx(r.comm.cp_time.value));
    CHECK(j["comm_per_step"]["seconds"].get<double>() == Approx(r.comm.total().value));
    CHECK(j["pipeline"]["bubble_fraction"].get<double>() == Approx(r.bubble_fraction));
}

}  // namespace

TEST_CASE("numbers --format json: the documented keys, with analyze()'s values") {
    const render_test::CliRun run = numbers("--format json");
    REQUIRE(run.exit_code == 0);
    CHECK(run.err.empty());
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(run.out);
    std::vector<std::string> keys;
    flatten(j, "", keys);
    CHECK(keys == kKeys);
    check_matches(j, engine::analyze(story::default_config()));
    CHECK(j["params"] == 6738415616LL);
    CHECK(j["activations"]["per_layer_bytes"] == 570425344);
    // The shape counted: Llama 2 7B's, and a count alone takes its nearest preset's.
    CHECK(j["model"]["name"] == "llama-2-7b");
    CHECK(j["model"]["layers"] == 32);
    CHECK(j["model"]["ffn"] == 11008);
    CHECK(j["model"]["dropout"] == false);
    const nlohmann::ordered_json count =
        nlohmann::ordered_json::parse(numbers("--params 13B --format json").out)["model"];
    CHECK(count["name"] == "13B");
    CHECK(count["layers"] == 40);
    CHECK(count["hidden"] == 5120);
    CHECK(count["arch"] == "llama");
}

TEST_CASE("numbers: every flag reaches the cost model") {
    const render_test::CliRun run = numbers(
        "--model llama-2-70b --gpus 64 --tp 8 --pp 2 --zero 1 --precision fp8-mixed "
        "--grad-dtype fp32 --seq 2048 --micro-batch 2 --micro-batches 16 --schedule interleaved "
        "--chunks 4 --recompute selective --flash-attention off --sequence-parallel on "
        "--gpu a100-sxm-80gb --nvlink 600GB/s --network 400Gb/s --format json");
    REQUIRE(run.exit_code == 0);
    engine::Config c = story::default_config();
    c.model = *engine::find_model("llama-2-70b");
    c.layout = {64, 8, 2, 1};
    c.training = {engine::Precision::fp8_mixed,
                  engine::GradDtype::fp32,
                  engine::Optimizer::adam,
                  2048,
                  2,
                  16,
                  engine::Recompute::selective,
                  false,
                  true,
                  engine::Schedule::interleaved,
                  4};
    c.cluster.gpu = *engine::find_gpu("a100-sxm-80gb");
    c.cluster.nvlink = engine::BytesPerSecond(600e9);
    c.cluster.network = engine::BytesPerSecond(50e9);
    check_matches(nlohmann::ordered_json::parse(run.out), engine::analyze(c));
}

TEST_CASE("numbers --params builds a nominal or custom model") {
    const nlohmann::ordered_json j =
        nlohmann::ordered_json::parse(numbers("--params 70B --format json").out);
    CHECK(j["params"] == 70000000000LL);
    CHECK(j["model_states_bytes"] == 1120000000000LL);
    CHECK(j["gpus_to_hold_model_states"] == 14);
    const render_test::CliRun custom =
        numbers("--params 7e9 --layers 40 --hidden 5120 --heads 40 --pp 8 --format json");
    REQUIRE(custom.exit_code == 0);
    CHECK(nlohmann::ordered_json::parse(custom.out)["activations"]["layers_per_gpu"] == 5);
}

// An MPT shape as a reader writes it (tests/data/reference/mosaicml-mpt-h100.csv, llm-foundry's
// FSDP): GPT-NeoX's vocabulary padded to 50,368, untied, no position table (ALiBi), 2,048 tokens
// on H100s. The count is the shape's: 12 h^2 + 13 h a layer, both embeddings, the final norm.
namespace {
struct MptFlags {
    long long count = 0;
    std::string flags;
};
MptFlags mpt_flags(int layers, int hidden, int heads) {
    const double h = hidden, vocab = 50368;
    const long long count = std::llround(layers * (12 * h * h + 13 * h) + 2 * vocab * h + 2 * h);
    return {count, "--params " + std::to_string(count) + " --layers " + std::to_string(layers) +
                       " --hidden " + std::to_string(hidden) + " --heads " + std::to_string(heads) +
                       " --vocab 50368 --tie-embeddings false --seq 2048 --gpu h100-sxm-80gb "};
}
}  // namespace

// MosaicML's MPT-13B run on 64 H100s (39.86% MFU): GPT blocks 5,120 wide, 40 layers and heads;
// the predicted MFU is 1.01 of the measured, as tests/engine/mfu_published_test.cpp has it from
// the engine's own shape.
TEST_CASE("numbers --arch gpt: MPT-13B's run from flags, its count and predicted MFU") {
    const auto [count, flags] = mpt_flags(40, 5120, 40);
    const std::string shape = flags + "--nodes 8 --zero 3 --micro-batch 2 --micro-batches 1";
    const render_test::CliRun gpt = numbers(shape + " --arch gpt --format json");
    REQUIRE(gpt.exit_code == 0);
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(gpt.out);
    CHECK(j["params"] == count);
    CHECK(j["layout"]["gpus"] == 64);
    CHECK(j["step"]["mfu"].get<double>() * 100 / 39.86 == Approx(1.01).margin(0.005));
    // The table says which blocks it counted.
    const std::string md = numbers(shape + " --arch gpt").out;
    CHECK_THAT(md, Catch::Contains("| model | 13.1B (13.1B parameters, gpt blocks) |"));
    // The same shape as Llama blocks (three MLP matrices of the preset's width): another model.
    const render_test::CliRun llama = numbers(shape + " --arch llama --format json");
    REQUIRE(llama.exit_code == 0);
    CHECK(nlohmann::ordered_json::parse(llama.out)["flops"]["per_token"] !=
          j["flops"]["per_token"]);
    for (const auto& [arch, message] :
         {std::pair{"gtp", "unknown arch 'gtp' (did you mean 'gpt'?)"},
          std::pair{"mla", "unknown arch 'mla' (expected llama or gpt)"}}) {
        const render_test::CliRun bad = numbers(std::string("--params 13B --arch ") + arch);
        CHECK(bad.exit_code == 2);
        CHECK(bad.out.empty());
        CHECK(bad.err == std::string("shardreel: error: --arch: ") + message + "\n");
    }
}

// MPT-7B at 2,048 tokens, six sequences a micro-batch on 8 H100s, as llm-foundry ran it: GPT
// blocks without dropout (MPTConfig's attn_pdrop and resid_pdrop are 0) and its default loss, one
// fused kernel on the 16-bit logits. tests/engine/mfu_published_test.cpp has the same run from
// the engine's own shape.
TEST_CASE("numbers --dropout off --cross-entropy fused: MPT-7B's run fits as MosaicML ran it") {
    const std::string run = mpt_flags(32, 4096, 32).flags +
                            "--arch gpt --gpus 8 --zero 3 --micro-batch 6 --micro-batches 1 "
                            "--format json";
    const auto peak = [](const render_test::CliRun& r) {
        REQUIRE(r.exit_code == 0);
        return nlohmann::ordered_json::parse(r.out);
    };
    const nlohmann::ordered_json mpt = peak(numbers(run + " --dropout off --cross-entropy fused"));
    CHECK(mpt["expected_peak"]["total_bytes"].get<double>() / 1e9 == Approx(77.7).margin(0.05));
    CHECK(mpt["per_gpu"]["fits"] == true);
    // GPT's dropout masks (on with --arch gpt) and an fp32 copy of the logits: over the card.
    const nlohmann::ordered_json gpt = peak(numbers(run));
    CHECK(gpt["expected_peak"]["total_bytes"].get<double>() / 1e9 == Approx(85.7).margin(0.05));
    CHECK(gpt["per_gpu"]["fits"] == false);
    // Each setting alone: the fused loss saves 4.3 GB with its reserve, the masks 3.7 GB.
    const double fused =
        peak(numbers(run + " --cross-entropy fused"))["expected_peak"]["total_bytes"];
    const double dry = peak(numbers(run + " --dropout off"))["expected_peak"]["total_bytes"];
    CHECK((gpt["expected_peak"]["total_bytes"].get<double>() - fused) / 1e9 ==
          Approx(4.27).margin(0.01));
    CHECK((gpt["expected_peak"]["total_bytes"].get<double>() - dry) / 1e9 ==
          Approx(3.70).margin(0.01));
    CHECK(mpt["per_gpu"]["total_bytes"] == gpt["per_gpu"]["total_bytes"]);  // on paper the same
    // The table names the blocks as counted and the loss's kernel.
    std::string md = run.substr(0, run.find(" --format"));
    md = numbers(md + " --dropout off --cross-entropy fused").out;
    CHECK_THAT(md, Catch::Contains("6.86B parameters, gpt blocks without dropout) |"));
    CHECK_THAT(md, Catch::Contains("| expected peak: logits and loss (fused) | 2.48\u2009GB |"));
    CHECK_THAT(
        numbers("--model llama-2-7b --dropout on").out,
        Catch::Contains("| model | llama-2-7b (6.74B parameters, llama blocks with dropout) |"));
    for (const auto& [flags, message] :
         {std::pair{"--cross-entropy fuse",
                    "--cross-entropy: unknown cross_entropy 'fuse' (did you mean 'fused'?)"},
          std::pair{"--dropout maybe",
                    "--dropout: expected true or false for 'dropout', got 'maybe'"}}) {
        const render_test::CliRun bad = numbers(flags);
        CHECK(bad.exit_code == 2);
        CHECK(bad.out.empty());
        CHECK(bad.err == std::string("shardreel: error: ") + message + "\n");
    }
}

TEST_CASE("numbers --experts --top-k make a custom model a mixture of experts") {
    // Mixtral 8x7B's shape (Jiang et al. 2024): 46.7B parameters, 12.9B used per token.
    const std::string shape =
        "--layers 32 --hidden 4096 --heads 32 --kv-heads 8 --ffn 14336 --experts 8";
    const render_test::CliRun moe = numbers("--params 46.7B " + shape + " --top-k 2 --format json");
    REQUIRE(moe.exit_code == 0);
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(moe.out);
    CHECK(j["params"] == 46700000000LL);
    CHECK(std::round(j["params_active"].get<double>() / 1e8) == 129);
    const render_test::CliRun no_k = numbers("--params 46.7B " + shape);
    CHECK(no_k.exit_code == 2);
    CHECK(no_k.err ==
          "shardreel: error: top_k must be between 1 and the 8 experts (got 0; the "
          "experts each token goes through: Mixtral uses 2 of 8)\n");
    CHECK(no_k.out.empty());
}

TEST_CASE("numbers --ep --capacity-factor: the experts' all-to-all, and its refusals") {
    const render_test::CliRun run =
        numbers("--model mixtral-8x7b --gpus 8 --ep 8 --capacity-factor 1.25 --format json");
    REQUIRE(run.exit_code == 0);
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(run.out);
    CHECK(j["layout"]["ep"] == 8);
    // 4096 x 4096 x 2 bytes x top_k 2 x 1.25, 7/8 of it, x 4 x 32 MoE layers x 8 micro-batches.
    CHECK(j["comm_per_step"]["ep_bytes_per_gpu"] == 75161927680LL);
    CHECK_THAT(numbers("--model mixtral-8x7b --gpus 8 --ep 8").out,
               Catch::Contains("| comm per step on paper: expert parallel | 60.1\u2009GB in "));
    const render_test::CliRun bad = numbers("--model mixtral-8x7b --gpus 8 --ep 3");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: ep = 3 does not divide the 8 experts (try ep=4)\n"
          "shardreel: error: ep = 3 does not divide the data-parallel degree 8: expert "
          "parallelism splits the data-parallel ranks (try ep=4)\n");
}

TEST_CASE("numbers --cp --cp-mode: the key/value exchange, and a sequence cp does not divide") {
    const std::string base = "--model llama-3-8b --seq 8192 --gpus 8 ";
    const auto j = nlohmann::ordered_json::parse(numbers(base + "--cp 4 --format json").out);
    CHECK(j["layout"]["dp"] == 2);
    CHECK(j["layout"]["cp_mode"] == "allgather");
    // 2048 tokens x (K + V: 2 x 8 heads x 128) x 2 bytes, 2 x 3 chunks x 32 layers x 8.
    CHECK(j["comm_per_step"]["cp_bytes_per_gpu"] == 12884901888LL);
    const auto ring =
        nlohmann::ordered_json::parse(numbers(base + "--cp 4 --cp-mode ring --format json").out);
    CHECK(ring["comm_per_step"]["cp_bytes_per_gpu"] == 19327352832LL);
    const render_test::CliRun bad = numbers(base + "--cp 3");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: tp x pp x cp = 3 does not divide 8 GPUs (try cp=4)\n"
          "shardreel: error: cp = 3 does not divide the sequence of 8192 tokens (try "
          "cp=4)\n");
}

TEST_CASE("numbers --shard-group: hybrid sharding's traffic inside and across groups") {
    const auto j = nlohmann::ordered_json::parse(
        numbers("--gpus 16 --zero 3 --shard-group 8 --format json").out);
    CHECK(j["layout"]["shard_group"] == 8);
    CHECK(j["per_gpu"]["weights_bytes"] == 1684603904LL);  // 2 x 6,738,415,616 / 8
    CHECK(j["comm_per_step"]["dp_intra_bytes_per_gpu"] == 35376681984LL);
    CHECK(j["comm_per_step"]["dp_inter_bytes_per_gpu"] == 1684603904LL);
    const render_test::CliRun bad = numbers("--gpus 16 --zero 2 --shard-group 8");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: shard_group = 8 shards ZeRO-3's parameters, gradients and "
          "optimizer states, but zero = 2 (use zero=3, or drop shard_group)\n");
}

TEST_CASE("numbers --offload: host memory and the PCIe traffic of ZeRO-Offload") {
    // One GPU, micro-batches 1: ZeRO-Offload's 2M down and 2M up, M = 6,738,415,616.
    const auto j = nlohmann::ordered_json::parse(
        numbers("--gpus 1 --zero 2 --offload optimizer --micro-batches 1 --format json").out);
    CHECK(j["offload"]["mode"] == "optimizer");
    CHECK(j["offload"]["pcie_bytes_per_step"] == 26953662464LL);
    CHECK(j["per_gpu"]["host_bytes"] == 94337818624LL);  // 14M
    CHECK(j["per_gpu"]["optimizer_bytes"] == 0);
    const render_test::CliRun bad = numbers("--gpus 8 --offload optimizer+params --zero 1");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err ==
          "shardreel: error: offload = optimizer+params needs ZeRO-3's parameter "
          "partitions (ZeRO-Infinity), but zero = 1 (use zero=3, or offload=optimizer)\n");
    const render_test::CliRun muon =
        numbers("--gpus 8 --zero 1 --offload optimizer --optimizer muon");
    CHECK(muon.exit_code == 2);
    CHECK(muon.out.empty());
    CHECK(muon.err ==
          "shardreel: error: offload = optimizer steps the optimizer on the host's CPUs, where "
          "DeepSpeed has Adam and Lion only; optimizer = muon has no CPU step (use "
          "optimizer=adam or lion, or offload=none)\n");
}

TEST_CASE("numbers: micro-batches in flight are whole for 1F1B and fractional interleaved") {
    const auto plain = nlohmann::ordered_json::parse(
        numbers("--model llama-2-7b --gpus 8 --pp 4 --micro-batches 8 --format json").out);
    CHECK(plain["activations"]["in_flight_micro_batches"].is_number_integer());
    CHECK(plain["activations"]["in_flight_micro_batches"] == 4);
    const auto interleaved = nlohmann::ordered_json::parse(
        numbers("--model llama-2-7b --gpus 8 --pp 4 --micro-batches 8 --schedule interleaved "
                "--chunks 2 --format json")
            .out);
    CHECK(interleaved["activations"]["in_flight_micro_batches"] == 5.5);
    CHECK_THAT(
        numbers("--model llama-2-7b --gpus 8 --pp 4 --micro-batches 8 --schedule interleaved "
                "--chunks 2")
            .out,
        Catch::Contains("| micro-batches in flight | 5.5 |"));
}

TEST_CASE("numbers --format csv: key,value rows with the JSON's keys") {
    const render_test::CliRun run = numbers("--format csv");
    REQUIRE(run.exit_code == 0);
    std::istringstream lines(run.out);
    std::string line;
    std::getline(lines, line);
    CHECK(line == "key,value");
    std::vector<std::string> keys;
    while (std::getline(lines, line)) {
        keys.push_back(line.substr(0, line.find(',')));
        if (keys.back() == "per_gpu.total_bytes") CHECK(line == "per_gpu.total_bytes,126068260864");
    }
    CHECK(keys == kKeys);
}

TEST_CASE("numbers prints a Markdown table by default") {
    const render_test::CliRun run = numbers("--params 70B --gpus 16 --zero 3");
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.rfind("| quantity | value |\n|---|---|\n", 0) == 0);
    CHECK(render_test::has_line(run.out, "| model states | 1,120\u2009GB |"));
    CHECK(render_test::has_line(run.out, "| GPUs to hold the model states | 14 x 80\u2009GB |"));
    CHECK(render_test::has_line(run.out, "| per GPU on paper: weights | 8.75\u2009GB |"));
    CHECK(render_test::has_line(run.out, "| expected peak: weights | 8.75\u2009GB |"));
    CHECK(
        render_test::has_line(run.out, "| expected peak: CUDA context and NCCL | 1.06\u2009GB |"));
}

TEST_CASE("numbers: bad input exits 2 with one error line per problem and no output") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--model llama-2-7x",
         "shardreel: error: --model: unknown model 'llama-2-7x' (did you mean 'llama-2-7b'?)\n"},
        {"--gpus 8 --tp 2 --pp 3",
         "shardreel: error: tp x pp = 6 does not divide 8 GPUs (try tp=2, pp=4)\n"},
        {"--params 7B --heads 0",
         "shardreel: error: --heads: 'heads' must be between 1 and 16384, got 0\n"},
        {"--nvlink 900GBs",
         "shardreel: error: --nvlink: cannot parse '900GBs' as a bandwidth (expected e.g. "
         "900GB/s or 400Gb/s)\n"},
        {"--format xml --tp abc",
         "shardreel: error: --format: expected md, csv or json, got 'xml'\n"
         "shardreel: error: --tp: expected a number for 'tp', got 'abc'\n"},
        {"--model llama-2-7b --params 7B",
         "shardreel: error: --model and --params both given: use one\n"},
        {"--hidden 4096",
         "shardreel: error: --hidden describes a custom model: give --params too\n"},
        {"--arch gpt", "shardreel: error: --arch describes a custom model: give --params too\n"},
    };
    for (const auto& [args, message] : cases) {
        INFO(args);
        const render_test::CliRun run = numbers(args);
        CHECK(run.exit_code == 2);
        CHECK(run.out.empty());
        CHECK(run.err == message);
    }
}

// plan's panel shows "—" until its search ranks: before then --at gives the question on screen
// (the storyboard's layout), says so, and after it the winner's, as the panel does.
TEST_CASE("numbers --at a plan before its search ranks gives the question and says so") {
    const std::string board =
        render_test::q(std::filesystem::path(SHARDREEL_SOURCE_DIR) / "storyboards/beyond-3d.yaml");
    const auto early = numbers(board + " --at plan@1s --format json");
    const auto late = numbers(board + " --at plan@end --format json");
    REQUIRE(early.exit_code == 0);
    REQUIRE(late.exit_code == 0);
    CHECK(early.err ==
          "shardreel: note: at plan@1s the chapter draws no figures yet (its panel shows \"—\"): "
          "these are the configuration on screen's, not those it draws later\n");
    CHECK(late.err.empty());
    const auto question = nlohmann::json::parse(early.out)["layout"];
    CHECK(question["dp"] == 64);  // the chapter's 64 GPUs as the storyboard lays them out
    CHECK(question["zero"] == 0);
    CHECK(nlohmann::json::parse(late.out)["layout"] != question);
}

TEST_CASE("numbers --at takes the configuration on screen at that moment of the storyboard") {
    const std::string board = render_test::q(std::filesystem::path(SHARDREEL_SOURCE_DIR) /
                                             "tests/storyboards/good/explore.yaml");
    // bubble: pp 4 from the defaults, micro_batches 16 set at 2 s over 1 s.
    const auto at = [&](const std::string& moment, const std::string& flags = "") {
        const auto run = numbers(board + " --at " + moment + " " + flags + " --format json");
        INFO(run.err);
        REQUIRE(run.exit_code == 0);
        return nlohmann::json::parse(run.out);
    };
    const auto start = at("bubble@0s"), end = at("bubble@end");
    CHECK(start["layout"]["pp"] == 4);
    CHECK(start["pipeline"]["bubble_fraction"].get<double>() == Approx(3.0 / 11));  // m = 8
    CHECK(end["pipeline"]["bubble_fraction"].get<double>() == Approx(3.0 / 19));    // m = 16
    CHECK(at("bubble@end", "--micro-batches 4")["pipeline"]["bubble_fraction"].get<double>() ==
          Approx(3.0 / 7));  // a flag still overrides
    const auto alone = numbers("--at bubble@end");
    CHECK(alone.exit_code == 2);
    CHECK(alone.err ==
          "shardreel: error: --at names a moment of a storyboard: give the "
          "storyboard too (numbers STORYBOARD --at ID@TIME)\n");
    const auto typo = numbers(board + " --at bubbel@1s");
    CHECK(typo.exit_code == 2);
    CHECK(typo.err ==
          "shardreel: error: no chapter 'bubbel' in " +
              (std::filesystem::path(SHARDREEL_SOURCE_DIR) / "tests/storyboards/good/explore.yaml")
                  .string() +
              " (did you mean 'bubble'?)\n");
}

// The table's communication rows are on paper (bytes over each link's bandwidth, what the films
// draw), as its memory rows are; the step's exposed communication is the step model's, which
// over many nodes can exceed them (docs/commands/numbers.md).
TEST_CASE("numbers: communication on paper beside the step's exposed communication") {
    const render_test::CliRun md = numbers("--model llama-2-7b --gpus 1024");
    REQUIRE(md.exit_code == 0);
    CHECK_THAT(md.out, Catch::Contains("| comm per step on paper: data parallel | "));
    CHECK_THAT(md.out, Catch::Contains(
                           "| comm time per step on paper (bytes over each link's bandwidth) | "));
    const nlohmann::ordered_json j =
        nlohmann::ordered_json::parse(numbers("--model llama-2-7b --gpus 1024 --format json").out);
    CHECK(j["step"]["exposed_comm_seconds"].get<double>() >
          j["comm_per_step"]["seconds"].get<double>());
}

TEST_CASE("numbers: the step time's row and step.source say where its figure comes from") {
    const auto row = [](const std::string& flags) {
        const render_test::CliRun run = numbers("--model llama-2-7b --gpus 64" + flags);
        REQUIRE(run.exit_code == 0);
        const auto at = run.out.find("| step time (");
        REQUIRE(at != std::string::npos);
        return run.out.substr(at, run.out.find(" | ", at) - at);
    };
    const auto source = [](const std::string& flags) {
        const render_test::CliRun json =
            numbers("--model llama-2-7b --gpus 64 --format json" + flags);
        const render_test::CliRun csv =
            numbers("--model llama-2-7b --gpus 64 --format csv" + flags);
        REQUIRE(json.exit_code == 0);
        REQUIRE(csv.exit_code == 0);
        const std::string name = nlohmann::json::parse(json.out)["step"]["source"];
        CHECK_THAT(csv.out, Catch::Contains("\nstep.source,\"" + name + "\"\n"));
        return name;
    };
    CHECK(row("") == "| step time (predicted, set on nanotron's H100 runs)");
    CHECK(source("") == "predicted");
    CHECK(row(" --mfu 0.4") == "| step time (at the given MFU)");
    CHECK(source(" --mfu 0.4") == "mfu");
    CHECK(row(" --step-time 10s") == "| step time (measured)");
    CHECK(source(" --step-time 10s") == "measured");
    // A measured step wins over a given MFU.
    CHECK(row(" --mfu 0.4 --step-time 10s") == "| step time (measured)");
    CHECK(source(" --mfu 0.4 --step-time 10s") == "measured");
}

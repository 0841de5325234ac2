// MFU and HFU of published training runs, from their configuration and measured throughput:
// MosaicML's MPT benchmarks on 8 to 64 H100s (llm-foundry, scripts/train/benchmarking/README.md,
// table "H100 80GB BF16"; copied to tests/data/reference/mosaicml-mpt-h100.csv).
//
// Their MFU is (6N + 12 L d s) x tokens/s / (GPUs x 989 TFLOPS): PaLM's 6N + 12LHQT, as shardreel
// counts it. N differs slightly: theirs is the module's parameter count (with the norms and
// a positional table of max_seq_len rows that ALiBi never multiplies), shardreel's the matrices a
// token goes through; MFU agrees within 0.2%.
// Their HFU with activation checkpointing is 4/3 of MFU: every FLOP, the output head's included,
// counted four times. shardreel recomputes the layers' forward only (Megatron's convention: the
// head's logits are not checkpointed), so its HFU is below theirs by the head's share.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/report.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

namespace {

struct MptRun {
    std::string model;
    int d_model = 0, heads = 0, layers = 0, seq = 0, gpus = 0, micro_batch = 0, accum = 0;
    double batch_tokens = 0, tokens_per_second = 0;
    int checkpointing = 0;
    double mfu_percent = 0, hfu_percent = 0;
};

std::vector<MptRun> read_runs() {
    std::ifstream csv(SHARDREEL_SOURCE_DIR "/tests/data/reference/mosaicml-mpt-h100.csv");
    std::string line;
    std::getline(csv, line);
    REQUIRE(
        line ==
        "model,d_model,n_heads,n_layers,seq_len,gpus,micro_batch,grad_accum,global_batch_tokens,"
        "tokens_per_second,activation_checkpointing,mfu_percent,hfu_percent");
    std::vector<MptRun> runs;
    while (std::getline(csv, line)) {
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream row(line);
        MptRun r;
        row >> r.model >> r.d_model >> r.heads >> r.layers >> r.seq >> r.gpus >> r.micro_batch >>
            r.accum >> r.batch_tokens >> r.tokens_per_second >> r.checkpointing >> r.mfu_percent >>
            r.hfu_percent;
        runs.push_back(r);
    }
    return runs;
}

// MPT: GPT-style layers (4d MLP, full multi-head attention), GPT-NeoX's tokenizer padded to
// 50,368, trained with FSDP's FULL_SHARD (ZeRO-3) over every GPU; no dropout (MPTConfig's
// attn_pdrop, resid_pdrop and emb_pdrop are 0) and llm-foundry's default loss, fused_crossentropy
// (flash-attn's CrossEntropyLoss on the 16-bit logits).
Config mpt_config(const MptRun& run) {
    ModelSpec m{"mpt-" + run.model, Arch::gpt,       0,     run.layers, run.d_model, run.heads,
                run.heads,          4 * run.d_model, 50368, run.seq};
    m.params = parameter_count(m);
    m.dropout = false;
    Config c = engine_test::config_for(m, run.gpus, 1, 1, 3);
    c.training.cross_entropy = CrossEntropy::fused;
    c.training.seq_len = run.seq;
    c.training.micro_batch = run.micro_batch;
    c.training.micro_batches = run.accum;
    c.training.recompute = run.checkpointing ? Recompute::full : Recompute::none;
    c.training.step_time = run.batch_tokens / run.tokens_per_second;
    return c;
}

}  // namespace

TEST_CASE("MFU and HFU of MosaicML's MPT runs on H100s, from configuration and throughput") {
    const std::vector<MptRun> runs = read_runs();
    REQUIRE(runs.size() == 5);
    for (const MptRun& run : runs) {
        INFO("mpt-" << run.model << " at " << run.seq << " tokens on " << run.gpus << " GPUs");
        const Config c = mpt_config(run);
        REQUIRE(engine_test::problems(c).empty());
        const Report r = analyze(c);
        CHECK(r.flops.tokens_per_step == run.batch_tokens);
        CHECK(r.step.measured());
        CHECK(r.step.tokens_per_second_per_gpu == Approx(run.tokens_per_second / run.gpus));
        CHECK(r.step.mfu * 100 == Approx(run.mfu_percent).epsilon(0.002));
        if (!run.checkpointing) {
            CHECK(r.step.hfu == r.step.mfu);
            continue;
        }
        // Below their 4/3 by the head not recomputed: 2 FLOPs per head weight a token, of the
        // 8N + 16 l s d they count for its work.
        const double head = double(c.model.vocab) * c.model.hidden;
        const double head_share = 2 * head / (r.flops.per_token * 4 / 3);
        CHECK(r.step.hfu < r.step.mfu * 4 / 3);
        CHECK(r.step.hfu * 100 == Approx(run.hfu_percent * (1 - head_share)).epsilon(0.002));
    }
}

// The predicted step (no --step-time, no --mfu) against the same runs: shardreel's step model was
// set against nanotron's H100 runs (tests/data/measured/) and never saw these. llm-foundry's
// FSDP (ZeRO-3 over every GPU, no tensor or pipeline parallelism) at 13B to 70B and the 7B at
// 4,096 tokens: the predicted MFU is 1-8% above the measured. The 7B at 2,048 tokens, six
// sequences a micro-batch and no checkpointing, is 22% above. Every run fits, as MosaicML ran
// them on 80 GB cards (README, "Against measured training runs").
TEST_CASE(
    "predicted MFU of MosaicML's MPT runs: 1.0-1.1 of the measured, the 7B at 2,048 tokens 1.22") {
    for (const MptRun& run : read_runs()) {
        INFO("mpt-" << run.model << " at " << run.seq << " tokens on " << run.gpus << " GPUs");
        Config c = mpt_config(run);
        c.training.step_time = 0;
        const Report r = analyze(c);
        REQUIRE_FALSE(r.step.measured());
        CHECK(r.per_gpu.fits);
        const double ratio = r.step.mfu * 100 / run.mfu_percent;
        if (run.model == "7b" && run.seq == 2048) {
            CHECK(ratio == Approx(1.219).margin(0.01));
            continue;
        }
        CHECK(ratio > 1.0);
        CHECK(ratio < 1.10);
    }
}

// The 7B at 2,048 tokens holds six sequences' activations with nothing recomputed: 77.7 GB
// expected as MPT trains. Korthikanti's dropout masks (2 of 34 bytes a token and hidden unit,
// 3.2 GB here) and an fp32 copy of the logits with its fp32 gradient (3.7 GB more than the fused
// loss's 2.5) would put it at 85.7 GB, over the card: the two settings decide whether the
// published run fits.
TEST_CASE("MPT-7B at 2,048 tokens fits in 80 GB without dropout and with a fused loss") {
    const MptRun run = read_runs().front();
    REQUIRE(run.model == "7b");
    REQUIRE(run.seq == 2048);
    Config c = mpt_config(run);
    const PerGpu mpt = analyze(c).per_gpu;
    CHECK(mpt.expected.total.value / 1e9 == Approx(77.7).margin(0.05));
    CHECK(mpt.fits);
    c.model.dropout = true;
    c.training.cross_entropy = CrossEntropy::fp32;
    const PerGpu gpt = analyze(c).per_gpu;
    CHECK(gpt.expected.total.value / 1e9 == Approx(85.7).margin(0.05));
    CHECK_FALSE(gpt.fits);
    CHECK(gpt.total == mpt.total);  // on paper, Korthikanti's count, the same
}

// Megatron-LM on A100s predicts low: Korthikanti et al.'s 22B (Table 5: 41.5% MFU with selective
// recomputation and sequence parallelism on 8 A100s at tp 8) is predicted at 29.5%: each layer
// waits on the host's 8 ms with tensor parallelism, and its matmuls, at a weight slice 768 wide
// (hidden / tp), run at 0.35 of peak; both were set on nanotron's runs, and Megatron-LM's fused
// kernels reach more (README, "Against measured training runs"; docs/performance.md).
TEST_CASE("predicted MFU of Korthikanti et al.'s 22B on 8 A100s: 0.71 of the measured") {
    Config c = engine_test::korthikanti_22b();
    c.training.sequence_parallel = true;
    REQUIRE(engine_test::problems(c).empty());
    const Report r = analyze(c);
    CHECK(r.per_gpu.fits);
    CHECK(r.step.mfu == Approx(0.295).margin(0.001));
    CHECK(r.step.mfu / 0.415 == Approx(0.71).margin(0.005));
}

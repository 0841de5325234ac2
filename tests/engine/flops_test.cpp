// Step FLOPs against the published formulas (Narayanan et al. 2021 eq. 3, Korthikanti et al. 2022
// section 6, PaLM appendix B), and the step time and utilisations built on them.
#include "engine/flops.hpp"

#include <cmath>

#include "engine/report.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;
using engine_test::llama7b;

namespace {

// GPT-3 175B as Megatron-LM benchmarks it: vocabulary 51,200, sequences of 2,048, a batch of
// 1,536 sequences per step (Narayanan et al. 2021, Table 1).
Config megatron_175b(Recompute recompute) {
    ModelSpec m = *find_model("gpt-3-175b");
    m.vocab = 51200;
    m.params = parameter_count(m);
    Config c = config_for(m, 1);
    c.training.seq_len = 2048;
    c.training.micro_batch = 1;
    c.training.micro_batches = 1536;
    c.training.recompute = recompute;
    return c;
}

}  // namespace

TEST_CASE("hardware FLOPs with full recompute are Narayanan et al.'s eq. 3") {
    // F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)), which ignores biases and norms (13h of a
    // layer's 12h^2 + 13h weights): equal to 1e-4.
    const double B = 1536, s = 2048, l = 96, h = 12288, V = 51200;
    const double eq3 = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
    const FlopsReport f = step_flops(megatron_175b(Recompute::full));
    CHECK(f.tokens_per_step == B * s);
    CHECK(f.hardware_per_step == Approx(eq3).epsilon(1e-4));
    // Without recomputation: 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) (Korthikanti et al. 2022).
    const double model = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
    CHECK(f.model_per_step == Approx(model).epsilon(1e-4));
    const FlopsReport none = step_flops(megatron_175b(Recompute::none));
    CHECK(none.hardware_per_step == none.model_per_step);
    CHECK(none.model_per_step == f.model_per_step);
}

TEST_CASE("model FLOPs per token are PaLM's 6N + 12LHQT") {
    // N: the weights every token multiplies (all but the token embedding); H x Q = hidden.
    const Config c = llama7b(8);
    const ModelSpec& m = c.model;
    const double N = m.params - double(m.vocab) * m.hidden;
    const double palm = 6 * N + 12.0 * m.layers * m.hidden * c.training.seq_len;
    CHECK(step_flops(c).per_token == Approx(palm).epsilon(1e-6));  // the final norm, 6h
    // 7B at 4,096 tokens: attention adds 12 x 32 x 4096 x 4096 = 6.44e9 to 6N = 3.96e10.
    CHECK(step_flops(c).per_token == Approx(4.61e10).epsilon(0.001));
}

TEST_CASE("selective recompute runs the attention core's forward again, HFU counts 12 l s h") {
    Config c = llama7b(8);
    const FlopsReport none = step_flops(c);
    CHECK(none.executed_per_step == none.model_per_step);
    c.training.recompute = Recompute::selective;
    const FlopsReport sel = step_flops(c);
    const double lsh = double(c.model.layers) * c.training.seq_len * c.model.hidden;
    // What runs: Q K^T and the scores times V, 2 s h FLOPs each per token and layer.
    CHECK(sel.executed_per_step - sel.model_per_step == Approx(4 * lsh * sel.tokens_per_step));
    // What Korthikanti et al.'s HFU counts: the core's forward and backward again.
    CHECK(sel.hardware_per_step - sel.model_per_step == Approx(12 * lsh * sel.tokens_per_step));
    CHECK(sel.model_per_step == none.model_per_step);
    // The estimate runs what is executed: at a given mfu, a third of HFU's extra in time.
    c.training.mfu = 0.4;
    const double busy = sel.executed_per_step / 8 / (0.4 * 989e12);
    CHECK(analyze(c).step.compute_seconds == Approx(busy));
}

TEST_CASE("selective recompute's HFU is Korthikanti et al.'s Table 5: 22B at 41.5% MFU is 43.7%") {
    Config c = engine_test::korthikanti_22b();
    const FlopsReport f = step_flops(c);
    // The step that gives their 41.5% MFU, and what it implies for the hardware FLOPs.
    c.training.step_time = f.model_per_step / (0.415 * 8 * 312e12);
    const Report r = analyze(c);
    CHECK(r.step.mfu == Approx(0.415));
    // (1 + s/3h + V/12hl) / (1 + s/6h + V/12hl) = 1.0519 (biases and norms, 13h a layer, aside).
    CHECK(r.step.hfu / r.step.mfu == Approx(1.0519).epsilon(2e-4));
    CHECK(std::round(r.step.hfu * 1000) == 437);
}

TEST_CASE("without communication, bubble or recompute the estimate runs at the assumed MFU") {
    Config c = llama7b(1);
    c.training.micro_batches = 8;
    c.training.mfu = 0.4;  // --mfu: the override of the predicted step (step_model_test.cpp)
    const Report r = analyze(c);
    CHECK(r.step.exposed_comm_seconds == 0);
    CHECK(r.step.mfu == Approx(0.4));
    CHECK(r.step.hfu == Approx(0.4));
    CHECK(r.step.seconds == Approx(r.flops.model_per_step / (0.4 * 989e12)));
    CHECK(r.step.tokens_per_second_per_gpu == Approx(r.flops.tokens_per_step / r.step.seconds));
}

TEST_CASE("the bubble stretches compute - overlap hides the traffic the compute covers") {
    Config c = llama7b(16, 1, 4);  // dp 4 across two nodes, pp 4
    c.training.micro_batches = 8;
    c.training.mfu = 0.4;
    const Report none = analyze(c);
    const double busy = none.flops.hardware_per_step / 16 / (0.4 * 989e12);
    CHECK(none.step.compute_seconds == Approx(busy / (1 - none.bubble_fraction)));
    CHECK(none.step.exposed_comm_seconds == Approx(none.comm.total().value));
    c.training.overlap = Overlap::dp;
    const Report dp = analyze(c);
    CHECK(dp.step.exposed_comm_seconds ==
          Approx(dp.comm.tp_time.value + dp.comm.pp_time.value +
                 std::max(0.0, dp.comm.dp_time.value - dp.step.compute_seconds)));
    c.training.overlap = Overlap::all;
    const Report all = analyze(c);
    CHECK(all.step.exposed_comm_seconds ==
          Approx(std::max(0.0, all.comm.total().value - all.step.compute_seconds)));
    CHECK(all.step.seconds <= dp.step.seconds);
    CHECK(dp.step.seconds <= none.step.seconds);
}

TEST_CASE("a measured step time gives MFU and HFU - full recompute puts HFU a third above") {
    Config c = megatron_175b(Recompute::full);
    c.cluster.gpu = *find_gpu("a100-sxm-80gb");
    c.layout = {1024, 8, 8, 0};  // dp 16
    c.training.micro_batches = 96;
    c.training.step_time = 60;
    const Report r = analyze(c);
    CHECK(r.step.measured());
    CHECK(r.step.seconds == 60);
    CHECK(r.step.mfu == Approx(r.flops.model_per_step / (60 * 1024 * 312e12)));
    // Megatron's 4/3, less the head, which is not recomputed: (96 + 16s/h) / (72 + 12s/h)
    // without the V terms, about 1.33.
    CHECK(r.step.hfu / r.step.mfu == Approx(4.0 / 3).epsilon(0.01));
}

TEST_CASE("the peak follows the precision: fp8 tensor cores where the GPU has them") {
    Config c = llama7b(8);
    CHECK(peak_flops(c) == 989e12);
    c.training.precision = Precision::fp8_mixed;
    CHECK(peak_flops(c) == 1979e12);
    c.training.precision = Precision::fp32;
    CHECK(peak_flops(c) == 494.5e12);
    c.cluster.gpu = *find_gpu("a100-sxm-80gb");
    c.training.precision = Precision::fp8_mixed;
    CHECK(peak_flops(c) == 312e12);  // no fp8 tensor cores: bf16's
}

TEST_CASE("a mixture of experts costs FLOPs for the experts a token uses, not all of them") {
    Config c = config_for(*find_model("mixtral-8x7b"), 8);
    const ModelSpec& m = c.model;
    const double used = active_parameter_count(m) - double(m.vocab) * m.hidden;  // no embedding
    const double attention = 12.0 * m.layers * m.hidden * c.training.seq_len;
    CHECK(step_flops(c).per_token == Approx(6 * used + attention).epsilon(1e-6));
    CHECK(step_flops(c).per_token < 6 * m.params / 3);  // 12.9B of 46.7B
}

// The expected peak, term by term, worked by hand for the benchmark's 1B (tests/data/measured/),
// and how ZeRO, the pipeline, tied embeddings and the GPU's memory move it. The on-paper figure
// beside it stays the published one (memory_test.cpp).
#include "engine/peak.hpp"

#include "engine/memory.hpp"
#include "engine/presets.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

namespace {

// nanotron's 1B: 16 layers, h 2,048, 32 heads (MHA), MLP 8,192, vocabulary 131,072, tied;
// bf16 with fp32 gradient accumulation, one sequence of 4,096 tokens per micro-batch.
Config one_b(int gpus, int tp = 1, int pp = 1, int zero = 0) {
    return engine_test::nanotron_config("1B", gpus, tp, pp, zero);
}

constexpr double P = 1'342'244'864;  // 268,435,456 embedding + 16 x 67,112,960 + 2,048

}  // namespace

TEST_CASE("expected peak of the 1B on 8 data-parallel GPUs, term by term") {
    const Config c = one_b(8);
    REQUIRE(c.model.params == P);
    const ExpectedPeak e = expected_peak(c);
    CHECK(e.first == e.last);  // one stage
    const PeakTerms& t = e.first.terms;
    CHECK(t.weights == Bytes(2 * P));
    CHECK(t.gradients == Bytes(2 * P));   // bf16, what each backward writes
    CHECK(t.grad_accum == Bytes(4 * P));  // the fp32 buffer they are added into
    CHECK(t.optimizer == Bytes(12 * P));  // fp32 master and two moments
    CHECK(t.dp_buckets == Bytes(2 * P));  // DDP's copy of the bf16 gradients
    CHECK(t.tp_gather == Bytes(0));
    CHECK(t.param_gather == Bytes(0));
    // (16h + 8 ffn) bytes a token: 98,304 x 4,096 tokens x 16 layers.
    CHECK(t.activations == Bytes(98'304.0 * 4096 * 16));
    // 4,096 x 131,072 logits at 2 + 4 bytes, and one micro-batch's fp32 softmax, 4.
    CHECK(t.logits == Bytes(4096.0 * 131072 * 10));
    // The allocator's reserve: 15% of what every micro-batch allocates and frees.
    const double per_micro_batch = 98'304.0 * 4096 * 16 + 4096.0 * 131072 * 10;
    CHECK(t.reserve.value == Approx(0.15 * per_micro_batch));
    CHECK(t.context == kCudaNcclContext);
    CHECK(t.allocator().value == Approx(22 * P + 1.15 * per_micro_batch));
    CHECK(t.total() == t.allocator() + kCudaNcclContext);
    CHECK(e.total == t.total());
    // The benchmark measured 36.7 GiB (PyTorch's reserved peak): this is 40.15 GiB.
    CHECK(t.allocator().value / (1024.0 * 1024 * 1024) == Approx(40.15).margin(0.005));
}

TEST_CASE("on paper stays the first-order figure beside the expected peak") {
    const PerGpu g = per_gpu_memory(one_b(8));
    CHECK(g.total == g.weights + g.gradients + g.optimizer + g.activations);
    CHECK(g.weights + g.gradients + g.optimizer == Bytes(16 * P));
    CHECK(g.activations == activation_bytes_per_layer(one_b(8).model, one_b(8).training, 1) * 16.0);
    CHECK(g.expected.total > g.total);
}

TEST_CASE("ZeRO-1 shards the optimizer, not the fp32 buffer, and gathers the weights whole") {
    const PeakTerms t = expected_peak(one_b(8, 1, 1, 1)).first.terms;
    CHECK(t.optimizer == Bytes(12 * P / 8));
    CHECK(t.grad_accum == Bytes(4 * P));
    CHECK(t.dp_buckets == Bytes(0));        // reduced from the fp32 buffer: no DDP
    CHECK(t.param_gather == Bytes(2 * P));  // the updated weights gathered after the step
    Config bf16 = one_b(8, 1, 1, 1);
    bf16.training.grad_accum_dtype = GradAccumDtype::same;
    CHECK(expected_peak(bf16).first.terms.dp_buckets == Bytes(0));  // reduced in place
    CHECK(expected_peak(bf16).first.terms.param_gather == Bytes(2 * P));
    // With 32 replicas a replica's buffer (2P / 32, 84 MB) fits in the freed output of SwiGLU's
    // joint gate and up projection (4,096 x 2 x 8,192 bf16, 134 MB): the allocator serves the
    // gather from its cache.
    CHECK(expected_peak(one_b(32, 1, 1, 1)).first.terms.param_gather == Bytes(0));
    CHECK(expected_peak(one_b(16, 1, 1, 1)).first.terms.param_gather == Bytes(2 * P));  // 168 MB
    const PeakTerms two = expected_peak(one_b(8, 1, 1, 2)).first.terms;
    CHECK(two.grad_accum == Bytes(4 * P / 8));  // sharded as the gradients are
    CHECK(two.dp_buckets == Bytes(0));
    const PeakTerms three = expected_peak(one_b(8, 1, 1, 3)).first.terms;
    CHECK(three.param_gather == Bytes(2 * 2 * parameter_split(one_b(8).model).per_layer));
    CHECK(expected_peak(one_b(1)).first.terms.dp_buckets == Bytes(0));  // no DDP on one GPU
}

TEST_CASE("tensor parallelism splits the logits and gathers the sequence into one buffer") {
    const PeakTerms t = expected_peak(one_b(8, 8)).first.terms;
    CHECK(t.logits == Bytes(4096.0 * 131072 / 8 * 10));
    CHECK(t.tp_gather == Bytes(2.0 * 4096 * 2048));
    CHECK(t.activations == Bytes(98'304.0 / 8 * 4096 * 16));  // sequence parallel splits all
    Config no_sp = one_b(8, 8);
    no_sp.training.sequence_parallel = false;
    // Without it the norms' and projections' inputs, 8h bytes a token, stay whole.
    CHECK(expected_peak(no_sp).first.terms.activations ==
          Bytes((8.0 * 2048 + (98'304.0 - 8 * 2048) / 8) * 4096 * 16));
}

TEST_CASE("a pipeline: the first stage holds p micro-batches, the last the logits and a copy") {
    Config c = one_b(16, 1, 4);
    c.layout.pipeline_split = StageSplit::compute;
    const ExpectedPeak e = expected_peak(c);
    CHECK(e.first.layers == 6);
    CHECK(e.first.in_flight == 4);
    CHECK(e.first.terms.logits == Bytes(0));
    CHECK(e.last.layers == 0);  // nanotron's split leaves the output layer alone on stage 3
    CHECK(e.last.in_flight == 1);
    CHECK(e.last.terms.logits == Bytes(4096.0 * 131072 * 10));
    // The tied matrix is kept on both ends: the last stage's weights are the copy and a norm.
    CHECK(e.last.terms.weights == Bytes(2 * (131072.0 * 2048 + 2048)));
    CHECK(e.total == std::max(e.first.terms.total(), e.last.terms.total()));
}

TEST_CASE("fits compares the expected peak, not the paper figure, with the GPU's memory") {
    Config c = one_b(8);
    c.training.micro_batch = 5;
    const PerGpu g = per_gpu_memory(c);
    CHECK(g.total <= g.capacity);          // on paper it fits
    CHECK(g.expected.total > g.capacity);  // the logits and buffers do not
    CHECK_FALSE(g.fits);
}

TEST_CASE("dropout masks: GPT-3 keeps Korthikanti's 34 sbh, 32 without dropout, a Llama 2 more") {
    const ModelSpec gpt = *find_model("gpt-3-175b");
    CHECK(gpt.dropout);  // Megatron-LM's GPT-3, dropout 0.1
    CHECK_FALSE(find_model("llama-2-7b")->dropout);
    Training t;
    t.seq_len = 2048;
    const double tokens = 2048, h = 12288;
    // FlashAttention keeps no scores: the layer's linear part, per token.
    CHECK(expected_activation_bytes_per_layer(gpt, t, 1, 1) == Bytes(tokens * 34 * h));
    CHECK(expected_activation_bytes_per_layer(gpt, t, 1, 1) ==
          activation_bytes_per_layer(gpt, t, 1, 1));  // on paper, Korthikanti eq. 1, the same
    ModelSpec dry = gpt;
    dry.dropout = false;
    CHECK(expected_activation_bytes_per_layer(dry, t, 1, 1) == Bytes(tokens * 32 * h));
    // With tp 8 and no sequence parallelism the masks are among the 10 that stay whole (eq. 2).
    CHECK(expected_activation_bytes_per_layer(gpt, t, 8, 1) == Bytes(tokens * (10 + 24 / 8.0) * h));
    CHECK(expected_activation_bytes_per_layer(dry, t, 8, 1) == Bytes(tokens * (8 + 24 / 8.0) * h));
    // Scores kept (no FlashAttention): softmax output, mask and dropout output, 5 a s a token;
    // without dropout the softmax output alone, 2 a s.
    t.flash_attention = false;
    const double a_s = 96.0 * 2048;
    CHECK(expected_activation_bytes_per_layer(gpt, t, 1, 1) == Bytes(tokens * (34 * h + 5 * a_s)));
    CHECK(expected_activation_bytes_per_layer(dry, t, 1, 1) == Bytes(tokens * (32 * h + 2 * a_s)));
    // nanotron's 1B (16h + 8 ffn a token, no dropout) with dropout on: two masks of h bytes.
    Config one = one_b(8);
    const Bytes plain = expected_activation_bytes_per_layer(one.model, one.training, 1, 1);
    one.model.dropout = true;
    CHECK(expected_activation_bytes_per_layer(one.model, one.training, 1, 1) ==
          plain + Bytes(2.0 * 2048 * 4096));
}

TEST_CASE("a fused cross entropy keeps the 16-bit logits and writes their 16-bit gradient") {
    Config c = one_b(8);
    c.training.cross_entropy = CrossEntropy::fused;
    // 2 bytes a logit kept for the backward, 2 for the gradient: 4, where fp32's copy took 10.
    CHECK(expected_peak(c).first.terms.logits == Bytes(4096.0 * 131072 * 4));
    c.layout.tp = 8;
    CHECK(expected_peak(c).first.terms.logits == Bytes(4096.0 * 131072 / 8 * 4));
    c.training.precision = Precision::fp32;  // fp32 training: 4-byte logits and gradient
    CHECK(expected_peak(c).first.terms.logits == Bytes(4096.0 * 131072 / 8 * 8));
}

TEST_CASE(
    "an MoE layer keeps each token's dispatched copy and each expert's output, top_k of each") {
    const ModelSpec mixtral = *find_model("mixtral-8x7b");
    Training t;  // one sequence of 4,096 tokens, FlashAttention, no recomputation
    const double h = 4096;
    // Whole: the norms' and projections' inputs 8h, and per routed expert (2 of 8) the token's
    // copy the experts' first projection keeps and the expert's output the combine keeps, 4h.
    const double whole = 8 * h + 4 * h * 2;
    // Split: Q, K, V (8 key/value heads of 128) and the output, then SwiGLU's 8 bytes x ffn per
    // expert a token goes through.
    const double split = (2 * h + 4 * 8 * 128 + 2 * h) + 8 * 14336.0 * 2;
    CHECK(expected_activation_bytes_per_layer(mixtral, t, 1, 1) == Bytes(4096 * (whole + split)));
    CHECK(expected_activation_bytes_per_layer(mixtral, t, 8, 1) ==
          Bytes(4096 * (whole + split / 8)));
    t.sequence_parallel = true;
    CHECK(expected_activation_bytes_per_layer(mixtral, t, 8, 1) ==
          Bytes(4096 * (whole + split) / 8));
    // DeepSeek-V3's first 3 of 61 layers are dense: the mean layer routes 58/61 of the time.
    const ModelSpec v3 = *find_model("deepseek-v3");
    ModelSpec dense = v3;
    dense.dense_layers = v3.layers;
    t.sequence_parallel = false;
    const double routed = 4.0 * 7168 * 8 * 58 / 61;
    const double mlp = 8 * (18432.0 * 3 + (8 + 1) * 2048.0 * 58) / 61 - 8 * 18432.0;
    CHECK(
        expected_activation_bytes_per_layer(v3, t, 1, 1).value ==
        Approx(expected_activation_bytes_per_layer(dense, t, 1, 1).value + 4096 * (routed + mlp)));
}

// The routed experts hold capacity_factor x their fair share of slots, as the all-to-alls carry
// them: padded above 1, the overflow dropped below. DeepSeek-V3's shared expert and dense layers
// take every token once whatever the factor.
TEST_CASE("an MoE layer's routed activations follow the capacity factor") {
    const ModelSpec mixtral = *find_model("mixtral-8x7b");
    Training t;
    const double h = 4096, routed = 4 * h * 2 + 8 * 14336.0 * 2;  // dispatch and SwiGLU, top 2
    const Bytes even = expected_activation_bytes_per_layer(mixtral, t, 1, 1);
    t.capacity_factor = 1.25;
    CHECK(expected_activation_bytes_per_layer(mixtral, t, 1, 1).value ==
          Approx(even.value + 4096 * routed * 0.25));
    t.capacity_factor = 0.5;
    CHECK(expected_activation_bytes_per_layer(mixtral, t, 1, 1).value ==
          Approx(even.value - 4096 * routed * 0.5));
    const ModelSpec v3 = *find_model("deepseek-v3");
    t.capacity_factor = 1;
    const Bytes v3_even = expected_activation_bytes_per_layer(v3, t, 1, 1);
    t.capacity_factor = 2;
    const double v3_routed = (4.0 * 7168 * 8 + 8 * 8 * 2048.0) * 58 / 61;  // not the shared one
    CHECK(expected_activation_bytes_per_layer(v3, t, 1, 1).value ==
          Approx(v3_even.value + 4096 * v3_routed));
    // A dense model has no slots to pad.
    const ModelSpec llama = *find_model("llama-2-7b");
    CHECK(expected_activation_bytes_per_layer(llama, t, 1, 1) ==
          expected_activation_bytes_per_layer(llama, Training{}, 1, 1));
}

// Model-state memory against ZeRO Table 1 and the whiteboard numbers; activations per variant.
#include "engine/memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/comm.hpp"
#include "engine/pipeline.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;
using engine_test::llama7b;

namespace {

// ZeRO Table 1 prints values of 100 GB and more truncated to whole GB, smaller ones rounded
// half-up to three significant figures but at most two decimals ("0.47", "41.3", "7.5").
std::string paper_gb(long long bytes) {
    if (bytes >= 100'000'000'000) return std::to_string(bytes / 1'000'000'000);
    const int decimals = bytes >= 10'000'000'000 ? 1 : 2;
    const long long unit = decimals == 1 ? 100'000'000 : 10'000'000;
    const long long q = bytes / unit + (2 * (bytes % unit) >= unit ? 1 : 0);
    const long long scale = decimals == 1 ? 10 : 100;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%lld.%0*lld", q / scale, decimals, q % scale);
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

Bytes states_per_gpu(const Config& c) {
    const PerGpu g = per_gpu_memory(c);
    return g.weights + g.gradients + g.optimizer;
}

}  // namespace

TEST_CASE("every row of ZeRO Table 1: exact bytes and the printed GB") {
    std::ifstream csv(SHARDREEL_SOURCE_DIR "/tests/data/reference/zero-table1.csv");
    REQUIRE(csv.good());
    std::string line;
    std::getline(csv, line);
    REQUIRE(line == "params,gpus,stage,printed_gb,exact_bytes");
    int rows = 0;
    while (std::getline(csv, line)) {
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream row(line);
        double params = 0;
        int gpus = 0;
        std::string stage, printed;
        long long exact = 0;
        row >> params >> gpus >> stage >> printed >> exact;
        INFO(line);
        const Config c = config_for(nominal_model(params), gpus, 1, 1, stage.back() - '0');
        const auto bytes = (long long)std::floor(states_per_gpu(c).value);
        CHECK(bytes == exact);
        CHECK(paper_gb(bytes) == printed);
        ++rows;
    }
    CHECK(rows == 54);
}

TEST_CASE("bytes per parameter by precision recipe") {
    CHECK(bytes_per_param(Precision::fp32, GradDtype::bf16) == BytesPerParam{4, 4, 8});
    CHECK(bytes_per_param(Precision::bf16_mixed, GradDtype::bf16) == BytesPerParam{2, 2, 12});
    CHECK(bytes_per_param(Precision::bf16_mixed, GradDtype::bf16).total() == 16);
    CHECK(bytes_per_param(Precision::bf16_mixed, GradDtype::fp32).total() == 18);
    CHECK(bytes_per_param(Precision::fp8_mixed, GradDtype::bf16) == BytesPerParam{1, 2, 12});
    CHECK(bytes_per_param(Precision::fp8_mixed, GradDtype::fp32).total() == 17);
}

TEST_CASE("bytes per parameter by optimizer: its state beside the fp32 master copy") {
    const auto mixed = [](Optimizer o) {
        return bytes_per_param(Precision::bf16_mixed, GradDtype::bf16, o);
    };
    CHECK(mixed(Optimizer::adam) == BytesPerParam{2, 2, 12});  // ZeRO's K = 12
    // 8-bit Adam: 8 bytes of fp32 moments become 2 (Dettmers et al. 2022, 75% less state).
    CHECK(mixed(Optimizer::adam_8bit) == BytesPerParam{2, 2, 6});
    CHECK(optimizer_state_bytes(Optimizer::adam_8bit) ==
          optimizer_state_bytes(Optimizer::adam) / 4);
    // Lion keeps only the momentum, half of Adam's state (Chen et al. 2023); so do SGD and Muon.
    for (Optimizer o : {Optimizer::lion, Optimizer::sgd_momentum, Optimizer::muon})
        CHECK(mixed(o) == BytesPerParam{2, 2, 8});
    CHECK(mixed(Optimizer::adafactor) == BytesPerParam{2, 2, 4});  // the master copy alone
    CHECK(bytes_per_param(Precision::fp32, GradDtype::bf16, Optimizer::lion) ==
          BytesPerParam{4, 4, 4});
    for (Optimizer o : {Optimizer::adam, Optimizer::adam_8bit, Optimizer::sgd_momentum,
                        Optimizer::lion, Optimizer::adafactor, Optimizer::muon})
        CHECK(parse_optimizer(to_string(o)) == o);
    CHECK_FALSE(parse_optimizer("sgd"));
}

TEST_CASE("ZeRO shards whatever state the optimizer keeps") {
    Config c = llama7b(8, 1, 1, 1);  // ZeRO-1: optimizer state over 8
    const double adam = per_gpu_memory(c).optimizer.value;
    c.training.optimizer = Optimizer::adam_8bit;
    CHECK(per_gpu_memory(c).optimizer.value == Approx(adam * 6 / 12));
}

TEST_CASE("precision names round-trip and accept the short forms") {
    for (Precision p : {Precision::fp32, Precision::bf16_mixed, Precision::fp8_mixed}) {
        CHECK(parse_precision(to_string(p)) == p);
    }
    CHECK(parse_precision("bf16") == Precision::bf16_mixed);
    CHECK(parse_precision("fp8") == Precision::fp8_mixed);
    CHECK_FALSE(parse_precision("fp16").has_value());
    CHECK(parse_grad_dtype("fp32") == GradDtype::fp32);
    CHECK(to_string(GradDtype::bf16) == "bf16");
    CHECK_FALSE(parse_grad_dtype("fp8").has_value());
}

TEST_CASE("whiteboard: 7B needs 112 GB, 70B needs 1,120 GB, fourteen 80 GB GPUs") {
    const Training t;
    CHECK(model_states_bytes(nominal_model(7e9), t) == Bytes(112e9));
    const Bytes b70 = model_states_bytes(nominal_model(70e9), t);
    CHECK(b70 == Bytes(1120e9));
    CHECK(gpus_to_hold(b70, Bytes(80e9)) == 14);
    CHECK(gpus_to_hold(Bytes(112e9), Bytes(80e9)) == 2);
    CHECK(gpus_to_hold(Bytes(80e9), Bytes(80e9)) == 1);
}

TEST_CASE("activations per layer, Korthikanti et al. 2022, llama-2-7b s=4096 b=1") {
    const ModelSpec m = *find_model("llama-2-7b");
    const double sbh = 4096.0 * 4096;
    Training t;                                                        // flash on, no recompute
    CHECK(activation_bytes_per_layer(m, t, 1) == Bytes(570'425'344));  // 34 sbh
    t.flash_attention = false;
    CHECK(activation_bytes_per_layer(m, t, 1) == Bytes(sbh * (34 + 160)));  // 5as/h = 160
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(sbh * (10 + 6 + 40)));
    t.sequence_parallel = true;
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(sbh * (8.5 + 40)));
    t.recompute = Recompute::selective;
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(sbh * 8.5));
    t.sequence_parallel = false;
    CHECK(activation_bytes_per_layer(m, t, 1) == Bytes(570'425'344));
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(sbh * 16));
    t.recompute = Recompute::full;
    CHECK(activation_bytes_per_layer(m, t, 1) == Bytes(33'554'432));  // 2 sbh
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(33'554'432));  // replicated without SP
    t.sequence_parallel = true;
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(8'388'608));
    t.micro_batch = 2;
    CHECK(activation_bytes_per_layer(m, t, 4) == Bytes(16'777'216));
}

TEST_CASE("micro-batches in flight and layers per stage") {
    Training t;
    t.micro_batches = 8;
    CHECK(in_flight_micro_batches(t, 1) == 1);
    CHECK(in_flight_micro_batches(t, 4) == 4);
    t.schedule = Schedule::interleaved;
    CHECK(in_flight_micro_batches(t, 4) == 4);  // one chunk per GPU is plain 1F1B
    t.chunks = 2;
    CHECK(in_flight_micro_batches(t, 4) == 5.5);  // 11 chunks of half a stage
    t.micro_batches = 4;
    CHECK(in_flight_micro_batches(t, 4) == 4);  // m = p: every chunk of every micro-batch
    t.micro_batches = 8;
    t.schedule = Schedule::gpipe;
    CHECK(in_flight_micro_batches(t, 4) == 8);
    t.schedule = Schedule::one_f_one_b;
    t.micro_batches = 2;
    CHECK(in_flight_micro_batches(t, 4) == 2);
    t.micro_batches = 16;
    t.schedule = Schedule::zb_h1;  // Qi et al. 2023: 1F1B's p
    CHECK(in_flight_micro_batches(t, 4) == 4);
    t.schedule = Schedule::zb_h2;  // 2p-1
    CHECK(in_flight_micro_batches(t, 4) == 7);
    t.schedule = Schedule::dualpipe;  // DeepSeek-V3 Table 2: PP+1
    CHECK(in_flight_micro_batches(t, 4) == 5);
    const ModelSpec m = *find_model("llama-2-7b");
    CHECK(layers_per_stage(m, 4) == 8);
    CHECK(layers_per_stage(m, 5) == 7);
}

TEST_CASE("per-GPU memory under ZeRO, 8-way data parallel llama-2-7b") {
    const double p = 6'738'415'616.0;
    const PerGpu z0 = per_gpu_memory(llama7b(8, 1, 1, 0));
    CHECK(z0.weights == Bytes(2 * p));
    CHECK(z0.gradients == Bytes(2 * p));
    CHECK(z0.optimizer == Bytes(12 * p));
    CHECK(z0.activations == Bytes(32 * 570'425'344.0));  // all 32 layers, one micro-batch
    CHECK(z0.capacity == Bytes(80e9));
    CHECK(z0.total == Bytes(16 * p + 32 * 570'425'344.0));
    CHECK_FALSE(z0.fits);  // 126 GB
    const PerGpu z3 = per_gpu_memory(llama7b(8, 1, 1, 3));
    CHECK(z3.weights == Bytes(2 * p / 8));
    CHECK(z3.optimizer == Bytes(12 * p / 8));
    CHECK(z3.fits);
}

TEST_CASE("per-GPU memory with TP and PP: stage 0 holds the embedding and its layers") {
    // (32000 x 4096 + 8 x 202,383,360) / 2 = 875,069,440 parameters on GPU 0.
    CHECK(params_per_gpu(*find_model("llama-2-7b"), {8, 2, 4, 0}) == 875'069'440.0);
    CHECK(params_per_gpu(*find_model("llama-2-7b"), {8, 2, 1, 0}) == 3'369'207'808.0);
    const PerGpu g = per_gpu_memory(llama7b(8, 2, 4));
    CHECK(g.weights == Bytes(1'750'138'880));
    CHECK(g.gradients == Bytes(1'750'138'880));
    CHECK(g.optimizer == Bytes(10'500'833'280));
    // 22 sbh per layer at t=2 without SP, 8 layers, min(8, 4) micro-batches in flight.
    CHECK(g.activations == Bytes(22.0 * 4096 * 4096 * 8 * 4));
    CHECK(g.fits);
}

// DeepSeek-V3 report, Table 2: DualPipe keeps two stage copies per GPU, 2x the parameters, and
// their gradients go through the data-parallel all-reduce too.
TEST_CASE("DualPipe doubles the model states on each GPU") {
    Config c = llama7b(16, 1, 4);
    c.training.micro_batches = 8;
    const PerGpu one = per_gpu_memory(c);
    const Bytes dp_one = comm_per_step(c).dp_per_gpu;
    c.training.schedule = Schedule::dualpipe;
    const PerGpu two = per_gpu_memory(c);
    CHECK(two.weights == one.weights * 2.0);
    CHECK(two.gradients == one.gradients * 2.0);
    CHECK(two.optimizer == one.optimizer * 2.0);
    CHECK(two.activations.value ==
          Approx(one.activations.value * 5 / 4));  // p+1 = 5 micro-batches, not 4
    CHECK(comm_per_step(c).dp_per_gpu == dp_one * 2.0);
    CHECK(stage_copies(c.training) == 2);
}

// What a GPU holds at a schedule's peak: the first stage's simulated max_in_flight, at
// activations_held, is per_gpu_memory's figure for every schedule the engine simulates.
TEST_CASE("activations held at a schedule's peak are per_gpu_memory's activations") {
    Config c = llama7b(4, 1, 4);
    c.training.micro_batches = 8;
    CHECK(activations_held(c, 1) == activation_bytes_per_layer(c.model, c.training, 1) * 8.0);
    for (Schedule kind : {Schedule::gpipe, Schedule::one_f_one_b, Schedule::zb_h1, Schedule::zb_h2,
                          Schedule::dualpipe}) {
        INFO("schedule " << int(kind));
        c.training.schedule = kind;
        const PipelineSchedule s = pipeline_schedule(kind, 4, 8);
        CHECK(activations_held(c, s.max_in_flight(0)) == per_gpu_memory(c).activations);
        CHECK(activations_held(c, in_flight_micro_batches(c.training, 4)) ==
              per_gpu_memory(c).activations);
    }
}

// storyboards/distributed-training.yaml, the default film (issue 33, item 12): every figure its
// captions quote is the engine's for the chapter's states, and every comparison a caption makes
// (two cards, fourteen, one byte saved, just under twice, four and eight times, one and a half,
// nine times, a few percent, a third, each ZeRO stage less, every single strategy over) holds in
// the engine. The practice chapter's figures are checked in step_memory_test.cpp.
#include <algorithm>
#include <optional>
#include <string>

#include "engine/memory.hpp"
#include "engine/recompute.hpp"
#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "story/text/format.hpp"
#include "story/time/timeline.hpp"
#include "tests/catch.hpp"
#include "tests/story/chapter_fixture.hpp"

using namespace story;

namespace {

const Storyboard& film() { return chapter_test::shipped("distributed-training.yaml"); }

const ChapterSpec& chapter(const std::string& id) { return chapter_test::chapter_of(film(), id); }

std::vector<engine::Config> states(const std::string& id) {
    return Timeline(chapter(id), Video{}.fps).states();
}
engine::Report state(const std::string& id, std::size_t k) {
    return engine::analyze(states(id).at(k));
}

// Some caption of the chapter contains `text` (figures printed with an ordinary space).
void says(const std::string& id, std::string text) {
    const std::string thin = "\u2009";
    for (std::size_t at; (at = text.find(thin)) != std::string::npos;)
        text.replace(at, thin.size(), " ");
    INFO(id << ": " << text);
    const auto& beats = chapter(id).beats;
    CHECK(std::any_of(beats.begin(), beats.end(),
                      [&](const Beat& b) { return b.say.find(text) != std::string::npos; }));
}

double gb(engine::Bytes b) { return b.value / 1e9; }

}  // namespace

TEST_CASE("default film: the bytes chapter's bytes, totals and card counts", "[film][default]") {
    const engine::Report adam = state("bytes", 0);
    CHECK(adam.bytes_per_param.weights == 2);
    CHECK(adam.bytes_per_param.gradients == 2);
    CHECK(adam.bytes_per_param.optimizer == 12);
    says("bytes", "weight takes 2 bytes, and the gradient computed for it another 2");
    says("bytes", "12 bytes more");
    says("bytes", "At 16 bytes each, a 7-billion-parameter model carries " +
                      format_bytes(adam.model_states.value));
    says("bytes", "An H100 has " + format_bytes(adam.per_gpu.capacity.value));
    CHECK(adam.gpus_to_hold_model_states == 2);  // "needs two of them"
    says("bytes", "needs two of them");
    const engine::Report big = state("bytes", 1);
    CHECK(format_params(big.params) == "70B");
    CHECK(big.gpus_to_hold_model_states == 14);  // "fourteen cards' worth"
    says("bytes", "grows to " + format_bytes(big.model_states.value) + ", fourteen cards");
    const engine::Report fp8 = state("bytes", 2);
    CHECK(big.bytes_per_param.total() - fp8.bytes_per_param.total() == 1);  // "saves one byte"
    CHECK(fp8.bytes_per_param.optimizer == big.bytes_per_param.optimizer);  // "moments stay"
}

TEST_CASE("default film: the ring sends just under twice the gradients, however many cards",
          "[film][default]") {
    const engine::Report eight = state("ring", 0);
    CHECK(eight.layout.dp() == 8);  // "cut into eight chunks"
    says("ring", "eight chunks");
    const double gradients = gb(eight.per_gpu.gradients);
    CHECK(gb(eight.comm.dp_per_gpu) < 2 * gradients);
    CHECK(gb(eight.comm.dp_per_gpu) > 1.5 * gradients);
    const engine::Report sixteen = state("ring", states("ring").size() - 1);
    CHECK(sixteen.layout.dp() == 16);  // "With sixteen cards the bytes barely change"
    CHECK(gb(sixteen.comm.dp_per_gpu) / gb(eight.comm.dp_per_gpu) == Approx(1.07).epsilon(0.02));
    CHECK(sixteen.comm.dp_time > eight.comm.dp_time);  // "leaves the node for the slower network"
}

TEST_CASE("default film: ZeRO's savings near 4 and 8 times with 64 cards", "[film][default]") {
    const auto all = states("zero");
    const engine::Config& last = all.back();
    REQUIRE(last.layout.gpus == 64);
    says("zero", "With 64 cards");
    const auto saving = [&](int stage) {
        engine::Config plain = last, sharded = last;
        plain.layout.zero = 0, sharded.layout.zero = stage;
        const auto states_of = [](const engine::Config& c) {
            const engine::Report r = engine::analyze(c);
            return r.per_gpu.weights.value + r.per_gpu.gradients.value + r.per_gpu.optimizer.value;
        };
        return states_of(plain) / states_of(sharded);
    };
    CHECK(saving(1) == Approx(4).epsilon(0.05));  // "4 times for stage 1"
    CHECK(saving(2) == Approx(8).epsilon(0.1));   // "and 8 for stage 2"
    says("zero", "4 times for stage 1 and 8 for stage 2");
    CHECK(saving(3) > 40);  // "stage 3 keeps growing with the cards"
}

TEST_CASE("default film: FSDP's shards, and one and a half times DP's traffic", "[film][default]") {
    const engine::Report r = state("fsdp", 0);
    says("fsdp", format_bytes(r.model_states.value) + " for its weights, gradients and optimizer");
    says("fsdp", "One card has " + format_sig3(gb(r.per_gpu.capacity)));
    CHECK(r.layout.gpus == 8);  // "eight shards"
    says("fsdp", "so it holds only " + format_bytes(r.model_states.value / 8));
    // The chapter draws ZeRO-3 over its configuration's data-parallel cards.
    engine::Config dp = states("fsdp").front(), fsdp = dp;
    dp.layout.zero = 0, fsdp.layout.zero = 3;
    CHECK(gb(engine::analyze(fsdp).comm.dp_per_gpu) / gb(engine::analyze(dp).comm.dp_per_gpu) ==
          Approx(1.5));
    says("fsdp", "one and a half times what data parallelism sends");
    // "so the 7B fits easily on eight cards": at the expected peak, with room to spare.
    says("fsdp", "so the 7B fits easily on eight cards");
    const engine::Report sharded = engine::analyze(fsdp);
    CHECK(sharded.per_gpu.expected.total.value < 0.6 * sharded.per_gpu.capacity.value);
}

TEST_CASE("default film: NVLink nine times the network, in the tensor and interconnect chapters",
          "[film][default]") {
    for (const char* id : {"tensor", "interconnect"}) {
        const engine::Cluster c = states(id).front().cluster;  // a copy: states() is a temporary
        CHECK(c.nvlink.value / 2 / c.network.value == Approx(9));  // each direction
    }
    says("tensor", "nine times slower");
    says("interconnect", "nine times what the network does in each direction");
}

TEST_CASE("default film: the bubble's schedules and recompute's costs", "[film][default]") {
    const auto bubble = states("bubble");
    CHECK(bubble.front().training.micro_batches == 8);  // "cut into eight micro-batches"
    says("bubble", "eight micro-batches");
    std::vector<double> fractions;
    for (const engine::Config& c : bubble) fractions.push_back(engine::analyze(c).bubble_fraction);
    REQUIRE(fractions.size() >= 4);
    CHECK(fractions[1] == fractions[0]);  // 1F1B: "The bubble stays the same"
    CHECK(fractions[2] < fractions[1]);   // sixteen micro-batches: "shrinks"
    CHECK(fractions[3] < fractions[2]);   // interleaving: "shrinks again"
    // Recompute's cost as the checkpointing chapter draws it (its compute bar and "+N% compute").
    const auto ck = states("checkpointing");
    const auto extra = [&](std::size_t k) {
        return engine::recompute_compute_units(ck.at(k)).ratio() - 1;
    };
    CHECK(extra(0) == 0);
    CHECK(extra(1) < 0.1);                       // "for a few percent more compute"
    CHECK(std::abs(extra(2) - 1.0 / 3) < 0.01);  // "a third more compute"
    says("checkpointing", "for a few percent more compute");
    says("checkpointing", "a third more compute");
    // "Across all the layers they no longer fit, mostly because of the attention scores": the
    // first state overflows, and selective recompute, which drops only the scores, takes more than
    // half of each layer's activations away.
    const engine::Report kept = engine::analyze(ck.at(0));
    CHECK(kept.per_gpu.total > kept.per_gpu.capacity);
    const auto per_layer = [&](std::size_t k) {
        const engine::Config& c = ck.at(k);
        return engine::activation_bytes_per_layer(c.model, c.training, c.layout.tp).value;
    };
    CHECK(per_layer(1) < 0.5 * per_layer(0));
    says("checkpointing", "they no longer fit, mostly because of the attention scores");
}

TEST_CASE("default film: ZeRO's stages each take more off a card, and all three fit",
          "[film][default]") {
    says("summary", "each stage takes more off every card, and all three fit");
    std::optional<engine::PerGpu> before;
    for (const engine::StrategyConfig& s : engine::strategy_configs(states("summary").front())) {
        if (s.kind != engine::Strategy::zero1 && s.kind != engine::Strategy::zero2 &&
            s.kind != engine::Strategy::fsdp)
            continue;
        INFO(engine::to_string(s.kind));
        const engine::Report r = engine::analyze(s.config);
        CHECK(r.per_gpu.fits);  // at the expected peak, as the row's "Fits?" says
        if (before) {           // less on paper and at the peak
            CHECK(r.per_gpu.total < before->total);
            CHECK(r.per_gpu.expected.total < before->expected.total);
        }
        before = r.per_gpu;
    }
}

TEST_CASE("default film: at 70B every single strategy overflows, 3D fits", "[film][default]") {
    const auto all = states("summary");
    REQUIRE(format_params(engine::analyze(all.back()).params) == "70B");
    says("summary", "The same " + std::to_string(all.back().layout.gpus) + " GPUs");
    says("summary", "every single strategy overflows. Only combining them makes it fit.");
    for (const engine::StrategyConfig& s : engine::strategy_configs(all.back())) {
        INFO(engine::to_string(s.kind));
        // On paper and at the expected peak, as the row's "Fits?" judges.
        const engine::Report r = engine::analyze(s.config);
        const bool three_d = s.kind == engine::Strategy::three_d;
        CHECK((r.per_gpu.total <= r.per_gpu.capacity) == three_d);
        CHECK(r.per_gpu.fits == three_d);
    }
}

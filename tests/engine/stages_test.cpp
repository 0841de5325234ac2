// Pipeline stages as runs lay them out: Megatron-LM's even split and nanotron's split by compute
// (reproduced for the benchmark's models), and the micro-batches each stage holds, against the
// simulated schedules.
#include "engine/stages.hpp"

#include <vector>

#include "engine/memory.hpp"
#include "engine/pipeline.hpp"
#include "engine/presets.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;

namespace {

std::vector<int> layers_of(const std::vector<StageShape>& stages) {
    std::vector<int> out;
    for (const StageShape& s : stages) out.push_back(s.layers);
    return out;
}

// The benchmark's 1B and 8B (tests/data/measured/README.md): multi-head attention.
ModelSpec nanotron(int layers, int hidden, int ffn) {
    ModelSpec m;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = m.kv_heads = 32;
    m.ffn = ffn;
    m.vocab = 131072;
    m.params = parameter_count(m);
    return m;
}

}  // namespace

TEST_CASE("the even split: ceil(layers / pp) from the first stage, the ends on the ends") {
    const ModelSpec m = *find_model("llama-2-7b");
    CHECK(layers_of(stage_shapes(m, 4, StageSplit::layers)) == std::vector{8, 8, 8, 8});
    const auto three = stage_shapes(m, 3, StageSplit::layers);
    CHECK(layers_of(three) == std::vector{11, 11, 10});
    CHECK(three.front().embedding);
    CHECK_FALSE(three.front().head);
    CHECK(three.back().head);
    CHECK(head_stage(three) == 2);
    CHECK(stage_shapes(m, 1, StageSplit::compute) == std::vector{StageShape{32, true, true, true}});
}

TEST_CASE("the split by compute reproduces nanotron's build_model for the benchmark's models") {
    // A layer weighs its matrices, 4h^2 + 3h ffn; the output layer vocab x h: 4 layers' worth for
    // the 1B, 2.2 for the 8B. Hand-run nanotron's thresholds: stage s is left once the running
    // cost passes total x (s + 1) / pp.
    const ModelSpec one = nanotron(16, 2048, 8192), eight = nanotron(32, 4096, 14336);
    const auto two = stage_shapes(one, 2, StageSplit::compute);
    CHECK(layers_of(two) == std::vector{11, 5});  // 10 layers are half: the 11th passes it
    CHECK(head_stage(two) == 1);
    CHECK(layers_of(stage_shapes(one, 4, StageSplit::compute)) == std::vector{6, 5, 5, 0});
    const auto eight_stages = stage_shapes(one, 8, StageSplit::compute);
    CHECK(layers_of(eight_stages) == std::vector{3, 3, 2, 3, 2, 3, 0, 0});
    CHECK(head_stage(eight_stages) == 6);  // the last stage keeps only the fp32 cast and loss
    CHECK(eight_stages[7].loss);
    CHECK_FALSE(eight_stages[6].loss);
    // 16 stages: the output layer on stage 12 passes its share, the cast goes to stage 13 and the
    // loss to 14, and the last stage holds nothing (nanotron then sends the labels there).
    const auto sixteen = stage_shapes(one, 16, StageSplit::compute);
    CHECK(head_stage(sixteen) == 12);
    CHECK(sixteen[13].empty());
    CHECK(sixteen[14].loss);
    CHECK(sixteen[15].empty());
    CHECK(layers_of(stage_shapes(eight, 2, StageSplit::compute)) == std::vector{18, 14});
    CHECK(layers_of(stage_shapes(eight, 4, StageSplit::compute)) == std::vector{9, 9, 8, 6});
}

TEST_CASE("in_flight_on_stage is what the simulated schedules hold on every stage") {
    Training t;
    for (const Schedule kind : {Schedule::gpipe, Schedule::one_f_one_b, Schedule::zb_h1,
                                Schedule::zb_h2, Schedule::interleaved}) {
        const int v = kind == Schedule::interleaved ? 2 : 1;
        for (int p = 2; p <= 6; ++p) {
            for (int m = p; m <= 3 * p; m += p) {
                t.schedule = kind;
                t.micro_batches = m;
                t.chunks = v;
                const PipelineSchedule s = pipeline_schedule(kind, p, m, v);
                for (int stage = 0; stage < p; ++stage) {
                    INFO(to_string(kind) << " p=" << p << " m=" << m << " stage " << stage);
                    CHECK(in_flight_on_stage(t, p, stage) ==
                          Approx(s.max_in_flight(stage) / double(v)));
                }
                CHECK(in_flight_on_stage(t, p, 0) == in_flight_micro_batches(t, p));
            }
        }
    }
}

// analyze(): one call gathers the figures the film and `shardreel numbers` show.
#include "engine/report.hpp"

#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;
using engine_test::llama7b;

TEST_CASE("70B on 64 GPUs: the whiteboard numbers and the pieces they come from") {
    Config c = config_for(nominal_model(70e9), 64, 8, 2, 1);
    const Report r = analyze(c);
    CHECK(r.params == 70e9);
    CHECK(r.bytes_per_param.total() == 16);
    CHECK(r.model_states == Bytes(1120e9));
    CHECK(r.gpus_to_hold_model_states == 14);
    CHECK(r.layout == c.layout);
    CHECK(r.per_gpu == per_gpu_memory(c));
    CHECK(r.activations ==
          ActivationsReport{activation_bytes_per_layer(c.model, c.training, 8), 40, 2});
    CHECK(r.comm == comm_per_step(c));
    CHECK(r.bubble_fraction == 1.0 / 9);  // p = 2, m = 8
}

TEST_CASE("without a pipeline there is no bubble") {
    const Report r = analyze(llama7b(8));
    CHECK(r.bubble_fraction == 0);
    CHECK(r.activations == ActivationsReport{Bytes(570'425'344), 32, 1});
    CHECK(r.gpus_to_hold_model_states == 2);  // 107.8 GB of states on 80 GB cards
}

TEST_CASE("interleaved schedules report the smaller bubble") {
    Config c = llama7b(8, 1, 4);
    c.training.schedule = Schedule::interleaved;
    c.training.chunks = 2;
    CHECK(analyze(c).bubble_fraction == 3.0 / 19);
}

// validate(): each problem named with its values and a suggested fix.
#include "engine/problem.hpp"
#include "engine_fixtures.hpp"
#include "tests/catch.hpp"

using namespace engine;
using engine_test::config_for;
using engine_test::llama7b;
using Messages = std::vector<std::string>;

TEST_CASE("usable configurations have no problems") {
    CHECK(validate(llama7b(8)).empty());
    CHECK(validate(llama7b(64, 8, 4, 1)).empty());
}

TEST_CASE("tp x pp must divide the GPUs") {
    CHECK(validate(llama7b(8, 2, 3)) ==
          Messages{"tp x pp = 6 does not divide 8 GPUs (try tp=2, pp=4)"});
    // tp=8 does not divide 12; the suggestion also divides the 32 heads.
    CHECK(validate(llama7b(12, 8, 1)) ==
          Messages{"tp x pp = 8 does not divide 12 GPUs (try tp=4, pp=1)"});
}

TEST_CASE("a problem is its template and named arguments, the English text filled in") {
    const std::vector<Problem> problems = problems_of(llama7b(8, 2, 3));
    REQUIRE(problems.size() == 1);
    CHECK(std::string(problems[0].format) ==
          "tp x pp = {product} does not divide {gpus} GPUs (try tp={tp}, pp={pp})");
    CHECK(problems[0].args ==
          std::vector<ProblemArg>{
              {"product", "6", true}, {"gpus", "8", true}, {"tp", "2", true}, {"pp", "4", true}});
    Config c = llama7b(8);
    c.model.name = "llama-2-7b";
    c.layout.ep = 2;
    const std::vector<Problem> named = problems_of(c);
    REQUIRE(named.size() == 1);
    CHECK(named[0].format == problem_format(Msg::ep_no_experts_named));
    CHECK(named[0].args[1] == ProblemArg{"model", "llama-2-7b", false});  // a name, not a number
    // A mark without an argument stays; an argument's text is not searched for marks.
    CHECK(english({"{a} and {b}", {{"a", "{b}", false}}}) == "{b} and {b}");
}

TEST_CASE("sizes below one are reported without dividing by them") {
    CHECK(validate(llama7b(0)) == Messages{"gpus = 0 must be at least 1"});
    CHECK(validate(llama7b(8, 0)) == Messages{"tp = 0 must be at least 1"});
    Config c = llama7b(8);
    c.model.heads = 0;
    c.training.micro_batches = 0;
    CHECK(validate(c) ==
          Messages{"heads = 0 must be at least 1", "micro_batches = 0 must be at least 1"});
}

TEST_CASE("heads must split evenly across tensor-parallel ranks") {
    Config c = config_for(*find_model("llama-2-70b"), 48, 16, 1);  // 64 heads, 8 kv heads
    CHECK(validate(c) == Messages{"kv_heads = 8 is not divisible by tp = 16 (try tp=8)"});
    // The suggestion also divides the GPUs: on 6 GPUs tp=4 would be the next error.
    c = llama7b(6, 3);
    CHECK(validate(c) == Messages{"heads = 32 is not divisible by tp = 3 (try tp=2)",
                                  "kv_heads = 32 is not divisible by tp = 3 (try tp=2)"});
    c = llama7b(8, 8);
    c.model.heads = c.model.kv_heads = 12;
    c.model.hidden = 2040;
    CHECK(validate(c) == Messages{"heads = 12 is not divisible by tp = 8 (try tp=4)",
                                  "kv_heads = 12 is not divisible by tp = 8 (try tp=4)"});
    c = llama7b(8);
    c.model.heads = 48;
    c.model.kv_heads = 48;
    CHECK(validate(c) == Messages{"hidden = 4096 is not divisible by heads = 48 (try heads=64)"});
    c.model.heads = 32;
    c.model.kv_heads = 12;
    CHECK(validate(c) ==
          Messages{"heads = 32 is not divisible by kv_heads = 12 (try kv_heads=16)"});
}

TEST_CASE("ZeRO stage and pipeline depth") {
    CHECK(validate(llama7b(8, 1, 1, 4)) ==
          Messages{"zero = 4 is not a ZeRO stage (use 0, 1, 2 or 3)"});
    CHECK(validate(llama7b(64, 1, 64)) ==
          Messages{"layers = 32 is fewer than pp = 64 pipeline stages (use pp <= 32)"});
}

// DeepSeek-V3 report, 3.2.1, and deepseek-ai/DualPipe's asserts: pp even, micro-batches even
// and at least 2 pp.
TEST_CASE("the dualpipe schedule needs an even pp and an even number of micro-batches >= 2 pp") {
    Config c = llama7b(6, 1, 3);
    c.training.schedule = Schedule::dualpipe;
    c.training.micro_batches = 5;
    CHECK(validate(c) == Messages{"the dualpipe schedule needs an even pp (stage s shares a GPU "
                                  "with stage pp-1-s): pp = 3 (try pp=4)",
                                  "the dualpipe schedule needs micro_batches even and at least 2 "
                                  "x pp: 5 micro-batches, pp = 3 (try micro_batches=6)"});
    c = llama7b(8, 2, 4);
    c.training.schedule = Schedule::dualpipe;
    c.training.micro_batches = 9;
    CHECK(validate(c) == Messages{"the dualpipe schedule needs micro_batches even and at least 2 "
                                  "x pp: 9 micro-batches, pp = 4 (try micro_batches=10)"});
    c.training.micro_batches = 8;
    CHECK(validate(c).empty());
    c.training.schedule = Schedule::zb_h2;  // the zero-bubble schedules take any m
    c.training.micro_batches = 3;
    CHECK(validate(c).empty());
}

TEST_CASE("the interleaved schedule needs even layer blocks and whole groups of micro-batches") {
    Config c = llama7b(8, 2, 4);
    c.training.schedule = Schedule::interleaved;
    c.training.chunks = 3;
    c.training.micro_batches = 6;
    CHECK(validate(c) ==
          Messages{"the interleaved schedule needs layers divisible by pp x chunks: 32 layers, "
                   "pp x chunks = 12 (try chunks=4)",
                   "the interleaved schedule needs micro_batches a multiple of pp: "
                   "6 micro-batches, pp = 4 (try micro_batches=8)"});
    c.training.chunks = 2;
    c.training.micro_batches = 8;
    CHECK(validate(c).empty());
}

TEST_CASE("training sizes and link bandwidths") {
    Config c = llama7b(8);
    c.training.seq_len = 0;
    c.training.micro_batch = -1;
    c.cluster.nvlink = BytesPerSecond(0);
    c.cluster.network = BytesPerSecond(-5);
    CHECK(validate(c) == Messages{"seq_len = 0 must be at least 1",
                                  "micro_batch = -1 must be at least 1",
                                  "nvlink bandwidth must be positive (got 0 B/s)",
                                  "network bandwidth must be positive (got -5 B/s)"});
    c = llama7b(8);
    c.model.params = 0;
    CHECK(validate(c) == Messages{"params must be positive (got 0)"});
}

TEST_CASE("a split by compute that leaves the last stage without a block is refused") {
    Config c = engine_test::config_for(engine_test::nanotron_model("1B"), 128, 1, 16);
    c.layout.pipeline_split = StageSplit::compute;
    const auto problems = validate(c);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0] ==
          "pipeline_split = compute leaves the last of pp = 16 stages without a block: the loss "
          "lands before it, and the labels are sent to a stage without the loss (use pp=8, or "
          "pipeline_split = layers)");
    c.layout.pipeline_split = StageSplit::layers;  // one layer a stage
    CHECK(validate(c).empty());
    c.layout.pipeline_split = StageSplit::compute;
    c.layout.pp = 8;  // the cast and loss on the last stage
    CHECK(validate(c).empty());
}

// The side-by-side layouts: every one valid on the same GPUs, TP inside a node, 3D fitting.
#include "engine/strategies.hpp"

#include "engine/memory.hpp"
#include "engine_fixtures.hpp"

using namespace engine;

TEST_CASE("strategy layouts for a 70B model on four nodes of eight") {
    Config base = engine_test::config_for(*find_model("llama-2-70b"), 32);
    const auto rows = strategy_configs(base);
    REQUIRE(rows.size() == 7);
    for (const StrategyConfig& r : rows) {
        CHECK(validate(r.config).empty());
        CHECK(r.config.layout.gpus == 32);
        CHECK(r.config.model == base.model);
    }
    CHECK(rows[0].config.layout == Parallel{32, 1, 1, 0});
    CHECK(rows[1].config.layout == Parallel{32, 1, 1, 1});
    CHECK(rows[2].config.layout == Parallel{32, 1, 1, 2});
    CHECK(rows[3].config.layout == Parallel{32, 1, 1, 3});
    CHECK(rows[4].config.layout == Parallel{32, 8, 1, 0});   // 64 heads, 8 kv heads: tp 8
    CHECK(rows[5].config.layout == Parallel{32, 1, 32, 0});  // 80 layers: 32 stages
    // 3D: tp 8 in the node, the smallest pipeline that fits, data parallel over the rest.
    const Parallel d3 = rows[6].config.layout;
    CHECK(d3.tp == 8);
    CHECK(d3.pp >= 2);
    CHECK(per_gpu_memory(rows[6].config).fits);
    // ZeRO-1 where there are replicas to shard the optimizer over; on 32 GPUs the pipeline
    // takes them all, and the row names no stage that would do nothing.
    CHECK(d3.replicas() == 1);
    CHECK(d3.zero == 0);
    if (d3.pp > 2) {
        Config fewer = rows[6].config;
        fewer.layout.pp = d3.pp / 2;
        CHECK_FALSE(per_gpu_memory(fewer).fits);
    }
}

TEST_CASE("the 3D row shards the optimizer over its replicas") {
    const Config base = engine_test::config_for(*find_model("llama-2-70b"), 128);
    const Parallel d3 = strategy_configs(base)[6].config.layout;
    CHECK(d3.replicas() > 1);
    CHECK(d3.zero == 1);
}

TEST_CASE("the 3D row keeps the base's context- and expert-parallel degrees") {
    Config base = engine_test::config_for(*find_model("mixtral-8x7b"), 64);
    base.training.seq_len = 16384;
    base.layout.cp = 2;
    base.layout.ep = 2;
    REQUIRE(engine_test::problems(base).empty());
    const auto rows = strategy_configs(base);
    const Parallel d3 = rows[6].config.layout;
    CHECK(d3.cp == 2);
    CHECK(d3.ep == 2);
    CHECK(validate(rows[6].config).empty());
    CHECK(d3.dp() * d3.tp * d3.pp * d3.cp == 64);
    for (int i = 0; i < 6; ++i) {
        CHECK(rows[i].config.layout.cp == 1);
        CHECK(rows[i].config.layout.ep == 1);
    }
    // A cp that no longer divides what tensor parallelism leaves is dropped, not forced.
    base.layout.cp = 16;
    base.layout.ep = 1;
    REQUIRE(node_tp_degree(base) == 8);                      // 8 key/value heads
    CHECK(strategy_configs(base)[6].config.layout.cp == 1);  // 64 GPUs over tp 8 x cp 16: no
}

TEST_CASE("node TP degree divides the heads and the node") {
    Config c = engine_test::llama7b(8);
    CHECK(node_tp_degree(c) == 8);
    c.model.heads = 12;
    c.model.kv_heads = 12;
    c.model.hidden = 768;
    CHECK(node_tp_degree(c) == 4);
    CHECK(node_tp_degree(engine_test::llama7b(1)) == 1);
}

TEST_CASE("pipeline stages never exceed the layers") {
    const Config c = engine_test::llama7b(64);  // 32 layers
    CHECK(strategy_configs(c)[5].config.layout.pp == 32);
    CHECK(strategy_configs(c)[5].config.layout.dp() == 2);
}

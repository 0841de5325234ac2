// Pipeline schedules: dependencies hold, no stage overlaps itself, and the measured bubble equals
// the published formulas exactly.
#include "engine/pipeline.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <tuple>

#include "engine/memory.hpp"

using namespace engine;

namespace {

using SlotKey = std::tuple<bool, int, int>;  // backward, virtual stage, micro-batch

void check_valid(const PipelineSchedule& s) {
    const int p = s.stages, v = s.chunks;
    REQUIRE(int(s.slots.size()) == 2 * p * s.micro_batches * v);
    std::map<SlotKey, PipelineSlot> by_key;
    std::vector<int> stage_free(p, 0);
    for (const PipelineSlot& slot : s.slots) {  // sorted by start
        CHECK(slot.start >= stage_free[slot.stage]);
        stage_free[slot.stage] = slot.start + slot.duration;
        CHECK(slot.duration == (slot.backward ? 2 : 1));
        const bool fresh =
            by_key
                .emplace(SlotKey{slot.backward, slot.chunk * p + slot.stage, slot.micro_batch},
                         slot)
                .second;
        CHECK(fresh);
    }
    const auto end = [&](bool bw, int k, int mb) {
        const PipelineSlot& d = by_key.at({bw, k, mb});
        return d.start + d.duration;
    };
    for (const auto& [key, slot] : by_key) {
        const auto [backward, k, mb] = key;
        if (!backward && k > 0) CHECK(slot.start >= end(false, k - 1, mb));
        if (backward) CHECK(slot.start >= end(false, k, mb));
        if (backward && k < p * v - 1) CHECK(slot.start >= end(true, k + 1, mb));
    }
}

}  // namespace

TEST_CASE("GPipe and 1F1B: valid, bubble (p-1)/(m+p-1) exactly, in-flight micro-batches") {
    for (Schedule kind : {Schedule::gpipe, Schedule::one_f_one_b}) {
        for (int p = 1; p <= 8; ++p) {
            for (int m = 1; m <= 12; ++m) {
                INFO(to_string(kind) << " p=" << p << " m=" << m);
                const PipelineSchedule s = pipeline_schedule(kind, p, m);
                check_valid(s);
                CHECK(s.makespan() == 3 * (m + p - 1));
                CHECK(s.idle_fraction() == bubble_fraction(p, m));
                CHECK(s.idle_fraction() == bubble_fraction(kind, p, m, 1));
                CHECK(s.max_in_flight(0) == (kind == Schedule::gpipe ? m : std::min(m, p)));
            }
        }
    }
}

TEST_CASE("interleaved 1F1B: bubble (p-1)/(v m + p-1), (p-1)/(v m) of the ideal time") {
    for (int p = 1; p <= 6; ++p) {
        for (int v = 1; v <= 4; ++v) {
            for (int m = p; m <= 3 * p; m += p) {
                INFO("p=" << p << " v=" << v << " m=" << m);
                const PipelineSchedule s = pipeline_schedule(Schedule::interleaved, p, m, v);
                check_valid(s);
                CHECK(s.chunks == v);
                CHECK(s.idle_fraction() == bubble_fraction(Schedule::interleaved, p, m, v));
                const int ideal = 3 * v * m;  // one GPU's own work, in chunk-forward units
                CHECK(double(s.makespan() - ideal) / ideal ==
                      interleaved_bubble_over_ideal(p, m, v));
                // The memory model's in-flight count is what the schedule holds on stage 0.
                Training t;
                t.schedule = Schedule::interleaved;
                t.micro_batches = m;
                t.chunks = v;
                CHECK(in_flight_micro_batches(t, p) == Approx(s.max_in_flight(0) / double(v)));
            }
        }
    }
}

TEST_CASE("GPipe with two stages and two micro-batches, slot by slot") {
    const PipelineSchedule s = pipeline_schedule(Schedule::gpipe, 2, 2);
    const std::vector<PipelineSlot> expected = {
        {0, 0, 0, false, 0, 1}, {0, 1, 0, false, 1, 1}, {1, 0, 0, false, 1, 1},
        {1, 1, 0, false, 2, 1}, {1, 0, 0, true, 3, 2},  {0, 0, 0, true, 5, 2},
        {1, 1, 0, true, 5, 2},  {0, 1, 0, true, 7, 2},
    };
    CHECK(s.slots == expected);
    CHECK(s.makespan() == 9);
    CHECK(s.idle_fraction() == 1.0 / 3);
}

TEST_CASE("bubble formulas") {
    CHECK(bubble_fraction(4, 8) == 3.0 / 11);
    CHECK(bubble_fraction(1, 8) == 0);
    CHECK(bubble_fraction(Schedule::interleaved, 4, 8, 2) == 3.0 / 19);
    CHECK(interleaved_bubble_over_ideal(4, 8, 2) == 3.0 / 16);
}

TEST_CASE("schedule names round-trip") {
    for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved}) {
        CHECK(parse_schedule(to_string(s)) == s);
    }
    CHECK(to_string(Schedule::one_f_one_b) == "1f1b");
    CHECK_FALSE(parse_schedule("1F1B").has_value());
    for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
        CHECK(parse_recompute(to_string(r)) == r);
    }
    CHECK_FALSE(parse_recompute("partial").has_value());
}

// The memory gauge's overflow: linear up to its cap, or on a log scale that keeps rows far over
// capacity in order (the summary's DP, ZeRO-1 and ZeRO-2 rows at 70B: 1,210, 398, 262 GB).
#include "story/vocab/cluster_vocab.hpp"
#include "tests/catch.hpp"

using namespace story;

TEST_CASE("memory gauge spills: linear and capped, or log-scaled in the order of the overflow",
          "[vocab]") {
    GaugeSpec linear{{0, 0, 300, 28}, 80e9, {}, 90};
    CHECK(spill_width(linear, 0) == 0);
    CHECK(spill_width(linear, 8e9) == Approx(30));
    CHECK(spill_width(linear, 1130e9) == 90);  // capped: every large overflow looks the same

    GaugeSpec log = linear;
    log.max_spill = 180;
    log.spill_full = 1130e9 / 80e9;
    const double dp = spill_width(log, 1130e9), zero1 = spill_width(log, 318e9),
                 zero2 = spill_width(log, 182e9), tp = spill_width(log, 94.9e9),
                 fsdp = spill_width(log, 46.3e9), pp = spill_width(log, 4.81e9);
    CHECK(dp == Approx(180));
    CHECK(dp > zero1);
    CHECK(zero1 > zero2);
    CHECK(zero2 > tp);
    CHECK(tp > fsdp);
    CHECK(fsdp > pp);
    CHECK(pp >= 6);                                  // a few GB over is still seen
    CHECK(spill_width(log, 5000e9) == Approx(180));  // never past max_spill
}

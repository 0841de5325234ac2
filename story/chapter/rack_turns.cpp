// layout_3d's turns; see rack_turns.hpp.
#include "story/chapter/rack_turns.hpp"

#include <iterator>
#include <string_view>

namespace story {

namespace {

using Focus = RackFocus;
// In seconds of the default duration (24 s).
constexpr RackTurn kTurns[] = {
    {0, Focus::none},        {4.0, Focus::tp, "tp"},        {9.0, Focus::pp, "pp"},
    {13.5, Focus::dp, "dp"}, {18.0, Focus::tp, "tp_again"}, {21.5, Focus::dp, "dp_again"}};
// With context- or expert-parallel groups, the turns share [kAxesFrom, kAxesTo) evenly; the last
// one stays to the end.
constexpr double kAxesFrom = 3.5, kAxesTo = 22.0;

const char* focus_name(Focus f) {
    switch (f) {
        case Focus::tp:
            return "tp";
        case Focus::cp:
            return "cp";
        case Focus::pp:
            return "pp";
        case Focus::dp:
            return "dp";
        case Focus::ep:
            return "ep";
        default:
            return "";
    }
}

std::vector<RackTurn> turns_for(bool cp, bool ep) {
    if (!cp && !ep) return {std::begin(kTurns), std::end(kTurns)};
    std::vector<Focus> axes{Focus::tp};
    if (cp) axes.push_back(Focus::cp);
    axes.insert(axes.end(), {Focus::pp, Focus::dp});
    if (ep) axes.push_back(Focus::ep);
    std::vector<RackTurn> out{{0, Focus::none}};
    const double turn = (kAxesTo - kAxesFrom) / static_cast<double>(axes.size());
    for (std::size_t i = 0; i < axes.size(); ++i)
        out.push_back({kAxesFrom + i * turn, axes[i], focus_name(axes[i])});
    return out;
}

Phase phase_of(const RackTurn& t) {
    const bool again = std::string_view(t.name).ends_with("_again");
    switch (t.focus) {
        case Focus::tp:
            return {t.name, t.start,
                    again ? "tensor-parallel groups again, re-sliced (no cp, ep)"
                          : "tensor-parallel groups in turn, on NVLink"};
        case Focus::cp:
            return {t.name, t.start, "context-parallel groups in turn (cp > 1)"};
        case Focus::pp:
            return {t.name, t.start, "the pipeline stages of a replica in turn"};
        case Focus::dp:
            return {t.name, t.start,
                    again ? "the replicas again (no cp, ep)" : "the replicas in turn"};
        default:
            return {t.name, t.start, "expert-parallel groups in turn (ep > 1)"};
    }
}

std::vector<Phase> phases(const std::vector<RackTurn>& turns) {
    std::vector<Phase> out;
    for (std::size_t i = 0; i < turns.size(); ++i)
        if (turns[i].focus != Focus::none) out.push_back(phase_of(turns[i]));
    return out;
}

}  // namespace

std::vector<RackTurn> rack_turns(const std::vector<engine::Config>& states) {
    bool cp = false, ep = false;
    for (const engine::Config& c : states) {
        cp = cp || c.layout.cp > 1;
        ep = ep || c.layout.ep > 1;
    }
    return turns_for(cp, ep);
}

std::vector<Phase> rack_turn_phases(const std::vector<engine::Config>& states) {
    return phases(rack_turns(states));
}

std::vector<Phase> rack_turn_phases() {
    // Each name where it first comes: the 3D rack's turns with cp after tp and ep after dp, as a
    // rack with both turns to them.
    const std::vector<Phase> plain = phases(turns_for(false, false));
    const std::vector<Phase> both = phases(turns_for(true, true));
    return {plain[0], both[1], plain[1], plain[2], both[4], plain[3], plain[4]};
}

bool turned_to(const std::vector<RackTurn>& turns, int upto, RackFocus f) {
    for (int k = 0; k <= upto && k < static_cast<int>(turns.size()); ++k)
        if (turns[k].focus == f) return true;
    return false;
}

}  // namespace story

// Rank groups, card tags, group colours and the axes' legend; see rack_vocab.hpp.
#include "story/rack_vocab.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace story {

std::vector<std::vector<int>> rank_groups(const engine::Layout3D& l, RackFocus f, int shown) {
    std::map<std::array<int, 4>, std::size_t> index;
    std::vector<std::vector<int>> out;
    for (int r = 0; r < std::min(l.gpus, shown); ++r) {
        const engine::RankPlace& p = l.ranks[r];
        std::array<int, 4> key{p.dp, -1, -1, -1};
        if (f == RackFocus::tp) key = {p.dp, p.pp, p.cp, -1};
        if (f == RackFocus::cp) key = {p.dp, p.pp, p.tp, -1};
        if (f == RackFocus::ep) key = {p.dp / l.ep, p.pp, p.cp, p.tp};
        const auto [it, fresh] = index.emplace(key, out.size());
        if (fresh) out.emplace_back();
        out[it->second].push_back(r);
    }
    return out;
}

std::vector<std::pair<RackFocus, std::string>> rank_tags(const engine::Layout3D& l,
                                                         const engine::RankPlace& p) {
    std::vector<std::pair<RackFocus, std::string>> out{
        {RackFocus::tp, "TP rank " + std::to_string(p.tp)}};
    if (l.cp > 1) out.push_back({RackFocus::cp, "CP rank " + std::to_string(p.cp)});
    out.push_back({RackFocus::pp, "stage " + std::to_string(p.pp)});
    out.push_back({RackFocus::dp, "replica " + std::to_string(p.dp)});
    if (l.ep > 1) out.push_back({RackFocus::ep, "EP rank " + std::to_string(p.dp % l.ep)});
    return out;
}

Color group_color(const Palette& p, RackFocus f) {
    return f == RackFocus::cp ? p.cp_group : f == RackFocus::ep ? p.ep_group : p.text;
}

std::vector<LegendEntry> axes_legend(const Palette& p, const engine::Layout3D& l) {
    struct Axis {
        const char* name;
        int degree;
        engine::RankGroup group;
        RackFocus focus;
    };
    const Axis axes[] = {{"tp", l.tp, engine::RankGroup::tp, RackFocus::tp},
                         {"cp", l.cp, engine::RankGroup::cp, RackFocus::cp},
                         {"pp", l.pp, engine::RankGroup::pp, RackFocus::pp},
                         {"dp", l.dp, engine::RankGroup::dp, RackFocus::dp},
                         {"ep", l.ep, engine::RankGroup::ep, RackFocus::ep}};
    std::vector<LegendEntry> out;
    for (const Axis& a : axes)
        if (a.degree > 1)
            out.push_back({std::string(a.name) + " " + std::to_string(a.degree) + " · " +
                               (l.within_node(a.group) ? "NVLink" : "network"),
                           group_color(p, a.focus)});
    return out;
}

}  // namespace story

// Rank groups, card tags, group colours and the axes' legend; see rack_vocab.hpp.
#include "story/vocab/rack_vocab.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "engine/interconnect.hpp"

namespace story {

std::vector<engine::Layout3D> layouts_of(const std::vector<engine::Config>& states) {
    std::vector<engine::Layout3D> out;
    for (const engine::Config& c : states) out.push_back(engine::layout_3d(c));
    return out;
}

int most_gpus(const std::vector<engine::Config>& states) {
    int most = 1;
    for (const engine::Config& c : states) most = std::max(most, c.layout.gpus);
    return most;
}

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
                                                         const engine::RankPlace& p,
                                                         const Locale& locale, bool brief) {
    struct Tag {
        RackFocus focus;
        bool shown;
        const char *full, *short_form;
        int rank;
    };
    const Tag tags[] = {{RackFocus::tp, true, N_("TP rank {n}"), N_("TP {n}"), p.tp},
                        {RackFocus::cp, l.cp > 1, N_("CP rank {n}"), N_("CP {n}"), p.cp},
                        {RackFocus::pp, true, N_("stage {n}"), N_("stage {n}"), p.pp},
                        {RackFocus::dp, true, N_("replica {n}"), N_("replica {n}"), p.dp},
                        {RackFocus::ep, l.ep > 1, N_("EP rank {n}"), N_("EP {n}"), p.dp % l.ep}};
    std::vector<std::pair<RackFocus, std::string>> out;
    for (const Tag& t : tags)
        if (t.shown)
            out.push_back({t.focus, locale.tr(brief ? t.short_form : t.full, {{"n", t.rank}})});
    return out;
}

double widest_tag(const std::vector<engine::Layout3D>& layouts, int shown, const Locale& locale,
                  const TextMetrics& metrics, const TextStyle& style) {
    double widest = 0;
    for (const engine::Layout3D& l : layouts)
        for (int r = 0; r < std::min(l.gpus, shown); ++r)
            for (const auto& [kind, text] : rank_tags(l, l.ranks[r], locale))
                widest = std::max(widest, metrics.measure(text, style).advance);
    return widest;
}

Box rack_loaf_box(const Box& card, double bottom) {
    return {card.right() - kRackLoafRight - kRackLoafW, card.y + kRackLoafTop, kRackLoafW,
            card.h - kRackLoafTop - bottom - kRackLoafGap};
}

bool rack_loaf_fits(const Box& card, double pad, double text) {
    return pad + text + kRackLoafGap + kRackLoafW + kRackLoafRight <= card.w;
}

Color group_color(const Palette& p, RackFocus f) {
    return f == RackFocus::cp ? p.cp_group : f == RackFocus::ep ? p.ep_group : p.text;
}

std::string rack_network_name(const engine::Cluster& c, const Locale& locale) {
    return engine::infiniband_generation(c.network).empty() ? locale.tr("network") : "InfiniBand";
}

std::vector<LegendEntry> axes_legend(const Palette& p, const Locale& locale,
                                     const engine::Layout3D& l, const engine::Cluster& cluster) {
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
            out.push_back({locale.tr(l.within_node(a.group) ? N_("{axis} {n} · NVLink")
                                                            : N_("{axis} {n} · {network}"),
                                     {{"axis", a.name},
                                      {"n", a.degree},
                                      {"network", rack_network_name(cluster, locale)}}),
                           group_color(p, a.focus)});
    return out;
}

Rect group_outline(const Box& box, Color color) { return outline(box, 12, color, 2); }

Point group_label_at(const Box& outline) { return {outline.x + 8, outline.y - 9}; }

const char* group_name(RackFocus f) {
    switch (f) {
        case RackFocus::tp:
            return N_("TP group {n}");
        case RackFocus::cp:
            return N_("CP group {n}");
        case RackFocus::ep:
            return N_("EP group {n}");
        default:
            return N_("replica {n}");
    }
}

}  // namespace story

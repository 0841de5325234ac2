// explore:; see explore.hpp.
#include "story/load/explore.hpp"

#include <algorithm>
#include <optional>

#include "story/storyboard/settings.hpp"

namespace story::load {
namespace {

std::optional<std::string> explore_value(Context& ctx, const std::string& key, const yaml::Node& v,
                                         const KindInfo* kind, const engine::Config& config,
                                         const std::vector<std::string>& values) {
    if (!v.is_scalar()) {
        ctx.error(v, "expected a value of '" + key + "' in explore:, got " + describe(v));
        return std::nullopt;
    }
    engine::Config c = config;
    if (auto problem = apply_setting(c, key, v.text)) {
        ctx.error(v, "explore: " + *problem);
        return std::nullopt;
    }
    if (std::ranges::count(values, v.text)) {
        ctx.error(v, "'" + v.text + "' is already among explore: " + key + "'s values");
        return std::nullopt;
    }
    for (const std::string& problem : config_problems(c, kind)) {
        ctx.error(
            v, "explore: " + key + ": " + v.text + " gives an invalid configuration: " + problem);
        return std::nullopt;
    }
    return v.text;
}

std::optional<ExploreParam> explore_param(Context& ctx, const Entry& item, const KindInfo* kind,
                                          const engine::Config& config,
                                          const std::vector<ExploreParam>& seen) {
    if (!item.key->is_scalar()) {
        ctx.error(*item.key, "expected a parameter name, got " + describe(*item.key));
        return std::nullopt;
    }
    const std::string& key = item.key->text;
    if (kind && !contains(kind->settable, key)) {
        ctx.error(*item.key, missing_parameter(*kind, key));
        return std::nullopt;
    }
    if (std::ranges::count(seen, key, &ExploreParam::key)) {
        ctx.error(*item.key, "duplicate key '" + key + "' in explore:");
        return std::nullopt;
    }
    if (!item.value->is_sequence() || item.value->size() == 0) {
        ctx.error(*item.value,
                  "expected a list of values for 'explore: " + key + "', got " +
                      (item.value->is_sequence() ? "an empty list" : describe(*item.value)) +
                      " (e.g. " + key + ": [1, 2, 4, 8])");
        return std::nullopt;
    }
    ExploreParam p{key, {}, item.key->pos};
    for (const yaml::Node* v : item.value->items) {
        if (auto value = explore_value(ctx, key, *v, kind, config, p.values))
            p.values.push_back(*value);
    }
    return p.values.empty() ? std::nullopt : std::optional(std::move(p));
}

}  // namespace

std::vector<ExploreParam> read_explore(Context& ctx, const Entry& e, const KindInfo* kind,
                                       const engine::Config& config) {
    std::vector<ExploreParam> out;
    if (!e.value->is_map() || e.value->size() == 0) {
        ctx.error(*e.value,
                  "expected a map of parameters to their values for 'explore' (e.g. "
                  "explore: {micro_batches: [1, 2, 4, 8]}), got " +
                      describe(*e.value));
        return out;
    }
    long long variants = 1;
    for (const Entry& item : e.value->entries) {
        if (auto p = explore_param(ctx, item, kind, config, out)) {
            variants *= static_cast<long long>(p->values.size());
            out.push_back(std::move(*p));
        }
    }
    if (variants > limits::kMaxExploreVariants)
        ctx.error(*e.key, "explore: gives " + std::to_string(variants) +
                              " combinations, more than the " +
                              std::to_string(limits::kMaxExploreVariants) +
                              " a page pre-renders (offer fewer values)");
    return out;
}

}  // namespace story::load

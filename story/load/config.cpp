// The configuration sections and the model map; see config.hpp.
#include "story/load/config.hpp"

#include <cstdio>

#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"

namespace story::load {
namespace {

std::string format_count(double count) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", count);
    return text;
}

bool params(Context& ctx, const Entry& e, engine::ModelSpec& m) {
    auto s = scalar(ctx, e);
    if (!s) return false;
    auto count = parse_count(*s);
    if (!count) {
        ctx.error(*e.value, unit_error(*s, Quantity::count));
        return false;
    }
    if (auto problem = params_problem(*count, *s)) {
        ctx.error(*e.value, engine::english(*problem));
        return false;
    }
    m.params = *count;
    return true;
}

// The shape's numbers; false when one is missing or wrong.
bool model_numbers(Context& ctx, const Entries& fields, engine::ModelSpec& m) {
    bool complete = true;
    auto read = [&](limits::Bound bound, int fallback) {
        const Entry* f = find(fields, std::string(bound.key));
        auto v = f ? integer(ctx, *f, bound) : std::optional<long long>(fallback);
        complete = complete && v.has_value();
        return static_cast<int>(v.value_or(fallback));
    };
    using limits::whole_number;
    m.layers = read(whole_number("layers"), 0);
    m.hidden = read(whole_number("hidden"), 0);
    m.heads = read(whole_number("heads"), 0);
    m.kv_heads = read(whole_number("kv_heads"), m.heads);
    m.ffn = read(whole_number("ffn"), 4 * m.hidden);
    m.vocab = read(whole_number("vocab"), 32000);
    m.experts = read(whole_number("experts"), 0);
    m.top_k = read(whole_number("top_k"), 0);
    m.shared_experts = read(whole_number("shared_experts"), 0);
    m.dense_layers = read(whole_number("dense_layers"), 0);
    m.dense_ffn = m.dense_layers > 0 ? read(whole_number("dense_ffn"), m.ffn) : 0;
    return complete;
}

// {name, arch, params, layers, hidden, heads, kv_heads, ffn, vocab, experts, top_k, shared_experts,
// dense_layers, dense_ffn}; engine::validate checks the shape (top_k within the experts).
std::optional<engine::ModelSpec> model_map(Context& ctx, const Entry& e, const std::string& where) {
    const Entries fields = entries(ctx, *e.value, kModelKeys, where);
    bool complete = true;
    for (const std::string& required : kModelRequired) {
        if (find(fields, required)) continue;
        ctx.error(*e.value, "missing required key '" + required + "' for 'model' " + where);
        complete = false;
    }
    engine::ModelSpec m;
    m.name = "custom";
    if (const Entry* f = find(fields, "name")) m.name = text(ctx, *f).value_or(m.name);
    if (const Entry* f = find(fields, "arch"))
        keyword(ctx, *f, limits::choice("arch"), engine::parse_arch, m.arch);
    m.dropout = engine::dropout_of(m.arch);  // the blocks' own; a `dropout:` setting says otherwise
    complete = model_numbers(ctx, fields, m) && complete;
    // No learned position table (context 0: configure.cpp).
    m.params = engine::parameter_count(m);
    if (const Entry* f = find(fields, "params")) {
        complete = params(ctx, *f, m) && complete;
    } else if (complete) {
        // The count a shape implies must be in range too (reported, like every error, at once).
        if (auto problem = shape_params_problem(m.params, format_count(m.params)))
            ctx.error(*e.value, engine::english(*problem));
    }
    return complete ? std::optional(m) : std::nullopt;
}

void model(Context& ctx, const Entry& e, const std::string& where, ConfigLayer& layer) {
    if (e.value->is_map()) {
        layer.shape = model_map(ctx, e, where);
    } else if (auto value = scalar(ctx, e)) {
        layer.settings.emplace_back(Setting{"model", *value, e.key->pos, e.value->pos}, found(ctx));
    }
}

void section(Context& ctx, const Entry& e, const Keys& keys, const std::string& where,
             ConfigLayer& layer) {
    auto fields = map_of(ctx, e, keys, where);
    if (!fields) return;
    for (const std::string& key : keys) {
        const Entry* f = find(*fields, key);
        if (auto value = f ? scalar(ctx, *f) : std::nullopt)
            layer.settings.emplace_back(Setting{key, *value, f->key->pos, f->value->pos},
                                        found(ctx));
    }
}

}  // namespace

// model, then each section in turn; `parallel: plan` is only recorded, as the planner needs
// everything else.
ConfigLayer read_config(Context& ctx, const Entries& fields, const std::string& where) {
    ConfigLayer layer;
    if (const Entry* m = find(fields, "model")) model(ctx, *m, where, layer);
    for (const Section& s : kSections) {
        const Entry* e = find(fields, s.name);
        if (e && s.keys == &kParallelKeys && e->value->is("plan"))
            layer.plan = e->value->pos;
        else if (e)
            section(ctx, *e, *s.keys, where, layer);
    }
    layer.end = found(ctx);
    return layer;
}

ConfigLayer read_defaults(Context& ctx, const Entry& e) {
    auto fields = map_of(ctx, e, kDefaultsKeys, "in defaults");
    return fields ? read_config(ctx, *fields, "in defaults") : ConfigLayer{};
}

}  // namespace story::load

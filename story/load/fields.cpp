// Reading a storyboard's maps and values; see fields.hpp.
#include "story/load/fields.hpp"

#include "story/storyboard/units.hpp"

namespace story::load {

const Entry* find(const Entries& entries, const std::string& key) {
    auto it = entries.find(key);
    return it == entries.end() ? nullptr : &it->second;
}

Entries entries(Context& ctx, const yaml::Node& map, const Keys& known, const std::string& where) {
    Entries out;
    for (const Entry& e : map.entries) {
        if (!e.key->is_scalar()) {
            ctx.error(*e.key, "expected a key name, got " + describe(*e.key));
            continue;
        }
        const std::string& key = e.key->text;
        if (const Entry* first = find(out, key)) {
            ctx.error(*e.key, "duplicate key '" + key + "' (first on line " +
                                  std::to_string(first->key->pos.line) + ")");
        } else if (!contains(known, key)) {
            ctx.error(*e.key, unknown_key(key, known, where));
        } else {
            out.emplace(key, e);
        }
    }
    return out;
}

std::optional<Entries> map_of(Context& ctx, const Entry& e, const Keys& known,
                              const std::string& where) {
    if (e.value->is_map()) return entries(ctx, *e.value, known, where);
    ctx.error(*e.value, "expected a map for '" + e.key->text + "', got " + describe(*e.value));
    return std::nullopt;
}

std::vector<Entries> items(Context& ctx, const Entry& e, const Keys& known,
                           const std::string& where) {
    std::vector<Entries> out;
    if (!e.value->is_sequence()) {
        ctx.error(*e.value, "expected a list for '" + e.key->text + "', got " + describe(*e.value));
        return out;
    }
    for (const yaml::Node* node : e.value->items) {
        if (node->is_map())
            out.push_back(entries(ctx, *node, known, where));
        else
            ctx.error(*node, "expected a map " + where + ", got " + describe(*node));
    }
    return out;
}

std::optional<std::string> scalar(Context& ctx, const Entry& e) {
    if (e.value->is_scalar()) return e.value->text;
    ctx.error(*e.value,
              "expected a single value for '" + e.key->text + "', got " + describe(*e.value));
    return std::nullopt;
}

std::optional<std::string> text(Context& ctx, const Entry& e) {
    if (e.value->is_null()) return std::string();
    return scalar(ctx, e);
}

std::optional<long long> integer(Context& ctx, const Entry& e, limits::Bound bound) {
    auto s = scalar(ctx, e);
    long long v = 0;
    if (!s) return std::nullopt;
    if (auto message = integer_in_range(e.key->text, *s, bound.lo, bound.hi, v)) {
        ctx.error(*e.value, *message);
        return std::nullopt;
    }
    return v;
}

std::optional<double> time_of(Context& ctx, const Entry& e, int fps) {
    auto s = scalar(ctx, e);
    if (!s) return std::nullopt;
    auto t = parse_time(*s, fps);
    if (!t) ctx.error(*e.value, unit_error(*s, Quantity::time));
    return t;
}

std::optional<double> ranged(Context& ctx, const Entry& e, const limits::Range& r, int fps) {
    auto s = scalar(ctx, e);
    if (!s) return std::nullopt;
    const bool seconds = r.unit == "s";
    auto v = seconds ? parse_time(*s, fps) : parse_level(*s);
    if (!v) {
        ctx.error(*e.value, unit_error(*s, seconds ? Quantity::time : Quantity::level));
        return std::nullopt;
    }
    if (auto message = limits::range_error(r, *v)) {
        ctx.error(*e.value, *message);
        return std::nullopt;
    }
    return v;
}

std::optional<std::string> file_name(Context& ctx, const Entry& e) {
    auto s = text(ctx, e);
    if (s && s->empty())
        ctx.error(*e.value, "expected a file name for '" + e.key->text + "', got nothing");
    if (!s || s->empty()) return std::nullopt;
    return s;
}

std::string unknown_choice(const limits::Choice& choice, const std::string& value) {
    return unknown_name(std::string(choice.key), value, choice.listed());
}

}  // namespace story::load

// The cost model's settings as flags; see config_flags.hpp.
#include "render/cli/config_flags.hpp"

#include <CLI/CLI.hpp>
#include <cctype>

#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"

namespace render {
namespace {

using Errors = std::vector<std::string>;

struct FlagSpec {
    const char* flag;
    const char* key;  // a ModelSpec field
    const char* help;
};

// Every setting but the model (--model and --params, below) is a flag, applied in the settings'
// order (story/storyboard/settings.hpp), so --gpu brings its links before --nvlink / --network
// override them.
bool is_flag(const story::SettingSpec& s) { return s.section != story::SettingSection::model; }

// The flag's help, with the keywords or presets it takes.
std::string help_of(const story::SettingSpec& s) {
    std::vector<std::string> names;
    if (s.type == story::SettingType::choice) names = story::limits::find_choice(s.name)->listed();
    if (s.type == story::SettingType::gpu)
        for (const engine::GpuSpec& g : engine::gpu_presets()) names.push_back(g.name);
    std::string out = s.help;
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? " | " : ": ") + names[i];
    return out;
}

// A custom shape for --params; fields not given come from the nearest preset.
constexpr FlagSpec kShapeFlags[] = {
    {"--layers", "layers", "transformer layers"},
    {"--hidden", "hidden", "hidden size"},
    {"--heads", "heads", "attention heads"},
    {"--kv-heads", "kv_heads", "key/value heads (default: --heads)"},
    {"--ffn", "ffn", "MLP inner size (of a dense model, or of an MoE's leading dense layers)"},
    {"--vocab", "vocab", "vocabulary size"},
    {"--experts", "experts", "routed MLP experts per layer (a mixture of experts)"},
    {"--top-k", "top_k", "routed experts each token goes through"},
    {"--expert-ffn", "expert_ffn", "each expert's inner size (default: --ffn)"},
    {"--shared-experts", "shared_experts", "experts every token goes through (DeepSeek's)"},
    {"--dense-layers", "dense_layers", "the first layers, dense (width --ffn) in an MoE"},
};

int& shape_field(engine::ModelSpec& m, std::string_view key) {
    if (key == "layers") return m.layers;
    if (key == "hidden") return m.hidden;
    if (key == "heads") return m.heads;
    if (key == "kv_heads") return m.kv_heads;
    if (key == "experts") return m.experts;
    if (key == "top_k") return m.top_k;
    if (key == "shared_experts") return m.shared_experts;
    if (key == "dense_layers") return m.dense_layers;
    if (key == "expert_ffn") return m.ffn;  // ModelSpec's ffn is each expert's width
    return key == "ffn" ? m.ffn : m.vocab;
}

void apply(engine::Config& c, const std::string& flag, const char* key, const std::string& value,
           Errors& errors) {
    if (auto e = story::apply_setting(c, key, value)) errors.push_back(flag + ": " + *e);
}

void apply_shape(const ConfigFlags& f, engine::ModelSpec& m, Errors& errors) {
    for (const FlagSpec& s : kShapeFlags) {
        if (!f.given(s.flag)) continue;
        if (!f.given("--params")) {
            errors.push_back(std::string(s.flag) + " describes a custom model: give --params too");
            continue;
        }
        long long v = 0;
        // An expert's width has the limits of any MLP's.
        const std::string_view key = s.key == std::string_view("expert_ffn") ? "ffn" : s.key;
        const story::limits::Bound& bound = *story::limits::find_whole_number(key);
        if (auto e = story::integer_in_range(key, f.values.at(s.flag), bound.lo, bound.hi, v)) {
            errors.push_back(std::string(s.flag) + ": " + *e);
        } else if (std::string_view(s.key) == "ffn" && f.given("--expert-ffn")) {
            m.dense_ffn = int(v);  // the experts take --expert-ffn
        } else {
            shape_field(m, s.key) = int(v);
        }
    }
    if (f.given("--heads") && !f.given("--kv-heads")) m.kv_heads = m.heads;
    if (m.dense_layers > 0 && m.dense_ffn == 0) m.dense_ffn = m.ffn;
}

void apply_model(const ConfigFlags& f, engine::Config& c, Errors& errors) {
    if (f.given("--model") && f.given("--params")) {
        errors.push_back("--model and --params both given: use one");
    } else if (f.given("--model")) {
        apply(c, "--model", "model", f.model, errors);
    } else if (f.given("--params")) {
        if (!story::parse_count(f.params)) {
            errors.push_back("--params: " + story::unit_error(f.params, story::Quantity::count));
        } else {
            apply(c, "--params", "model", f.params, errors);
        }
    }
    apply_shape(f, c.model, errors);
}

void apply_global_batch(const ConfigFlags& f, engine::Config& c, Errors& errors) {
    if (!f.given("--global-batch") || f.chosen.contains("micro_batches")) return;
    if (f.given("--micro-batches")) {
        errors.push_back(
            "--global-batch and --micro-batches both given: the global batch sets "
            "the micro-batches (global batch / (dp x micro-batch))");
        return;
    }
    const GlobalBatch b = parse_global_batch(f.global_batch, c.training.seq_len);
    if (!b.error.empty()) {
        errors.push_back("--global-batch: " + b.error);
    } else if (auto e = engine::set_global_batch(c, b.sequences)) {
        errors.push_back("--global-batch: " + *e);
    } else {  // within the micro-batches' limits
        apply(c, "--global-batch", "micro_batches", std::to_string(c.training.micro_batches),
              errors);
    }
}

void register_flag(CLI::App* cmd, ConfigFlags& f, const std::string& flag, std::string& into,
                   const std::string& help) {
    f.options[flag] = cmd->add_option(flag, into, help);
}

}  // namespace

bool ConfigFlags::given(const std::string& flag) const {
    const auto it = options.find(flag);
    return it != options.end() && it->second->count() > 0;
}

void register_config_flags(CLI::App* cmd, ConfigFlags& f, const std::set<std::string>& chosen) {
    f.chosen = chosen;
    const story::SettingSpec& model = *story::find_setting("model");
    register_flag(cmd, f, model.flag, f.model, model.help);
    register_flag(cmd, f, "--params", f.params, "parameter count, e.g. 7B or 70e9");
    for (const FlagSpec& s : kShapeFlags) register_flag(cmd, f, s.flag, f.values[s.flag], s.help);
    for (const story::SettingSpec& s : story::settings()) {
        if (!is_flag(s) || chosen.contains(s.name)) continue;
        register_flag(cmd, f, s.flag, f.values[s.flag], help_of(s));
    }
    register_flag(cmd, f, "--global-batch", f.global_batch,
                  "sequences per step (2048), or tokens (16M tokens): sets the micro-batches");
}

Errors apply_config_flags(const ConfigFlags& f, engine::Config& c) {
    Errors errors;
    apply_model(f, c, errors);
    for (const story::SettingSpec& s : story::settings())
        if (is_flag(s) && f.given(s.flag))
            apply(c, s.flag, s.name.c_str(), f.values.at(s.flag), errors);
    if (errors.empty()) apply_global_batch(f, c, errors);
    return errors;
}

GlobalBatch parse_global_batch(const std::string& text, int seq_len) {
    std::string number = text;
    bool tokens = false;
    if (const auto at = number.find("tokens"); at != std::string::npos && at + 6 == number.size()) {
        number.erase(at);
        while (!number.empty() && std::isspace(static_cast<unsigned char>(number.back())))
            number.pop_back();
        tokens = true;
    }
    const auto count = story::parse_count(number);
    const std::string expected = "expected a number of sequences (2048) or of tokens (16M tokens)";
    if (!count || *count < 1 || *count > 1e12 || *count != double((long long)*count))
        return {0, expected + ", got '" + text + "'"};
    const auto n = (long long)*count;
    if (!tokens) return {n, ""};
    if (n % seq_len != 0) {
        return {0, std::to_string(n) + " tokens is not a whole number of " +
                       std::to_string(seq_len) + "-token sequences (try " +
                       std::to_string((n / seq_len + 1) * seq_len) + " tokens)"};
    }
    return {n / seq_len, ""};
}

}  // namespace render

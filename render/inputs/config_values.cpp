// The cost model's settings as text, by flag; see config_values.hpp.
#include "render/inputs/config_values.hpp"

#include <cctype>
#include <cstdio>
#include <string_view>

#include "engine/presets.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/setting_text.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"
#include "story/text/locale.hpp"

namespace render {

using story::N_;  // the flags' help: messages of the catalogue (the calculator translates them)
namespace {

using Errors = std::vector<engine::Problem>;
using story::about_flag, story::name_arg, story::number_arg, story::refusal, story::Refusal;

bool given(const ConfigValues& v, const std::string& flag) { return v.given.contains(flag); }
const std::string& value(const ConfigValues& v, const std::string& flag) {
    return v.given.at(flag);
}

// --arch names the blocks; every other shape flag is a whole number of the ModelSpec.
bool is_arch(const FlagSpec& s) { return std::string_view(s.key) == "arch"; }

// As a storyboard's model map has it: no learned position table (context 0) in a shape whose
// blocks are named, gpt as MPT and BLOOM run it (ALiBi); GPT-2/3's table comes with their presets.
void apply_arch(const std::string& text, engine::ModelSpec& m, Errors& errors) {
    if (auto arch = engine::parse_arch(text)) {
        m.arch = *arch;
        m.context = 0;
        m.dropout = engine::dropout_of(m.arch);  // --dropout, applied after, says otherwise
        return;
    }
    errors.push_back(about_flag(
        "--arch",
        story::unknown_name_problem("arch", text, story::limits::choice("arch").listed())));
}

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

void apply(engine::Config& c, const std::string& flag, const char* key, const std::string& text,
           Errors& errors) {
    if (auto e = story::setting_problem(c, key, text)) errors.push_back(about_flag(flag, *e));
}

void apply_shape(const ConfigValues& v, engine::ModelSpec& m, Errors& errors) {
    for (const FlagSpec& s : shape_flags()) {
        if (!*s.key || !given(v, s.flag)) continue;
        if (!given(v, "--params")) {
            errors.push_back(refusal(Refusal::custom_shape,
                                     {name_arg("flag", s.flag), name_arg("params", "--params")}));
            continue;
        }
        if (is_arch(s)) {
            apply_arch(value(v, s.flag), m, errors);
            continue;
        }
        long long n = 0;
        // An expert's width has the limits of any MLP's.
        const std::string_view key = s.key == std::string_view("expert_ffn") ? "ffn" : s.key;
        const story::limits::Bound& bound = *story::limits::find_whole_number(key);
        if (auto e = story::integer_problem(key, value(v, s.flag), bound.lo, bound.hi, n)) {
            errors.push_back(about_flag(s.flag, *e));
        } else if (std::string_view(s.key) == "ffn" && given(v, "--expert-ffn")) {
            m.dense_ffn = int(n);  // the experts take --expert-ffn
        } else {
            shape_field(m, s.key) = int(n);
        }
    }
    if (given(v, "--heads") && !given(v, "--kv-heads")) m.kv_heads = m.heads;
    // GPT's MLP is 4 x hidden wide, where the nearest preset's may be a Llama's.
    if (given(v, "--arch") && m.arch == engine::Arch::gpt && !given(v, "--ffn"))
        m.ffn = 4 * m.hidden;
    if (m.dense_layers > 0 && m.dense_ffn == 0) m.dense_ffn = m.ffn;
}

void apply_model(const ConfigValues& v, engine::Config& c, Errors& errors) {
    const std::string& model = story::find_setting("model")->flag;
    if (given(v, model) && given(v, "--params")) {
        errors.push_back(
            refusal(Refusal::both_given, {name_arg("flag", model), name_arg("other", "--params")}));
    } else if (given(v, model)) {
        apply(c, model, "model", value(v, model), errors);
    } else if (given(v, "--params")) {
        // A copy: GCC 14's -Wdangling-reference takes the flag's temporary for what is returned.
        const std::string params = value(v, "--params");
        if (!story::parse_count(params)) {
            errors.push_back(
                about_flag("--params", story::unit_problem(params, story::Quantity::count)));
        } else {
            apply(c, "--params", "model", params, errors);
        }
    }
    apply_shape(v, c.model, errors);
}

void apply_global_batch(const ConfigValues& v, engine::Config& c, Errors& errors) {
    if (!given(v, kGlobalBatchFlag.flag) || v.chosen.contains("micro_batches")) return;
    if (given(v, story::find_setting("micro_batches")->flag)) {
        errors.push_back(refusal(Refusal::global_batch_and_micro_batches,
                                 {name_arg("flag", kGlobalBatchFlag.flag),
                                  name_arg("other", story::find_setting("micro_batches")->flag)}));
        return;
    }
    const GlobalBatch b = parse_global_batch(value(v, kGlobalBatchFlag.flag), c.training.seq_len);
    if (b.error) {
        errors.push_back(about_flag(kGlobalBatchFlag.flag, *b.error));
    } else if (auto e = engine::global_batch_problem(c, b.sequences)) {
        errors.push_back(about_flag(kGlobalBatchFlag.flag, *e));
    } else {  // within the micro-batches' limits
        apply(c, "--global-batch", "micro_batches", std::to_string(c.training.micro_batches),
              errors);
    }
}

// A parameter count as --params and --model read it: "70000000000".
std::string count_text(double n) {
    char buf[40];
    std::snprintf(buf, sizeof buf, n == double((long long)n) ? "%.0f" : "%.17g", n);
    return buf;
}

// --params and every shape flag, as c's model has them.
std::map<std::string, std::string> shape_flags_of(engine::ModelSpec m) {
    std::map<std::string, std::string> flags{{"--params", count_text(m.params)}};
    for (const FlagSpec& s : shape_flags())  // a field at 0 is one a dense model has not
        if (*s.key && !is_arch(s) && shape_field(m, s.key) != 0)
            flags[s.flag] = std::to_string(shape_field(m, s.key));
    // --arch where the count's nominal model has other blocks or a position table this shape
    // has not (--arch drops it): a storyboard's map, --arch given; not --params 175B's own GPT-3.
    const engine::ModelSpec nominal = engine::nominal_model(m.params);
    if (m.arch != engine::Arch::mla && (m.arch != nominal.arch || m.context != nominal.context))
        flags["--arch"] = engine::to_string(m.arch);
    if (m.experts == 0) flags.erase("--expert-ffn");
    if (m.experts > 0) flags["--ffn"] = std::to_string(m.dense_ffn > 0 ? m.dense_ffn : m.ffn);
    return flags;
}

// The model's flags: the first of its preset, its count and its shape that gives it (but for
// whether it ties its embeddings, a setting of its own).
std::map<std::string, std::string> model_flags(const engine::ModelSpec& m) {
    const std::string& model = story::find_setting("model")->flag;
    for (auto flags : {std::map<std::string, std::string>{{model, m.name}},
                       std::map<std::string, std::string>{{model, count_text(m.params)}}}) {
        engine::Config c = story::default_config();
        if (!apply_config_values({flags, {}}, c).empty()) continue;
        story::apply_setting(c, "tie_embeddings", m.tie_embeddings ? "true" : "false");
        story::apply_setting(c, "dropout", m.dropout ? "true" : "false");
        if (c.model == m) return flags;
    }
    return shape_flags_of(m);
}

}  // namespace

std::map<std::string, std::string> config_flags(const engine::Config& c) {
    std::map<std::string, std::string> flags = model_flags(c.model);
    // Until the flags give c again: a flag written moves what another left out defaults to
    // (--nodes 8 alone means --gpus 64), so a setting equal to its plain default may be needed.
    for (std::size_t written = 0, pass = 0; pass == 0 || flags.size() != written; ++pass) {
        written = flags.size();
        engine::Config base = story::default_config();
        apply_config_values({flags, {}}, base);
        for (const story::SettingSpec& s : story::settings()) {
            if (s.section == story::SettingSection::model) continue;
            const std::string text = story::setting_text(c, s.name);
            if (text != story::setting_text(base, s.name)) flags[s.flag] = text;
        }
    }
    return flags;
}

// A custom shape for --params; fields not given come from the nearest preset.
const std::vector<FlagSpec>& shape_flags() {
    static const std::vector<FlagSpec> flags{
        {"--params", "", N_("parameter count, e.g. 7B or 70e9")},
        {"--arch", "arch",
         N_("the blocks: llama (SwiGLU, RMSNorm) or gpt (GPT-2/3, MPT: a GELU MLP 4 x hidden "
            "wide, LayerNorm, dropout)")},
        {"--layers", "layers", N_("transformer layers")},
        {"--hidden", "hidden", N_("hidden size")},
        {"--heads", "heads", N_("attention heads")},
        {"--kv-heads", "kv_heads", N_("key/value heads (default: --heads)")},
        {"--ffn", "ffn",
         N_("MLP inner size (of a dense model, or of an MoE's leading dense layers)")},
        {"--vocab", "vocab", N_("vocabulary size")},
        {"--experts", "experts", N_("routed MLP experts per layer (a mixture of experts)")},
        {"--top-k", "top_k", N_("routed experts each token goes through")},
        {"--expert-ffn", "expert_ffn", N_("each expert's inner size (default: --ffn)")},
        {"--shared-experts", "shared_experts", N_("experts every token goes through (DeepSeek's)")},
        {"--dense-layers", "dense_layers", N_("the first layers, dense (width --ffn) in an MoE")},
    };
    return flags;
}

const FlagSpec kGlobalBatchFlag{
    "--global-batch", "",
    N_("sequences per step (2048), or tokens (16M tokens): sets the micro-batches")};

std::vector<std::string> apply_config_values(const ConfigValues& v, engine::Config& c) {
    std::vector<std::string> lines;
    for (const engine::Problem& p : config_problems(v, c)) lines.push_back(story::problem_line(p));
    return lines;
}

Errors config_problems(const ConfigValues& v, engine::Config& c) {
    Errors errors;
    apply_model(v, c, errors);
    for (const story::SettingSpec& s : story::settings())
        if (s.section != story::SettingSection::model && given(v, s.flag))
            apply(c, s.flag, s.name.c_str(), value(v, s.flag), errors);
    if (errors.empty()) apply_global_batch(v, c, errors);
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
    if (!count || *count < 1 || *count > 1e12 || *count != double((long long)*count))
        return {0, refusal(Refusal::global_batch_text, {name_arg("value", text)})};
    const auto n = (long long)*count;
    if (!tokens) return {n, std::nullopt};
    if (n % seq_len != 0) {
        return {0, refusal(Refusal::global_batch_tokens,
                           {number_arg("tokens", std::to_string(n)),
                            number_arg("seq_len", std::to_string(seq_len)),
                            number_arg("fit", std::to_string((n / seq_len + 1) * seq_len))})};
    }
    return {n / seq_len, std::nullopt};
}

}  // namespace render

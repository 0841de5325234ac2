// Each kind's figures and formulas; see facts.hpp.
#include "render/page/facts.hpp"

#include <algorithm>

#include "engine/report.hpp"
#include "render/inputs/numbers_json.hpp"
#include "render/markup/markup.hpp"
#include "story/chapter/chapter.hpp"
#include "story/text/locale.hpp"

namespace render {
namespace {

using story::N_;
using Json = nlohmann::ordered_json;

// A row's value as `numbers --format json` writes that figure: a flag, bytes or a number.
Json json_value(story::Shown how, double v) {
    if (how == story::Shown::yes_no) return v != 0;
    if (how == story::Shown::bytes) return json_bytes(v);
    return json_number(v);
}

std::string mathml(const story::Math& m) {
    using Tag = story::Math::Tag;
    switch (m.tag) {
        case Tag::ident:
            return "<mi>" + xml_escape(m.text) + "</mi>";
        case Tag::number:
            return "<mn>" + xml_escape(m.text) + "</mn>";
        case Tag::op:
            return "<mo>" + xml_escape(m.text) + "</mo>";
        case Tag::frac:
            return "<mfrac><mrow>" + mathml(m.parts.at(0)) + "</mrow><mrow>" +
                   mathml(m.parts.at(1)) + "</mrow></mfrac>";
        default: {
            std::string out;
            for (const story::Math& part : m.parts) out += mathml(part);
            return out;
        }
    }
}

// The values after "=", their terms (split at the row's top-level "+") at most kTermsPerLine to a
// row of a left-aligned table, each row after the first opening with its "+": a sum of six terms
// (the expected peak) ran past a studio sidebar and a phone, where the hidden last term left the
// sum short of its result.
constexpr std::size_t kTermsPerLine = 4;
std::string values_mathml(const story::Math& values) {
    std::vector<std::vector<const story::Math*>> terms(1);
    const std::vector<story::Math> parts =
        values.tag == story::Math::Tag::row ? values.parts : std::vector<story::Math>{values};
    for (const story::Math& part : parts) {
        if (part.tag == story::Math::Tag::op && part.text == "+") terms.emplace_back();
        terms.back().push_back(&part);
    }
    if (terms.size() <= kTermsPerLine) return "<mrow><mo>=</mo>" + mathml(values) + "</mrow>";
    const std::size_t lines = (terms.size() + kTermsPerLine - 1) / kTermsPerLine;
    const std::size_t per_line = (terms.size() + lines - 1) / lines;
    std::string out = "<mtable columnalign=\"left\">";
    for (std::size_t i = 0; i < terms.size(); i += per_line) {
        out += "<mtr><mtd><mrow>" + std::string(i == 0 ? "<mo>=</mo>" : "");
        for (std::size_t k = i; k < std::min(terms.size(), i + per_line); ++k)
            for (std::size_t j = 0; j < terms[k].size(); ++j) {
                // A row's opening "+", spaced as between two terms rather than as a sign.
                const bool opens_row = i > 0 && k == i && j == 0;
                out += opens_row ? "<mo form=\"infix\">+</mo>" : mathml(*terms[k][j]);
            }
        out += "</mrow></mtd></mtr>";
    }
    return out + "</mtable>";
}

// One formula: what it says in symbols, then with the values in, then the result, a line each
// (MathML Core does not break lines, and a phone's width holds about 30 characters of it; long
// values take two rows), left to right in every language like the diagrams.
std::string mathml(const story::Formula& f) {
    auto line = [](const std::string& row) {
        return "<math display=\"block\" dir=\"ltr\">" + row + "</math>";
    };
    return "<div class=\"formula\"><span class=\"formula-label\">" + xml_escape(f.label) +
           "</span>" + line("<mrow>" + mathml(f.symbols) + "</mrow>") +
           line(values_mathml(f.values)) +
           line("<mrow><mo>=</mo><mn>" + xml_escape(f.result) + "</mn></mrow>") + "</div>";
}

}  // namespace

std::string param_label(const std::string& key, const story::Locale& locale) {
    static const std::vector<std::pair<std::string, const char*>> names{
        {"micro_batches", N_("Micro-batches")},
        {"micro_batch", N_("Micro-batch size")},
        {"precision", N_("Precision")},
        {"zero", N_("ZeRO stage")},
        {"gpus", N_("GPUs")},
        {"tp", N_("Tensor-parallel degree")},
        {"pp", N_("Pipeline stages")},
        {"seq_len", N_("Sequence length")},
        {"recompute", N_("Recomputation")},
        {"schedule", N_("Schedule")},
        {"chunks", N_("Chunks per GPU")},
        {"model", N_("Model")},
        {"gpu", N_("GPU")},
        {"nodes", N_("Nodes")},
        {"gpus_per_node", N_("GPUs per node")},
        {"grad_dtype", N_("Gradient type")}};
    for (const auto& [k, name] : names)
        if (k == key) return locale.tr(name);
    return key;
}

Facts chapter_facts(const std::string& kind, const engine::Config& config,
                    const story::Locale& locale, bool drawn, bool later) {
    Facts facts{{}, {}, config};
    const story::KindInfo* info = story::find_kind(kind);
    if (!info) return facts;
    const story::KindFacts& kf = info->facts;
    const auto is_later = [&](const story::FactRow& row) {
        return std::any_of(kf.later_rows.begin(), kf.later_rows.end(),
                           [&](const char* key) { return std::string_view(key) == row.key; });
    };
    const auto dash = [&](const story::FactRow& row) {
        facts.stats.push_back({row.key, locale.tr(row.label), "—", nullptr});
    };
    if (!drawn) {
        for (const story::FactRow& row : kf.rows) dash(row);
        return facts;
    }
    facts.shown = story::as_drawn(kind, config);
    const engine::Config& shown = facts.shown;
    const engine::Report report = engine::analyze(shown);
    for (const story::FactRow& row : kf.rows) {
        if (!later && is_later(row)) {
            dash(row);
            continue;
        }
        const double v = row.of(report);
        facts.stats.push_back({row.key, locale.tr(row.label),
                               story::shown_text(row.shown, v, locale), json_value(row.shown, v)});
    }
    const auto write = [&](story::FormulasFn formulas) {
        for (const story::Formula& f : formulas(shown, report, locale)) facts.maths += mathml(f);
    };
    for (story::FormulasFn formulas : kf.formulas) write(formulas);
    if (later)
        for (story::FormulasFn formulas : kf.later_formulas) write(formulas);
    return facts;
}

}  // namespace render

// What a chapter kind says beside its figure on the article page and in the studio, as plain data
// each kind declares in its own file: the figures its chapter puts on screen (rows read from the
// engine's report) and the formulas it uses with those values in. render/page writes them as a
// table and MathML; the rows and formulas every kind shares are here.
#pragma once
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "engine/report.hpp"
#include "story/text/locale.hpp"

namespace story {

struct ChapterSpec;

// How a figure is written, as the film writes it.
enum class Shown { bytes, count, number, percent, params, per_param, seconds, yes_no };

struct FactRow {
    const char* key;  // its name in `numbers --format json` (per_gpu.total_bytes): the same figure
    const char* label;  // the row's heading (a msgid)
    Shown shown;
    double (*of)(const engine::Report&);  // read from the report; a yes_no row gives 1 or 0
};

// The figure's text in the locale: "112 GB", "27.3%", "yes".
std::string shown_text(Shown how, double value, const Locale& l);

// A formula's expression, as MathML builds one: identifiers, numbers, operators, fractions and
// rows of them. `a + b` is the row of both.
struct Math {
    enum class Tag { ident, number, op, frac, row };
    Tag tag = Tag::row;
    std::string text;         // ident, number, op
    std::vector<Math> parts;  // frac: numerator and denominator; row: the items
    bool operator==(const Math&) const = default;
};
Math mi(std::string text);
Math mn(std::string text);
Math mo(std::string text);
Math frac(Math top, Math bottom);
Math operator+(Math a, Math b);

// One formula: what it says in symbols, then with the values in, then the result.
struct Formula {
    std::string label;  // in the locale's words
    Math symbols, values;
    std::string result;
    bool operator==(const Formula&) const = default;
};

using FormulasFn = std::vector<Formula> (*)(const engine::Config&, const engine::Report&,
                                            const Locale&);

struct KindFacts {
    std::vector<FactRow> rows;
    std::vector<FormulasFn> formulas;  // written in this order
    // The configuration the chapter's figures are of, given the chapter's (plan: the planner's
    // winner); nullptr: the chapter's own.
    engine::Config (*shown)(const engine::Config&) = nullptr;
    // Whether those figures are on screen at chapter time t (plan: once its search has ranked,
    // "—" before); nullptr: always.
    bool (*drawn_at)(const ChapterSpec&, double t, int fps) = nullptr;
    // Figures the chapter draws only from its phase `later_phase` on (step_memory: the peak and
    // whether it fits, on the line that names them): the rows keyed `later_rows` are "—" before
    // it, and the formulas `later_formulas` are written after `formulas` only from then.
    const char* later_phase = nullptr;
    std::vector<const char*> later_rows;
    std::vector<FormulasFn> later_formulas;
};

// What the stat panel writes under a step's bytes sent: the groups that send them, largest
// first, and their time on the links: "tp + dp · 122 ms" (the time alone when nothing is sent).
std::string comm_detail(const engine::CommPerStep& c, const Locale& l);

// Rows more than one kind shows.
namespace rows {
extern const FactRow params, bytes_per_param, model_states, gpus_to_hold;
extern const FactRow dp, tp, pp, zero, gpus;
extern const FactRow weights, gradients, optimizer, activations, memory, fits;
extern const FactRow dp_sent, tp_sent, pp_sent, comm_seconds, bubble, in_flight;
}  // namespace rows
// The row under another heading (a msgid): the ring's "GPUs in the ring" is rows::dp.
FactRow with_label(FactRow row, const char* label);

// Formulas more than one kind writes; each is empty where it does not apply (ring: one replica).
namespace formulas {
std::vector<Formula> model_states(const engine::Config&, const engine::Report&, const Locale&);
std::vector<Formula> ring(const engine::Config&, const engine::Report&, const Locale&);
std::vector<Formula> bubble(const engine::Config&, const engine::Report&, const Locale&);
std::vector<Formula> memory(const engine::Config&, const engine::Report&, const Locale&);
std::vector<Formula> replicas(const engine::Config&, const engine::Report&, const Locale&);
}  // namespace formulas

// A formula of symbols = values = result, its label a msgid put in the locale's words.
Formula formula(const char* label, Math symbols, Math values, std::string result, const Locale& l);

}  // namespace story

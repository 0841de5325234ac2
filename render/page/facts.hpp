// What an article page says beside each chapter's figure: the cost model's figures for the
// configuration on screen (a small table) and the formulas the chapter uses with those values
// substituted (MathML). Every value comes from engine::analyze through report_json, the very
// figures `numbers --format json` prints.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "story/text/locale.hpp"

namespace render {

struct Stat {
    std::string key;    // dotted path in `numbers --format json`, e.g. per_gpu.total_bytes
    std::string label;  // the table's row heading
    std::string text;   // as the film writes it: "112 GB", "27.3%"
    nlohmann::ordered_json value;  // the number (or flag) at `key`
};

struct Facts {
    std::vector<Stat> stats;
    std::string maths;  // <math> elements, one per formula; empty for a kind with none
    // The configuration the figures are of: story::as_drawn's while the chapter draws them
    // (fsdp_gather's ZeRO-3, plan's winner), else the one given (story::drawn_at's, for links).
    engine::Config shown;
};

// How a control and an alt text name a storyboard setting ("micro_batches": "Micro-batches"),
// in locale's words; the key itself when it has no name.
std::string param_label(const std::string& key, const story::Locale& locale);

// The figures and formulas of a chapter of `kind` showing `config` (which validates), their
// words from locale's catalogue and their numbers written as it writes them. Where the chapter
// draws no figures yet (`drawn` false: story::figures_drawn, plan before its search ranks), each
// figure is "—" with no value, as its panel shows it, and there are no formulas; where it has not
// yet drawn its later ones (`later` false: story::later_figures_drawn, step_memory before the
// peak), those are "—" and their formulas left out.
Facts chapter_facts(const std::string& kind, const engine::Config& config,
                    const story::Locale& locale, bool drawn = true, bool later = true);

}  // namespace render

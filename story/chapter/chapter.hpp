// A chapter: a pure function from time to display list, built once from its spec (the engine
// runs up front, in the constructor), and the registry of chapter kinds.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "story/chapter/kind_facts.hpp"
#include "story/scene/layout.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/text_metrics.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story {

class Chapter {
  public:
    virtual ~Chapter() = default;
    // Display list at t seconds from the chapter start, 0 <= t <= duration. Pure.
    virtual Scene scene_at(double t) const = 0;
    // The stat panel scene_at(t) draws (none: empty), its figures those of the state on screen.
    virtual std::vector<Stat> stats_at(double t) const = 0;
};

// A 7B model on two nodes of eight H100s, tp 2 and pp 2: the sample configuration of most kinds.
inline constexpr const char* kSixteenGpus =
    "model: 7B\n"
    "parallel: {gpus: 16, tp: 2, pp: 2}\n"
    "training: {micro_batches: 8}\n"
    "cluster: {gpu: h100-sxm-80gb, gpus_per_node: 8, nodes: 2}\n";

// A still of the kind the suite keeps as a golden PNG (tests/golden/<png>.png), taken from the
// first chapter of this kind in tests/storyboards/good/kind_<kind>.yaml.
struct Golden {
    const char* png;   // its name, without .png
    double at;         // seconds into the chapter
    const char* what;  // what it shows then
};

// A moment of a kind's choreography that a beat may pin to its start (`show: NAME`): the kind
// authors it at `at` seconds of its default duration.
struct Phase {
    const char* name;
    double at;
    const char* what;  // what begins then
};

// A chapter kind, described once in its own file: what it draws and of which settings, its
// README line, a configuration it draws, its golden stills and its facts on the article page.
struct KindInfo {
    std::string name;
    double default_duration = 10;
    std::vector<std::string> settable;  // flat setting names a `set:` beat may change
    std::unique_ptr<Chapter> (*make)(const ChapterSpec&, const Video&,
                                     const TextMetrics&) = nullptr;
    // Why this kind cannot draw a configuration (too large: its schedule grows faster than the
    // GPU count; or an axis it does not show), or nullopt; the loader reports it like an
    // engine::validate problem.
    std::optional<std::string> (*cannot_draw)(const engine::Config&) = nullptr;
    const char* shows = "";     // what it shows: its row of README's table of kinds
    const char* set_note = "";  // what limits a `set:` beyond the setting's own range (README)
    // A configuration it draws, as a storyboard's `defaults:` says it (YAML), from which a `set:`
    // of a settable name to most values the setting takes still draws (the tests vary it).
    const char* sample = kSixteenGpus;
    // Values a `set:` of this kind is tried with where the setting's own miss what it draws
    // (zero_bubble's schedules are the zero-bubble ones).
    std::vector<std::pair<std::string, std::vector<std::string>>> set_values;
    std::vector<Golden> goldens;  // the first one stands in README's table
    std::vector<Phase> phases;    // in the order they begin
    // Where a chapter's configurations move or leave out phases (layout_3d turns to the axes its
    // racks split): the phases it has, in kind order, at their authored times; null: `phases`.
    std::vector<Phase> (*phases_of)(const ChapterSpec&) = nullptr;

    KindFacts facts;
};

// Each kind registers itself from its own file under story/chapters/ with a namespace-scope
// `const KindRegistrar registrar{{...}};` (story is an object library, so none is dropped).
struct KindRegistrar {
    explicit KindRegistrar(KindInfo info);
};

// The phases a chapter of `kind` goes through (KindInfo::phases_of, or phases).
std::vector<Phase> phases_of(const KindInfo& kind, const ChapterSpec& spec);

const std::vector<KindInfo>& chapter_kinds();  // sorted by name
const KindInfo* find_kind(std::string_view name);
// The configuration whose figures a chapter of `kind` draws for c (KindFacts::shown: fsdp_gather's
// ZeRO-3, plan's winner), else c: what `numbers --at`, the studio and the page report.
engine::Config as_drawn(std::string_view kind, const engine::Config& c);
// Whether the chapter's figures are on screen at chapter time t (KindFacts::drawn_at: plan's once
// its search has ranked, "—" before).
bool figures_drawn(const ChapterSpec& spec, double t, int fps);
// Whether the chapter has reached the phase from which it draws its later figures
// (KindFacts::later_phase) at chapter time t; true for a kind without any.
bool later_figures_drawn(const ChapterSpec& spec, double t);
// The configuration whose figures the chapter draws at t: as_drawn of the configuration on screen
// (every `set:` past its halfway) while they are drawn, else that configuration itself (plan
// before it ranks: the question, with no winner yet).
engine::Config drawn_at(const ChapterSpec& spec, double t, int fps);
std::vector<std::string> kind_names();

// What the cost model rejects in c (engine::validate), and what `kind` cannot draw (when known).
std::vector<std::string> config_problems(const engine::Config& c, const KindInfo* kind);

std::unique_ptr<Chapter> make_chapter(const ChapterSpec& spec, const Video& video,
                                      const TextMetrics& metrics);

}  // namespace story

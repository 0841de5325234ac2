// Configurations and the planner; see configure.hpp.
#include "story/load/configure.hpp"

#include <algorithm>
#include <cstdint>

#include "engine/plan.hpp"
#include "story/load/beat_checks.hpp"
#include "story/load/explore.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"

namespace story::load {
namespace {

// The planner's first choice (engine/plan.hpp) for the model, training and cluster given,
// keeping the global batch they imply (dp x micro_batch x micro_batches).
void plan_layout(Context& ctx, SourcePos at, engine::Config& c) {
    if (c.layout.dp() < 1) return;  // a degree below 1 or too large: reported already
    const long long batch = 1LL * c.layout.dp() * c.training.micro_batch * c.training.micro_batches;
    const engine::PlanResult r = engine::plan(c, {1, int(std::min<long long>(batch, INT32_MAX))});
    if (!r.best.empty()) {
        c = r.best.front().config;
        return;
    }
    std::string message = "parallel: plan found no layout of " + c.model.name + " that fits " +
                          std::to_string(c.layout.gpus) + " x " + c.cluster.gpu.name;
    if (r.leanest) {
        const engine::PerGpu& g = r.leanest->report.per_gpu;
        message += " (the nearest needs " + format_bytes(g.total.value) + " per GPU of " +
                   format_bytes(g.capacity.value);
        if (g.host.value > 0)
            message += " and " + format_bytes(g.host.value) + " of host memory of " +
                       format_bytes(g.host_capacity.value);
        message += ")";
    }
    ctx.error(at, message + ": give more GPUs (cluster: nodes) or a GPU with more memory");
}

// What this step finds, each diagnostic put back where one pass through the file would have
// found it (after the first `found` of the parse's, fields.hpp): only errors at one position
// (an alias read twice) could tell, and they keep that order.
class Late {
  public:
    explicit Late(Context& ctx) : ctx_(ctx), scratch_{ctx.file, found_, ctx.warnings, ctx.langs} {}

    // Where to report what belongs after the parse's first `found` diagnostics.
    Context& at(std::size_t found) {
        flush();
        at_ = found;
        return scratch_;
    }

    // The parse's diagnostics with these among them.
    void place() {
        flush();
        std::ranges::stable_sort(placed_, {}, &std::pair<std::size_t, Diagnostic>::first);
        const std::vector<Diagnostic>& parsed = ctx_.diags.list();
        Diagnostics all;
        std::size_t next = 0;
        auto add = [&](const Diagnostic& d) { all.error(d.file, d.pos, d.message); };
        for (const auto& [found, d] : placed_) {
            while (next < found) add(parsed[next++]);
            add(d);
        }
        while (next < parsed.size()) add(parsed[next++]);
        ctx_.diags = std::move(all);
    }

  private:
    void flush() {
        for (const Diagnostic& d : found_.list()) placed_.emplace_back(at_, d);
        found_ = Diagnostics();
    }

    Context& ctx_;
    Diagnostics found_;
    Context scratch_;  // reports into found_
    std::size_t at_ = 0;
    std::vector<std::pair<std::size_t, Diagnostic>> placed_;
};

// `c` with the layer applied: the model, each setting in turn, then the planner.
engine::Config apply_layer(Late& late, engine::Config c, const ConfigLayer& layer) {
    // A custom shape counts no learned position table (context 0): llama's rotary positions,
    // or gpt as MPT and BLOOM run it (ALiBi); GPT-2/3's table comes with their presets.
    if (layer.shape) c.model = *layer.shape;
    for (const auto& [s, found] : layer.settings)
        if (auto message = apply_setting(c, s.key, s.value))
            late.at(found).error(s.value_pos, *message);
    if (layer.plan) plan_layout(late.at(layer.end), *layer.plan, c);
    return c;
}

// Beat times written out (no after, mark or auto) are checked now, with the rest of the file;
// timed() checks the others once it has resolved them.
bool fixed_times(const ChapterSpec& spec) {
    return !spec.auto_duration &&
           std::ranges::all_of(spec.beats, [](const Beat& b) { return b.rule == AtRule::fixed; });
}

// The chapter's explore: (or one beat's: at most one per chapter) on its configuration.
void explore(Context& ctx, const ChapterDraft& draft, ChapterSpec& spec) {
    if (draft.explore) spec.explore = read_explore(ctx, *draft.explore, draft.kind, spec.config);
    for (const auto& [e, beat] : draft.beat_explores) {
        if (!spec.explore.empty()) {
            ctx.error(*e.key, "chapter '" + spec.id +
                                  "' already explores (one explore: per chapter, on the "
                                  "chapter or on one of its beats)");
            return;
        }
        spec.explore = read_explore(ctx, e, draft.kind, spec.config);
        spec.explore_beat = beat;
    }
}

ChapterSpec configure_chapter(Late& late, const engine::Config& defaults, ChapterDraft draft) {
    ChapterSpec& spec = draft.spec;
    spec.config = apply_layer(late, defaults, draft.config);
    spec.film = defaults;
    Context& after_config = late.at(draft.config.end);
    for (const std::string& problem : config_problems(spec.config, draft.kind))
        after_config.error(spec.pos, "invalid configuration " + draft.where + ": " + problem);
    // explore: is read after check_beats, so its combinations are left to timed() as before.
    if (fixed_times(spec))
        check_beats(spec, after_config.file, draft.where, late.at(draft.beats_found).diags);
    explore(late.at(draft.figure_found), draft, spec);
    return std::move(spec);
}

}  // namespace

void configure(Context& ctx, Storyboard& sb, const ConfigLayer& defaults,
               std::vector<ChapterDraft> chapters) {
    Late late(ctx);
    sb.defaults = apply_layer(late, default_config(), defaults);
    for (ChapterDraft& draft : chapters)
        sb.chapters.push_back(configure_chapter(late, sb.defaults, std::move(draft)));
    late.place();
}

}  // namespace story::load

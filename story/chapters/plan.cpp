// `plan`: the planner's search filmed (engine::plan). A sample of the candidate layouts stands as
// rows; they fall away by reason (the global batch does not divide, the layout does not fit, it
// is slower than the ranked few), each reason's count running up to the planner's total, until
// the ranked few slide to the top and the winner is drawn on a node of its rack. A `set:` fades
// the search out and plays the new one from the start.
#include "engine/plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

#include "engine/layout3d.hpp"
#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/text/lang.hpp"
#include "story/vocab/cluster_vocab.hpp"
#include "story/vocab/rack_vocab.hpp"
#include "story/vocab/vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 24;
constexpr int kTop = 3, kSamplePerFate = 3;
constexpr std::size_t kKeptSearches = 8;
// Choreography, in seconds of the default duration: rows in, then each reason strikes its rows
// (kStrikeFor s) and fades them (kFadeFor s) while its count runs up, then the ranked rows reappear
// in rank order and the winner's node is drawn.
constexpr double kRowsAt = 0.4, kRowStagger = 0.12;
struct Fall {
    engine::PlanFate fate;
    double at;
    const char* reason;
};
constexpr Fall kFalls[] = {{engine::PlanFate::no_divide, 3.5, N_("batch does not divide")},
                           {engine::PlanFate::no_fit, 7.0, N_("does not fit in memory")},
                           {engine::PlanFate::slower, 10.5, N_("slower than the top 3")}};
constexpr double kStrikeFor = 0.6, kFadeFor = 1.2, kCountFor = 1.6;
constexpr double kRiseAt = 14.0, kRiseFor = 1.2, kRackAt = 16.0;
constexpr double kReplayTail = 2.5;    // s of the film a replayed search's winner stays drawn
constexpr double kReplayRowsIn = 0.5;  // a replayed search's rows all start entering within this
// The fastest a replay plays to rank on the line naming its winner: its rows (all in by
// kRowsAt + kReplayRowsIn) then stand kHold s before the first reason has struck them. A line
// that comes sooner after the `set:` is met late rather than with rows that flash by.
constexpr double kMostReplayPace = (kFalls[0].at + kStrikeFor - kRowsAt - kReplayRowsIn) / kHold;

// Geometry: the candidates' column at the left, the counts at the right; the winner's node under
// the ranked rows.
constexpr double kHeaderY = 262, kRowsTop = 290, kRowPitch = 46, kMemRight = 1040,
                 kTimeRight = 1180, kCountsX = 1240, kCountsTop = 300, kCountPitch = 64;
constexpr double kNodeTop = 300 + kTop * kRowPitch + 64, kNodeLeft = frame::kLeft,
                 kNodeRight = kCountsX - 40, kCardGap = 12, kNodePad = 16, kNodeBand = 90;
// A winner's card: its first tag's baseline below the card's top, the tags' pitch, and the room
// under the last.
constexpr double kTagTop = 56, kTagPitch = 26, kTagBottom = 28;
// The groups of the winner's innermost split, outlined around their cards as layout_3d outlines
// them and named above (the band holds the node's name, then the groups' names).
constexpr double kGroupInflate = 4;
constexpr double kRankIndent = 40;  // the ranked rows' names, right of their rank
// A row's name ends this far left of its memory figure, and shrinks no smaller than STYLE.md's
// least text (22 px) to keep to it.
constexpr double kNameGap = 24, kLeastLabelPx = 22;
const TextStyle kRowText = style_of(Role::label);
const TextStyle kNumber = tabular(style_of(Role::label));

// What else the planner varies within one split, ZeRO stage and schedule, named where it is
// not the default: recomputation, offload to the host, hybrid sharding. Without it two rows can
// read alike with different figures.
std::string extras_text(const Locale& l, const engine::Config& c) {
    std::vector<std::string> extras;
    if (c.training.recompute == engine::Recompute::selective) extras.push_back(l.tr("recompute"));
    if (c.training.recompute == engine::Recompute::full) extras.push_back(l.tr("full recompute"));
    if (c.layout.offload == engine::Offload::optimizer) extras.push_back(l.tr("offload"));
    if (c.layout.offload == engine::Offload::optimizer_params)
        extras.push_back(l.tr("offload + weights"));
    if (c.layout.shard_group > 0) extras.push_back(l.tr("hybrid sharding"));
    std::string out;
    for (const std::string& e : extras) out += list_separator(", ", l.tag()) + e;
    return out;
}

// "dp 8 × tp 8 × pp 1 × cp 1, ZeRO-1, 1F1B, offload" (ep too for a mixture of experts); a split
// that formed no layout names its micro-batch size instead of a ZeRO stage and schedule. Compact,
// the split names only its degrees above 1 after dp ("dp 8 × tp 8, ZeRO-1, 1F1B"); without
// extras, it leaves out what else sets the layout apart.
std::string row_text(const Locale& l, const engine::PlanSample& s, bool compact = false,
                     bool extras = true) {
    const engine::Config& c = s.entry.config;
    const engine::Parallel& p = c.layout;
    const std::string times = list_separator(" × ", l.tag());
    std::string out = "dp " + format_count(p.dp(), l);
    const auto degree = [&](const char* name, int n) {
        if (!compact || n > 1) out += times + name + " " + format_count(n, l);
    };
    degree("tp", p.tp);
    degree("pp", p.pp);
    degree("cp", p.cp);
    if (c.model.experts > 0) degree("ep", p.ep);
    if (s.fate == engine::PlanFate::no_divide)
        return l.tr("{layout}, micro-batch {n}", {{"layout", out}, {"n", c.training.micro_batch}});
    const std::string comma = list_separator(", ", l.tag());
    out += comma + "ZeRO-" + std::to_string(p.zero) + comma +
           std::string(engine::to_string(c.training.schedule));
    if (c.training.schedule == engine::Schedule::interleaved)
        out += " ×" + format_count(c.training.chunks, l);
    return extras ? out + extras_text(l, c) : out;
}

// Which rows of a sample share their name but for the extras: those need them to be told apart.
std::vector<bool> sharing_names(const Locale& l, const std::vector<engine::PlanSample>& sample) {
    std::map<std::string, int> count;
    for (const engine::PlanSample& row : sample) ++count[row_text(l, row, false, false)];
    std::vector<bool> shared;
    for (const engine::PlanSample& row : sample)
        shared.push_back(count[row_text(l, row, false, false)] > 1);
    return shared;
}

// One state's search: the planner's result and, per sample row, where it stands and falls.
// A sample row's name as drawn, fitted once per search: [0] in its place, [1] ranked (indented).
using RowName = std::pair<std::string, TextStyle>;

struct Search {
    engine::PlanResult result;
    engine::Layout3D winner;
    std::map<engine::PlanFate, long long> totals;
    std::vector<std::array<RowName, 2>> names;  // per sample row
};

// engine::plan is a pure function of the configuration and takes up to a tenth of a second
// (much longer under the sanitizers); the loader's cannot_draw and every fresh chapter of the same
// storyboard ask for the same searches, so the last few are kept.
engine::PlanResult run_plan(const engine::Config& c) {
    static std::mutex mutex;
    static std::deque<std::pair<engine::Config, engine::PlanResult>> kept;
    const std::lock_guard lock(mutex);
    for (const auto& [config, result] : kept)
        if (config == c) return result;
    const long long batch = 1LL * c.layout.dp() * c.training.micro_batch * c.training.micro_batches;
    kept.emplace_back(
        c, engine::plan(c, {kTop, int(std::min<long long>(batch, INT32_MAX)), kSamplePerFate}));
    if (kept.size() > kKeptSearches) kept.pop_front();
    return kept.back().second;
}

// The start of the last line spoken inside (start, end): after a `set:`, the line that names the
// new winner (the chapter's beats are in time order); none when no line starts there.
std::optional<double> last_line(const ChapterSpec& spec, double start, double end) {
    std::optional<double> at;
    for (const Beat& b : spec.beats)
        if (b.at > start && b.at < end) at = b.at;
    return at;
}

// Where state k's search stands at chapter time t, in the default choreography's seconds.
// Each state's search has its window: the first from the chapter's start, a later one from
// halfway through its `set:`, each until the next `set:` (or the chapter's end). It plays at
// the pace the chapter's length gives the default choreography, faster where that would leave
// the winner less than kReplayTail s of its window (half, in a short one) or rank its survivors
// after the last line of its window begins, the line that names its winner (up to
// kMostReplayPace); the first one on the beats that show its phases where some do.
double search_time(const ChapterSpec& spec, const Timeline& timeline,
                   const Choreography& choreography, int k, double t) {
    if (k == 0 && choreography.pinned()) return std::max(0.0, choreography.authored(t));
    const auto& states = timeline.states();
    const double start = k == 0 ? 0 : timeline.state_start(k) + timeline.state_over(k) / 2;
    const double end =
        k + 1 < static_cast<int>(states.size()) ? timeline.state_start(k + 1) : spec.duration;
    const double window = std::max(end - start, 1e-6);
    const double search = std::max(window - kReplayTail, window / 2);
    double pace = std::max(kDefaultDuration / spec.duration, kRackAt / search);
    if (const auto named = last_line(spec, start, end); k > 0 && named)
        pace = std::max(pace, std::min(kRiseAt / (*named - start), kMostReplayPace));
    return std::max(0.0, t - start) * pace;
}

// Whether the search on screen at t has ranked its survivors: from then the chapter's figures
// are its winner's ("—" before).
bool ranked_at(const ChapterSpec& spec, double t, int fps) {
    const Timeline timeline(spec, fps);
    const Choreography choreography(spec, find_kind(spec.kind));
    return search_time(spec, timeline, choreography, timeline.morph_at(t).shown(), t) >= kRiseAt;
}

class PlanChapter final : public ChapterBase {
  public:
    PlanChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          rows_in_{kRowsAt, kRowStagger},
          rack_in_(Fade::in(kRackAt)) {
        for (const engine::Config& c : timeline_.states()) {
            Search& s = searches_.emplace_back();
            s.result = run_plan(c);
            const engine::Config& w = s.result.best.front().config;
            s.winner = engine::layout_3d(w);
            s.totals = {{engine::PlanFate::no_divide, s.result.batch_splits_dropped},
                        {engine::PlanFate::no_fit, s.result.considered - s.result.feasible},
                        {engine::PlanFate::slower,
                         s.result.feasible - static_cast<long long>(s.result.best.size())},
                        {engine::PlanFate::ranked, static_cast<long long>(s.result.best.size())}};
            const std::vector<bool> shared = sharing_names(locale_, s.result.sample);
            for (std::size_t i = 0; i < s.result.sample.size(); ++i)
                s.names.push_back(
                    {fitted(s.result.sample[i], shared[i], frame::kLeft),
                     fitted(s.result.sample[i], shared[i], frame::kLeft + kRankIndent)});
            one_size(s, 0, [](const engine::PlanSample&) { return true; });
            one_size(s, 1, [](const engine::PlanSample& row) {
                return row.fate == engine::PlanFate::ranked;
            });
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        // The first state's search plays out; a `set:` fades the last search out over its first
        // half, then the new state's search plays again from the start.
        if (m.from != m.to) add_search(s, m.from, search_time(m.from, t), leaving(m));
        add_search(s, m.to, search_time(m.to, t), 1);
        add_frame(s, t);
        return s;
    }

    // The winner's figures; its card is the expected peak the planner ranks by, named so. Until
    // the search on screen has ranked its survivors there is no winner yet: each figure is "—"
    // (after a `set:` the old winner's were of the old question, the new one's not yet found).
    std::vector<Stat> stats_at(double t) const override {
        const engine::Report& w = winner_at(t);
        std::vector<Stat> stats = stat_panel(w);
        stats.front() = {tr("Expected peak"),
                         format_bytes(w.per_gpu.expected.total.value, locale_)};
        const int shown = timeline_.morph_at(t).shown();
        if (search_time(shown, t) < kRiseAt)
            for (Stat& stat : stats) stat = {stat.label, "—"};
        return stats;
    }
    const engine::Report& winner_at(double t) const {
        return searches_[timeline_.morph_at(t).shown()].result.best.front().report;
    }

  private:
    double search_time(int k, double t) const {
        return story::search_time(spec_, timeline_, choreography_, k, t);
    }

    double fall_at(engine::PlanFate f) const {
        for (const Fall& fall : kFalls)
            if (fall.fate == f) return fall.at;
        return kRiseAt;
    }

    // How far a row has gone: 0 standing, struck through by 1, faded out by 2.
    double gone(engine::PlanFate f, double t) const {
        if (f == engine::PlanFate::ranked) return 0;
        const double start = fall_at(f);
        return progress(t, start, kStrikeFor) + progress(t, start + kStrikeFor, kFadeFor);
    }

    void add_search(Scene& s, int state, double t, double alpha) const {
        if (alpha <= 0) return;
        const Search& search = searches_[state];
        const engine::Config& c = timeline_.states()[state];
        s.add(Text{frame::kLeft, kHeaderY,
                   tr("Candidates for {model} on {n} × {gpu}",
                      {{"model", c.model.name},
                       {"n", format_int(c.layout.gpus, locale_)},
                       {"gpu", gpu_display_name(c.cluster.gpu)}}),
                   style_of(Role::note), palette_.muted},
              alpha * rows_in_.at(t, 0));
        add_rows(s, search, rows_in(state), t, alpha);
        add_counts(s, search, t, alpha);
        add_winner(s, search, c.cluster, alpha * rack_in_.at(t));
    }

    // The rows' entrance: staggered; a replayed search's rows all in within kReplayRowsIn, as it
    // plays faster (its window ends on the line naming its winner) and each row must stay
    // readable before it falls.
    Stagger rows_in(int state) const {
        if (state == 0) return rows_in_;
        return rows_in_.within(kReplayRowsIn, int(searches_[state].result.sample.size()));
    }

    void add_rows(Scene& s, const Search& search, const Stagger& rows_in, double t,
                  double alpha) const {
        const auto& sample = search.result.sample;
        const auto& best = search.result.best;
        const double rise = progress(t, kRiseAt, kRiseFor);
        for (std::size_t i = 0; i < sample.size(); ++i) {
            const engine::PlanSample& row = sample[i];
            const double g = gone(row.fate, t);
            const double u = rows_in.at(t, static_cast<int>(i)) * std::clamp(2 - g, 0.0, 1.0);
            if (u <= 0) continue;
            const double y = kRowsTop + kRowPitch * (static_cast<double>(i) + 0.5);
            if (row.fate != engine::PlanFate::ranked) {
                add_row(s, row, search.names[i][0], "", y, std::min(g, 1.0), alpha * u, 0);
                continue;
            }
            // The ranked rows leave their places and reappear in rank order at the top (a
            // cross-fade: rows sliding past each other would cross).
            const auto k =
                std::find_if(best.begin(), best.end(),
                             [&](const auto& b) { return b.config == row.entry.config; }) -
                best.begin();
            add_row(s, row, search.names[i][0], "", y, 0, alpha * u * std::max(0.0, 1 - 2 * rise),
                    0);
            add_row(s, row, search.names[i][1], format_count(k + 1, locale_) + ".",
                    kRowsTop + kRowPitch * (k + 0.5), 0, alpha * u * std::max(0.0, 2 * rise - 1),
                    1);
        }
    }

    // A row's name in the room left of the memory column: whole at the label size where it
    // fits, else at a smaller size down to the least the style allows, compact where even that
    // would run into the figures (a long language, a layout with every extra), and without its
    // extras where still too long, unless another row shares the rest of its name.
    RowName fitted(const engine::PlanSample& row, bool shared, double x) const {
        const double room =
            kMemRight - metrics_.measure("0,000 GB", kNumber).advance - kNameGap - x;
        const TextStyle least = sized(kRowText, kLeastLabelPx);
        const auto too_long = [&](const std::string& t) {
            return metrics_.measure(t, least).advance > room;
        };
        std::string text = row_text(locale_, row);
        if (too_long(text)) text = row_text(locale_, row, true);
        if (too_long(text) && !shared) text = row_text(locale_, row, true, false);
        const double width = metrics_.measure(text, kRowText).advance;
        if (width <= room) return {text, kRowText};
        return {text, sized(kRowText, std::max(kLeastLabelPx, kRowText.size * room / width))};
    }

    // A table reads in one size: the names drawn together (every sample row in its place, or
    // the ranked few) all take the smallest size any of them was fitted at.
    template <typename Drawn>
    static void one_size(Search& s, std::size_t column, Drawn drawn) {
        double size = kRowText.size;
        for (std::size_t i = 0; i < s.names.size(); ++i)
            if (drawn(s.result.sample[i])) size = std::min(size, s.names[i][column].second.size);
        for (std::array<RowName, 2>& name : s.names) name[column].second = sized(kRowText, size);
    }

    void add_row(Scene& s, const engine::PlanSample& row, const RowName& name,
                 const std::string& rank, double y, double strike, double alpha,
                 double ranked) const {
        if (alpha <= 0) return;
        const double x = frame::kLeft + ranked * kRankIndent;
        const auto& [text, style] = name;
        const Color color = ranked > 0 ? palette_.text : palette_.muted;
        const double base = centred_baseline(metrics_, text, kRowText, y);
        if (ranked > 0) s.add(Text{frame::kLeft, base, rank, kRowText, palette_.highlight}, alpha);
        s.add(Text{x, base, text, style, color}, alpha);
        const bool layout = row.fate != engine::PlanFate::no_divide;
        const engine::Report& r = row.entry.report;
        // The expected peak, which the planner judges a layout's fit by (engine/peak.hpp).
        s.add(Text{kMemRight, base,
                   layout ? format_bytes(r.per_gpu.expected.total.value, locale_) : "—", kNumber,
                   color, Align::right},
              alpha);
        s.add(Text{kTimeRight, base, layout ? format_time(r.step.seconds, locale_) : "—", kNumber,
                   color, Align::right},
              alpha);
        if (strike > 0)
            s.add(Line{{frame::kLeft, y},
                       {lerp(frame::kLeft, kTimeRight, strike), y},
                       palette_.comm,
                       3},
                  alpha);
    }

    // The running counts: the candidates (the layouts considered and the splits skipped before
    // they formed one, so the four counts below sum to it), then each reason's total as its rows
    // fall, and the ranked few.
    void add_counts(Scene& s, const Search& search, double t, double alpha) const {
        const auto line = [&](int k, const std::string& label, double value, double u) {
            if (u <= 0) return;
            const double y = kCountsTop + kCountPitch * k;
            s.add(Text{kCountsX, y, label, style_of(Role::note), palette_.muted}, alpha * u);
            s.add(Text{frame::kRight, y, format_int(std::llround(value), locale_), kNumber,
                       palette_.text, Align::right},
                  alpha * u);
        };
        const double in = rows_in_.at(t, 0);
        const long long candidates = search.result.considered + search.result.batch_splits_dropped;
        line(0, tr("Candidates"), candidates * progress(t, kRowsAt, 2.0), in);
        int k = 1;
        for (const Fall& f : kFalls) {
            const double start = f.at;
            line(k++, tr("✗ {reason}", {{"reason", tr(f.reason)}}),
                 search.totals.at(f.fate) * progress(t, start, kCountFor),
                 progress(t, start, kStrikeFor));
        }
        line(k, tr("✓ ranked"), search.totals.at(engine::PlanFate::ranked),
             progress(t, kRiseAt, kRiseFor));
    }

    // The winner's first node: its cards tagged with their coordinates, and its axes' legend.
    void add_winner(Scene& s, const Search& search, const engine::Cluster& cluster,
                    double alpha) const {
        if (alpha <= 0) return;
        const engine::Layout3D& l = search.winner;
        const int cards = std::min(l.gpus, l.gpus_per_node);
        const int nodes = (l.gpus + l.gpus_per_node - 1) / l.gpus_per_node;
        // As tall as its cards' tags need, not the whole picture: taller cards stood half empty.
        const double card_h =
            kTagTop + kTagPitch * (double(rank_tags(l, l.ranks[0], locale_, true).size()) - 1) +
            kTagBottom;
        const Box node{kNodeLeft, kNodeTop, kNodeRight - kNodeLeft,
                       std::min(frame::kPictureBottom - kNodeTop, kNodeBand + card_h + kNodePad)};
        const std::string name =
            nodes > 1 ? tr("Node 0 of {nodes}: the winner's first node", {{"nodes", nodes}})
                      : tr("Node 0: the winner's layout");
        add_items(s, node_frame(palette_, node, name), alpha);
        add_legend(s, palette_, metrics_, node.x + kNodePad, node.y - 14,
                   axes_legend(palette_, locale_, l, cluster), alpha);
        const Box row{node.x + kNodePad, node.y + kNodeBand, node.w - 2 * kNodePad,
                      node.h - kNodeBand - kNodePad};
        std::vector<Box> boxes;
        for (int r = 0; r < cards; ++r)
            boxes.push_back(row_cell(row, l.gpus_per_node, r, kCardGap));
        add_groups(s, l, boxes, alpha);
        for (int r = 0; r < cards; ++r) {
            const Box& b = boxes[static_cast<std::size_t>(r)];
            add_items(s, gpu_tile(palette_, metrics_, {b, format_count(r, locale_), 22}), alpha);
            double y = b.y + kTagTop;
            // The node's cards are narrow: brief tags, "TP 3".
            for (const auto& [focus, tag] : rank_tags(l, l.ranks[r], locale_, true)) {
                s.add(Text{b.cx(), y, tag, style_of(Role::small), group_color(palette_, focus),
                           Align::center},
                      alpha);
                y += kTagPitch;
            }
        }
    }

    // The groups of the layout's innermost split (TP, else CP, else a replica's pipeline), which
    // hold consecutive ranks (engine::layout_3d: tp fastest, then cp, then pp), among the node's
    // cards: outlined in the group's colour and named above. Groups of one card are the cards.
    void add_groups(Scene& s, const engine::Layout3D& l, const std::vector<Box>& cards,
                    double alpha) const {
        const RackFocus focus = l.tp > 1   ? RackFocus::tp
                                : l.cp > 1 ? RackFocus::cp
                                : l.pp > 1 ? RackFocus::pp
                                           : RackFocus::none;
        if (focus == RackFocus::none) return;
        const Color color = group_color(palette_, focus);
        const auto groups = rank_groups(l, focus, static_cast<int>(cards.size()));
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (groups[g].size() < 2) continue;
            const Box box = inflate(bounding({cards[static_cast<std::size_t>(groups[g].front())],
                                              cards[static_cast<std::size_t>(groups[g].back())]}),
                                    kGroupInflate);
            s.add(group_outline(box, color), alpha * kGroupOutlineAlpha);
            const Point at = group_label_at(box);
            s.add(Text{at.x, at.y, tr(group_name(focus), {{"n", static_cast<int>(g)}}),
                       style_of(Role::small), color},
                  alpha);
        }
    }

    std::vector<Search> searches_;
    const Stagger rows_in_;
    const Fade rack_in_;
};

// The winner's node is one row of cards, and there must be a winner to draw.
constexpr int kMaxPerNode = 8;

std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.cluster.gpus_per_node > kMaxPerNode)
        return "plan draws the winner's node as one row of at most " + std::to_string(kMaxPerNode) +
               " cards: gpus_per_node = " + std::to_string(c.cluster.gpus_per_node);
    if (c.layout.dp() < 1 || !run_plan(c).best.empty()) return std::nullopt;
    return "plan finds no layout of " + c.model.name + " that fits " +
           std::to_string(c.layout.gpus) + " x " + c.cluster.gpu.name +
           ", so it has no winner to draw";
}

// The figures on screen are the winner's, as the stat panel's.
engine::Config winner(const engine::Config& c) { return run_plan(c).best.front().config; }

const FactRow kStep{"step.seconds", N_("Step time"), Shown::seconds,
                    [](const engine::Report& r) { return r.step.seconds; }};

const KindRegistrar registrar{{
    .name = "plan",
    .default_duration = kDefaultDuration,
    .settable = {"model", "gpus", "gpu", "seq_len", "micro_batches"},
    .make = make_of<PlanChapter>,
    .cannot_draw = cannot_draw,
    .shows = "the planner's search (engine::plan, as `shardreel plan` runs it, top 3, "
             "global batch = dp x micro_batch x micro_batches of the chapter's config): a "
             "sample of the candidates (at most 3 per fate, spread evenly over the search "
             "order) as rows, `dp × tp × pp × cp (× ep for experts), ZeRO-k, schedule` and what "
             "else sets it apart (recompute, offload, hybrid sharding) with the expected "
             "peak memory per GPU (what the planner judges fit by) and step time, the names at "
             "one size (the smallest any needs to fit, 22 px at least); the rows whose "
             "split leaves the global batch undivided, "
             "then those that do not fit, then those slower than the top 3 struck through "
             "and faded, each reason's count running up to the planner's total (the count of "
             "candidates above them is the layouts considered plus the splits skipped, so the "
             "four sum to it); the ranked "
             "three reappearing in order; the winner's first node, its cards tagged with "
             "their TP, CP, stage, replica and EP coordinates, the groups of its innermost "
             "split (TP, else CP, else a replica's pipeline: consecutive ranks) outlined "
             "and named as layout_3d outlines them, and the legend of its axes (layout_3d's "
             "vocabulary); the stat panel is the winner's once the ranked three rise (\"—\" "
             "before: no winner yet). A `set:` fades the search out "
             "over its first half and plays the new state's search from the start, in the "
             "time left before the next `set:` or the chapter's end (faster than the "
             "default pace when that is short), ranking as the last line in that time, the "
             "one naming the new winner, begins",
    .goldens = {{"chapter_plan", 20, "the ranked three and the winner's node"}},
    // The first search's: a later one (after a `set:`) plays in its own window.
    .phases = {{"no_divide", kFalls[0].at, "splits that cannot share out the batch struck"},
               {"no_fit", kFalls[1].at, "layouts that overflow the GPU struck"},
               {"slower", kFalls[2].at, "all but the fastest few struck"},
               {"ranked", kRiseAt, "the fastest few rise, ranked by step time"},
               {"winner", kRackAt, "the winner on the rack"}},
    .facts = {.rows = {rows::dp, rows::tp, rows::pp, rows::memory, kStep},
              .formulas = {formulas::replicas, formulas::memory},
              .shown = winner,
              .drawn_at = ranked_at},
}};

}  // namespace

}  // namespace story

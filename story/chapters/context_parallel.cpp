// `context_parallel`: one long sequence split over the cp GPUs of a context-parallel group. The
// causal attention matrix (queries down, keys across, the lower triangle) cut into 2 x cp chunks,
// each chunk row named by the GPU whose queries it holds; the GPU cards, where queries stay while
// keys and values travel (round a ring, or all-gathered at once) and the blocks each GPU can now
// compute fill in step by step; each GPU's attention work (engine::cp_attention), the naive split
// leaving the first GPU idle against the balanced one; activations per GPU and the key/value
// bytes in the stat panel. `set:` morphs cp, the split, the exchange and the sequence length.
#include "engine/context_parallel.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "story/chapter/chapter_base.hpp"
#include "story/draw/draw.hpp"
#include "story/text/format.hpp"
#include "story/vocab/cards.hpp"
#include "story/vocab/cluster_vocab.hpp"

namespace story {

namespace {

constexpr double kDefaultDuration = 36;
constexpr int kMaxCp = 8;
// Choreography, in seconds of the default duration.
constexpr double kMatrixAt = 0.3, kCardsAt = 1.0, kExchangeAt = 2.0, kWorkAt = 3.0;
// One step of the exchange (s, not scaled): keys and values travel, then the blocks they unlock
// light up; the filled matrix holds before the next pass starts from empty.
constexpr double kStep = 1.5, kTravel = 0.6, kHold = 2.0;

// Three columns under their headings: the matrix, the cards, the work bars; a note under each.
constexpr double kHeaderBaseline = 290, kFootBaseline = 890;
constexpr Box kMatrix{176, 316, 530, 530};
constexpr double kRowLabelGap = 10;
constexpr Box kCards{790, 316, 300, 530};
constexpr double kCardGap = 8, kMaxCardH = 80, kChip = 30, kChipInset = 12, kQueriesX = 110;
constexpr double kWrapOut = 26;  // the ring's way back, right of the cards
constexpr Box kBars{1180, 316, 640, 530};
constexpr double kBarShare = 0.46, kBarLabelGap = 12;
constexpr double kBlockGap = 2, kRingWidth = 3;

const TextStyle kChipStyle = tabular(weighted(style_of(Role::small), Weight::semibold));

class ContextChapter final : public ChapterBase {
  public:
    ContextChapter(const ChapterSpec& spec, const Video& video, const TextMetrics& metrics)
        : ChapterBase(spec, video, metrics),
          matrix_in_(Fade::in(at(kMatrixAt))),
          cards_in_{at(kCardsAt)},
          work_in_(Fade::in(at(kWorkAt))),
          exchange_in_(Fade::in(at(kExchangeAt))) {
        for (const engine::Config& c : timeline_.states()) {
            attention_.push_back(engine::cp_attention(c));
            splits_.push_back(c.layout.cp_split);
            modes_.push_back(c.layout.cp_mode);
            chunk_tokens_.push_back(engine::cp_chunk_tokens(c));
            seq_.push_back(c.training.seq_len);
            std::vector<Box> col;
            for (int r = 0; r < c.layout.cp; ++r)
                col.push_back(column_cell(kCards, c.layout.cp, r, kCardGap, kMaxCardH));
            cards_.push_back(std::move(col));
        }
    }

    Scene scene_at(double t) const override {
        Scene s = blank();
        const Morph m = timeline_.morph_at(t);
        add_headers(s, t);
        add_matrix(s, t, m);
        add_cards(s, t, m);
        add_exchange(s, t, m);
        add_work(s, t, m);
        add_feet(s, t, m);
        add_frame(s, t);
        return s;
    }

    // The stat panel: the busiest card, its activations (divided by cp), and the key/value
    // traffic of context parallelism, all the engine's.
    std::vector<Stat> stats_at(double t) const override {
        const engine::Report& r = report_at(t);
        return {per_card(r),
                {tr("Activations"), format_bytes(r.per_gpu.activations.value, locale_)},
                {tr("K, V / step"), format_bytes(r.comm.cp_per_gpu.value, locale_),
                 format_time(r.comm.cp_time.value, locale_)}};
    }

  private:
    int cp(int k) const { return attention_[k].cp; }
    std::string gpu_name(int rank) const { return tr("GPU {n}", {{"n", rank}}); }

    // The exchange step showing at t (-1 before it starts, steps at the hold), and how far into
    // that step: the blocks of a step light up once its keys and values have arrived.
    struct Phase {
        int step = -1;
        double into = 0;  // s
    };
    Phase phase(double t, int k) const {
        const double start = at(kExchangeAt);
        if (t < start) return {};
        const int steps = attention_[k].steps;
        const double u = std::fmod(t - start, steps * kStep + kHold);
        const int step = std::min(static_cast<int>(u / kStep), steps);
        return {step, u - step * kStep};
    }
    // Whether the keys and values of `step` have arrived (step 0: a GPU's own, there from the
    // start).
    static bool arrived(const Phase& p, int step) {
        return p.step > step || (p.step == step && (step == 0 || p.into >= kTravel));
    }

    // --- the matrix --------------------------------------------------------------------------

    Box block(int k, int q, int key) const {
        const int n = attention_[k].chunks();
        return inset(grid_cell(kMatrix, n, n, key, q, 0, 0), kBlockGap / 2, kBlockGap / 2);
    }

    void add_headers(Scene& s, double t) const {
        const TextStyle note = style_of(Role::note);
        s.add(Text{frame::kLeft, kHeaderBaseline, tr("Attention: queries down, keys across"), note,
                   palette_.muted},
              matrix_in_.at(t));
        s.add(Text{kCards.x, kHeaderBaseline, tr("Queries stay, K and V travel"), note,
                   palette_.muted},
              cards_in_.at(t, 0));
        s.add(Text{kBars.x, kHeaderBaseline, tr("Attention work per GPU, in blocks"), note,
                   palette_.muted},
              work_in_.at(t));
    }

    // The lower triangle, block by block: done blocks filled, the ones a step unlocks lit, the
    // rest outlined; the diagonal's blocks are half masked (a triangle). Grid and rows change
    // with cp and the split, so they swap at halfway; one exchange shows them filling.
    void add_matrix(Scene& s, double t, const Morph& m) const {
        const int k = shown_state(m);
        const double alpha = matrix_in_.at(t) * swap_alpha(m);
        if (alpha <= 0) return;
        const Phase p = phase(t, k);
        for (const engine::CpBlock& b : attention_[k].blocks) {
            const Box box = block(k, b.q, b.k);
            const bool done = arrived(p, b.step) && p.step >= 0;
            const bool lit = done && p.step == b.step && p.step < attention_[k].steps;
            const Color fill = lit    ? palette_.highlight
                               : done ? palette_.activations
                                      : palette_.panel;
            add_block(s, box, b.diagonal(), fill, alpha);
        }
        add_row_labels(s, k, alpha);
        add_masked_note(s, alpha);
    }

    void add_block(Scene& s, const Box& b, bool diagonal, Color fill, double alpha) const {
        if (!diagonal) {
            s.add(filled(b, 3, fill, palette_.grid, 1), alpha);
            return;
        }
        s.add(Path{{{b.x, b.y}, {b.x, b.bottom()}, {b.right(), b.bottom()}},
                   true,
                   fill,
                   palette_.grid,
                   1},
              alpha);
    }

    // Each chunk row named by the GPU holding its queries.
    void add_row_labels(Scene& s, int k, double alpha) const {
        const TextStyle style = style_of(Role::small);
        for (int q = 0; q < attention_[k].chunks(); ++q) {
            const Box row = block(k, q, 0);
            const std::string name = gpu_name(engine::cp_chunk_owner(q, cp(k), splits_[k]));
            s.add(Text{kMatrix.x - kRowLabelGap, centred_baseline(metrics_, name, style, row.cy()),
                       name, style, palette_.muted, Align::right},
                  alpha);
        }
    }

    // In the masked triangle: why half the matrix is empty, on the lines the message breaks into.
    void add_masked_note(Scene& s, double alpha) const {
        TextColumn col(metrics_, kMatrix.right(), kMatrix.y + 8, Align::right);
        std::istringstream lines(tr("masked: no token\nsees a later one"));
        for (std::string line; std::getline(lines, line);)
            col.line(line, Role::note, palette_.muted);
        col.add_to(s, alpha);
    }

    // --- the cards -----------------------------------------------------------------------------

    Box card(const Morph& m, int r) const {
        const auto& a = cards_[m.from];
        const auto& b = cards_[m.to];
        const int ia = std::min<int>(r, static_cast<int>(a.size()) - 1);
        const int ib = std::min<int>(r, static_cast<int>(b.size()) - 1);
        return lerp(a[ia], b[ib], m.u);
    }

    // Where a card keeps the keys and values it holds: at its right.
    static Point chip_home(const Box& card) {
        return {card.right() - kChipInset - kChip, card.cy()};
    }

    // Cards stay (new ones fade in, dropped ones out); each names its query chunks.
    void add_cards(Scene& s, double t, const Morph& m) const {
        const int n = std::max(cp(m.from), cp(m.to));
        const int k = shown_state(m);
        for (int r = 0; r < n; ++r) {
            double alpha = cards_in_.at(t, r);
            if (r >= cp(m.to)) alpha *= leaving(m);
            if (r >= cp(m.from)) alpha *= arriving(m);
            if (alpha <= 0) continue;
            const Box b = card(m, r);
            add_items(s, gpu_tile(palette_, metrics_, {b, gpu_name(r), 22, std::nullopt, true}),
                      alpha);
            if (r >= cp(k)) continue;
            const auto chunks = engine::cp_chunks(r, cp(k), splits_[k]);
            const std::string queries =
                "Q " + format_count(chunks[0], locale_) + " + " + format_count(chunks[1], locale_);
            s.add(Text{b.x + kQueriesX, centred_baseline(metrics_, queries, kChipStyle, b.cy()),
                       queries, kChipStyle, palette_.text},
                  alpha * swap_alpha(m));
        }
    }

    // Whose keys and values a card holds in a phase (before the exchange and at step 0 its own;
    // then the last hand-on's owner, or everyone's once all-gathered), as its chip's label.
    std::string held(int k, int r, const Phase& p) const {
        const int step = std::min(p.step, attention_[k].steps - 1);
        int owner = r, arrivals = 0;
        for (const engine::CpTransfer& x : attention_[k].transfers)
            if (x.dst == r && x.step == step && arrived(p, x.step)) owner = x.owner, ++arrivals;
        return arrivals > 1 ? tr("all") : format_count(owner, locale_);
    }

    // The path keys and values take from one card's chip to another's: straight to a neighbour
    // (or anywhere, all-gathered), round the right of the cards from the last back to the first.
    std::vector<Point> route(const Morph& m, int k, const engine::CpTransfer& x) const {
        const Point a = chip_home(card(m, x.src)), b = chip_home(card(m, x.dst));
        if (modes_[k] != engine::CpMode::ring || x.src < x.dst) return {a, b};
        const double out = card(m, 0).right() + kWrapOut;
        return {a, {out, a.y}, {out, b.y}, b};
    }

    // The ring drawn between the cards' chips; the chips held, and the ones in flight.
    void add_exchange(Scene& s, double t, const Morph& m) const {
        const int k = shown_state(m);
        const double alpha = exchange_in_.at(t) * swap_alpha(m);
        if (alpha <= 0) return;
        const Phase p = phase(t, k);
        if (modes_[k] == engine::CpMode::ring && cp(k) > 1) add_ring(s, m, k, alpha);
        // Round a ring each chip names whose keys and values it carries; all-gathered, the copies
        // of one GPU's leave together, on top of one another, so they go unnamed.
        const bool named = modes_[k] == engine::CpMode::ring;
        for (const engine::CpTransfer& x : attention_[k].transfers) {
            if (x.step != p.step || p.into >= kTravel) continue;
            const double u = ease(Ease::in_out_cubic, p.into / kTravel);
            add_token(s, palette_, metrics_, along(route(m, k, x), u), kChip, palette_.comm,
                      named ? format_count(x.owner, locale_) : "", alpha);
        }
        const bool travelling = p.step > 0 && p.step < attention_[k].steps && p.into < kTravel;
        if (travelling) return;
        for (int r = 0; r < cp(k); ++r)
            add_token(s, palette_, metrics_, chip_home(card(m, r)), kChip, palette_.comm,
                      held(k, r, p), alpha);
    }

    // One hand-on per card: down to the next card, and from the last back round to the first.
    void add_ring(Scene& s, const Morph& m, int k, double alpha) const {
        const Color c = with_alpha(palette_.comm, 0.6);
        for (int r = 0; r + 1 < cp(k); ++r) {
            const Point a = chip_home(card(m, r)), b = chip_home(card(m, r + 1));
            s.add(Arrow{{a.x, a.y + kChip / 2}, {b.x, b.y - kChip / 2}, c, kRingWidth, 8}, alpha);
        }
        const engine::CpTransfer back{1, cp(k) - 1, 0, 0};
        std::vector<Point> path = route(m, k, back);
        path.back().x += kChip;  // stop at the chip's edge
        s.add(Path{path, false, std::nullopt, c, kRingWidth}, alpha);
    }

    // --- the work ------------------------------------------------------------------------------

    // Each GPU's blocks as a bar against the busiest GPU's: the rest of the row, hatched, is
    // time it waits. Bars count while the split or cp morphs.
    void add_work(Scene& s, double t, const Morph& m) const {
        const double alpha = work_in_.at(t);
        if (alpha <= 0) return;
        const int n = std::max(cp(m.from), cp(m.to));
        const double busiest = lerp(max_work(m.from), max_work(m.to), m.u);
        for (int r = 0; r < n; ++r) {
            double a = alpha;
            if (r >= cp(m.to)) a *= leaving(m);
            if (r >= cp(m.from)) a *= arriving(m);
            if (a <= 0) continue;
            // The bar slides; its count is the shown state's.
            const double work = lerp(work_of(m.from, r), work_of(m.to, r), m.u);
            add_bar(s, card(m, r), work, busiest, work_of(m.shown(), r), a);
        }
    }

    double work_of(int k, int r) const {
        const auto& w = attention_[k].work;
        return r < static_cast<int>(w.size()) ? w[r] : 0.0;
    }
    double max_work(int k) const {
        const auto& w = attention_[k].work;
        return *std::max_element(w.begin(), w.end());
    }

    void add_bar(Scene& s, const Box& row, double work, double busiest, double blocks,
                 double alpha) const {
        const double h = std::min(row.h * kBarShare + 8, row.h - 4);
        const double label_w =
            metrics_.measure(tr("{n} blocks", {{"n", "00"}}), kChipStyle).advance + kBarLabelGap;
        const double full = kBars.w - label_w;
        const Box whole{kBars.x, row.cy() - h / 2, full, h};
        Rect idle = filled(whole, 4, palette_.background, palette_.grid, 1);
        idle.hatch = palette_.idle;
        s.add(idle, alpha);
        const Box bar{whole.x, whole.y, full * work / busiest, h};
        s.add(filled(bar, 4, palette_.activations), alpha);
        const std::string label =
            tr("{n} blocks", {{"n", format_int(std::llround(blocks), locale_)}});
        s.add(Text{whole.right() + kBarLabelGap,
                   centred_baseline(metrics_, label, kChipStyle, row.cy()), label, kChipStyle,
                   palette_.text},
              alpha);
    }

    // --- notes under the columns ----------------------------------------------------------------

    void add_feet(Scene& s, double t, const Morph& m) const {
        const int k = shown_state(m);
        const TextStyle note = tabular(style_of(Role::note));
        // The three of the state shown, so they always multiply out (a tween of the chunk's
        // tokens once wrote "8 chunks of 15,872").
        const std::string chunks =
            tr("{tokens} tokens in {n} chunks of {per_chunk}",
               {{"tokens", format_int(std::llround(seq_[k]), locale_)},
                {"n", attention_[k].chunks()},
                {"per_chunk", format_int(std::llround(chunk_tokens_[k]), locale_)}});
        s.add(Text{frame::kLeft, kFootBaseline, chunks, note, palette_.muted},
              matrix_in_.at(t) * swap_alpha(m));
        s.add(Text{kCards.x, kFootBaseline, exchange_note(k), note, palette_.muted},
              exchange_in_.at(t) * swap_alpha(m));
        s.add(Text{kBars.x, kFootBaseline, split_note(k), note, palette_.muted},
              work_in_.at(t) * swap_alpha(m));
    }

    std::string exchange_note(int k) const {
        if (cp(k) == 1) return tr("cp 1: nothing to exchange");
        if (modes_[k] == engine::CpMode::ring)
            return tr("Ring: handed on {n} times", {{"n", cp(k) - 1}});
        return tr("All-gather: all K, V at once");
    }

    std::string split_note(int k) const {
        const int c = 2 * cp(k) - 1;
        if (splits_[k] == engine::CpSplit::naive) return tr("Naive: GPU r holds chunks 2r, 2r+1");
        return tr("Balanced: GPU r holds r and {c}-r", {{"c", c}});
    }

    const Fade matrix_in_;
    const Stagger cards_in_;
    const Fade work_in_, exchange_in_;
    std::vector<engine::CpAttention> attention_;
    std::vector<engine::CpSplit> splits_;
    std::vector<engine::CpMode> modes_;
    std::vector<double> chunk_tokens_, seq_;
    std::vector<std::vector<Box>> cards_;
};

std::optional<std::string> cannot_draw(const engine::Config& c) {
    if (c.layout.cp > kMaxCp)
        return "context_parallel draws at most " + std::to_string(kMaxCp) +
               " GPUs in a context-parallel group, got cp " + std::to_string(c.layout.cp);
    return std::nullopt;
}

const FactRow kCp{"layout.cp", N_("Context-parallel degree"), Shown::count,
                  [](const engine::Report& r) { return double(r.layout.cp); }};
const FactRow kKvSent{"comm_per_step.cp_bytes_per_gpu", N_("K, V / step"), Shown::bytes,
                      [](const engine::Report& r) { return r.comm.cp_per_gpu.value; }};
const FactRow kKvSeconds{"comm_per_step.cp_seconds", N_("Their time on the link"), Shown::seconds,
                         [](const engine::Report& r) { return r.comm.cp_time.value; }};

// Tokens per chunk s / 2cp, and the keys and values each GPU sends a step: k (cp - 1) chunks of C
// bytes per layer and micro-batch, k = 3 round the ring (forward, and K, V with their gradients
// backward) or 2 all-gathered (an all-gather and a reduce-scatter), as engine/comm.cpp counts.
std::vector<Formula> cp_formulas(const engine::Config& c, const engine::Report& r,
                                 const Locale& l) {
    const int cp = r.layout.cp, s = c.training.seq_len;
    std::vector<Formula> out{formula(
        N_("Tokens per chunk"), frac(mi("s"), mn(format_count(2, l)) + mi("cp")),
        frac(mn(format_int(s, l)), mn(format_count(2, l)) + mo("\u00d7") + mn(format_int(cp, l))),
        format_int(s / (2 * cp), l), l)};
    if (cp < 2) return out;
    const int k = c.layout.cp_mode == engine::CpMode::ring ? 3 : 2;
    const int layers = r.activations.layers_per_gpu, m = c.training.micro_batches;
    const double chunk = r.comm.cp_per_gpu.value / (k * (cp - 1.0) * layers * m);
    const auto times = mo("\u00d7");
    out.push_back(formula(N_("K, V / step"),
                          mn(format_count(k, l)) + mo("(") + mi("cp") + mo("\u2212") +
                              mn(format_count(1, l)) + mo(")") + times + mi("L") + times + mi("m") +
                              times + mi("C"),
                          mn(format_count(k, l)) + mo("(") + mn(format_int(cp, l)) + mo("\u2212") +
                              mn(format_count(1, l)) + mo(")") + times + mn(format_int(layers, l)) +
                              times + mn(format_int(m, l)) + times + mn(format_bytes(chunk, l)),
                          format_bytes(r.comm.cp_per_gpu.value, l), l));
    return out;
}

const KindRegistrar registrar{{
    .name = "context_parallel",
    .default_duration = kDefaultDuration,
    .settable = {"cp", "cp_split", "cp_mode", "seq_len", "gpus", "nvlink", "network"},
    .make = make_of<ContextChapter>,
    .cannot_draw = cannot_draw,
    .shows = "one long sequence over a context-parallel group: the causal attention matrix "
             "(queries down, keys across, the lower triangle) cut into 2 x cp chunks, each "
             "chunk row named by the GPU whose queries it holds; GPU cards where the "
             "queries stay while keys and values travel (round a ring, hand-on by hand-on, "
             "or all-gathered at once) and the blocks each GPU can then compute fill in, "
             "step by step, from the engine's block schedule; each GPU's attention work in "
             "blocks (a diagonal block counts half) against the busiest GPU's, the rest of "
             "its row hatched as waiting: the naive split (chunks 2r, 2r+1) leaves GPU 0 "
             "idle, the balanced one (chunks r and 2cp-1-r) evens it out; activations per "
             "card and the key/value bytes per step and their time in the stat panel",
    .set_note = "cp at most 8: a wider group is refused at `check`",
    .goldens = {{"chapter_context_parallel", 26.2, "cp 8, balanced, the ring part-way round"}},
    .phases = {{"matrix", kMatrixAt, "the attention matrix, cut into chunks"},
               {"cards", kCardsAt, "the GPUs, each with its chunks' queries"},
               {"exchange", kExchangeAt, "keys and values around the ring, blocks filling in"},
               {"work", kWorkAt, "each GPU's share of the work"}},
    .facts = {.rows = {kCp, rows::activations, kKvSent, kKvSeconds, rows::memory},
              .formulas = {cp_formulas}},
}};

}  // namespace

}  // namespace story

// Reading a scene by where its texts sit: boxes from texts_of's absolute positions and the
// approximate metrics, then "under", "beside" and "cell" as a reader would take them.
#include "tests/story/on_screen.hpp"

#include <algorithm>
#include <optional>

#include "story/scene/layout.hpp"
#include "story/scene/text_metrics.hpp"

namespace on_screen {

namespace {

const story::ApproxTextMetrics kMetrics;

double overlap_x(const Shown& a, const Shown& b) {
    return std::min(a.right, b.right) - std::max(a.left, b.left);
}
bool overlaps_x(const Shown& a, const Shown& b) { return overlap_x(a, b) > 0; }

// other's middle lies within the label's height: one line of a row or legend.
bool on_line(const Shown& label, const Shown& other) {
    return other.middle() >= label.top && other.middle() <= label.bottom;
}

bool below(const Shown& label, const Shown& other) { return other.middle() > label.bottom; }

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

// The label's only occurrence; otherwise nullopt and a note saying why.
std::optional<Shown> only(const std::vector<Shown>& all, const std::string& label,
                          std::string& note) {
    std::vector<Shown> hits;
    std::copy_if(all.begin(), all.end(), std::back_inserter(hits),
                 [&](const Shown& t) { return t.text == label; });
    if (hits.size() == 1) return hits.front();
    note = hits.empty() ? "(no " + quoted(label) + " on screen)"
                        : "(" + quoted(label) + " shown " + std::to_string(hits.size()) + " times)";
    return std::nullopt;
}

// The texts that minimise `distance` among those `pick` accepts (several when tied).
template <class Pick, class Distance>
std::vector<Shown> nearest(const std::vector<Shown>& all, Pick pick, Distance distance) {
    std::vector<Shown> best;
    for (const Shown& t : all) {
        if (!pick(t)) continue;
        if (!best.empty() && distance(t) > distance(best.front()) + 0.5) continue;
        if (!best.empty() && distance(t) < distance(best.front()) - 0.5) best.clear();
        best.push_back(t);
    }
    return best;
}

// Of texts side by side, the ones that stand most under (or over) ref: a column's own figure
// rather than a neighbour's that only grazes it.
std::vector<Shown> most_aligned(const std::vector<Shown>& side_by_side, const Shown& ref) {
    return nearest(
        side_by_side, [](const Shown&) { return true; },
        [&](const Shown& t) { return -overlap_x(ref, t); });
}

// One text, or a note naming the label when there is none or more than one.
std::string one_of(const std::vector<Shown>& found, const std::string& where) {
    if (found.size() == 1) return found.front().text;
    if (found.empty()) return "(nothing " + where + ")";
    std::string note = "(" + std::to_string(found.size()) + " texts " + where + ":";
    for (const Shown& t : found) note += " " + quoted(t.text);
    return note + ")";
}

// The first line below `above` that overlaps label horizontally and lies within max_gap of its
// own size, the text on it that stands most under the label (several if tied, none if no line).
std::vector<Shown> next_under(const std::vector<Shown>& all, const Shown& label, const Shown& above,
                              double max_gap) {
    const auto line = nearest(
        all,
        [&](const Shown& t) {
            return overlaps_x(label, t) && below(above, t) &&
                   t.top - above.bottom <= max_gap * t.size;
        },
        [](const Shown& t) { return t.top; });
    return most_aligned(line, label);
}

Lines column_from(const std::vector<Shown>& all, const Shown& label, double max_gap) {
    Lines out;
    Shown above = label;
    for (;;) {
        const auto next = next_under(all, label, above, max_gap);
        if (next.size() != 1) {
            if (next.size() > 1) out.push_back(one_of(next, "side by side"));
            return out;
        }
        out.push_back(next.front().text);
        above = next.front();
    }
}

bool further_left(const Shown& a, const Shown& b) { return a.left < b.left; }

Lines left_to_right(std::vector<Shown> texts) {
    std::sort(texts.begin(), texts.end(), further_left);
    Lines out;
    for (const Shown& t : texts) out.push_back(t.text);
    return out;
}

std::vector<Shown> right_of(const std::vector<Shown>& all, const Shown& label) {
    std::vector<Shown> row;
    std::copy_if(all.begin(), all.end(), std::back_inserter(row),
                 [&](const Shown& t) { return on_line(label, t) && t.left >= label.right - 1; });
    std::sort(row.begin(), row.end(), further_left);
    return row;
}

}  // namespace

std::vector<Shown> shown(const story::Scene& s) {
    std::vector<Shown> out;
    for (const story::PlacedText& p : story::texts_of(s)) {
        if (p.opacity <= 0.99) continue;
        const story::Text& t = p.text;
        const story::TextExtent e = kMetrics.measure(t.text, t.style);
        const double left = t.align == story::Align::left    ? t.x
                            : t.align == story::Align::right ? t.x - e.advance
                                                             : t.x - e.advance / 2;
        out.push_back(
            {t.text, left, left + e.advance, t.y - e.ascent, t.y + e.descent, t.style.size});
    }
    return out;
}

long count(const story::Scene& s, const std::string& text) {
    const auto all = shown(s);
    return std::count_if(all.begin(), all.end(), [&](const Shown& t) { return t.text == text; });
}

std::string under(const story::Scene& s, const std::string& label) {
    const auto all = shown(s);
    std::string note;
    const auto at = only(all, label, note);
    const double anywhere_below = 1e9;
    return at ? one_of(next_under(all, *at, *at, anywhere_below), "under " + quoted(label)) : note;
}

std::string above(const story::Scene& s, const std::string& label) {
    const auto all = shown(s);
    std::string note;
    const auto at = only(all, label, note);
    if (!at) return note;
    const auto line = nearest(
        all, [&](const Shown& t) { return overlaps_x(*at, t) && t.middle() < at->top; },
        [&](const Shown& t) { return at->top - t.bottom; });
    return one_of(most_aligned(line, *at), "above " + quoted(label));
}

Lines column_under(const story::Scene& s, const std::string& label, double max_gap) {
    const auto all = shown(s);
    std::string note;
    const auto at = only(all, label, note);
    return at ? column_from(all, *at, max_gap) : Lines{note};
}

std::vector<Lines> rows_under(const story::Scene& s, const std::string& heading) {
    auto all = shown(s);
    std::string note;
    const auto at = only(all, heading, note);
    if (!at) return {{note}};
    std::erase_if(all, [&](const Shown& t) {
        const double centre = (t.left + t.right) / 2;
        return !below(*at, t) || t.top >= story::frame::kCaptionTop || centre < at->left ||
               centre > at->right;
    });
    std::sort(all.begin(), all.end(),
              [](const Shown& a, const Shown& b) { return a.middle() < b.middle(); });
    std::vector<Lines> rows;
    for (std::size_t i = 0; i < all.size();) {
        const Shown first = all[i];
        std::vector<Shown> row;
        for (; i < all.size() && on_line(first, all[i]); ++i) row.push_back(all[i]);
        rows.push_back(left_to_right(row));
    }
    return rows;
}

std::string beside(const story::Scene& s, const std::string& label) {
    const auto all = shown(s);
    std::string note;
    const auto at = only(all, label, note);
    if (!at) return note;
    const auto row = right_of(all, *at);
    return row.empty() ? "(nothing beside " + quoted(label) + ")" : row.front().text;
}

Lines row_beside(const story::Scene& s, const std::string& label) {
    const auto all = shown(s);
    std::string note;
    const auto at = only(all, label, note);
    if (!at) return {note};
    return left_to_right(right_of(all, *at));
}

std::string cell(const story::Scene& s, const std::string& row, const std::string& column) {
    const auto all = shown(s);
    std::string note;
    const auto at = only(all, row, note);
    if (!at) return note;
    // The heading of this table: the nearest `column` above the row.
    const auto heads = nearest(
        all, [&](const Shown& t) { return t.text == column && t.bottom < at->top; },
        [&](const Shown& t) { return at->top - t.bottom; });
    if (heads.size() != 1) return one_of(heads, "headed " + quoted(column) + " above the row");
    std::vector<Shown> hits;
    for (const Shown& t : right_of(all, *at))
        if (overlaps_x(heads.front(), t)) hits.push_back(t);
    return one_of(most_aligned(hits, heads.front()),
                  "in row " + quoted(row) + " under " + quoted(column));
}

Lines lowest_line(const story::Scene& s) {
    auto all = shown(s);
    if (all.empty()) return {};
    const Shown lowest = *std::max_element(
        all.begin(), all.end(), [](const Shown& a, const Shown& b) { return a.bottom < b.bottom; });
    std::erase_if(all, [&](const Shown& t) { return !on_line(lowest, t); });
    return left_to_right(all);
}

Lines stat(const story::Scene& s, const std::string& label) {
    const auto all = shown(s);
    const auto tops = nearest(
        all, [&](const Shown& t) { return t.text == label; }, [](const Shown& t) { return t.top; });
    if (tops.size() != 1) return {one_of(tops, "topmost reading " + quoted(label))};
    return column_from(all, tops.front(), 1);
}

}  // namespace on_screen

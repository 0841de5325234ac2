// GPU card drawing shared by every chapter.
#include "story/vocab/vocab.hpp"

#include <algorithm>
#include <cctype>

#include "story/scene/layout.hpp"
#include "story/text/format.hpp"

namespace story {

namespace {

// Everything kPad inside the card's edges; the capacity line kStackGap under the header's baseline.
constexpr double kPad = 14, kStackGap = 16;

TextStyle name_style(const CardSpec& c) { return {c.label_size, Weight::medium, false}; }
double header_baseline(const TextMetrics& m, const CardSpec& c) {
    return c.y + kPad + m.measure(c.name, name_style(c)).ascent;
}

void add_stack(std::vector<Item>& out, const CardSpec& c, const Box& area, double px_per_byte) {
    double y = area.bottom();
    for (const MemorySegment& seg : c.stack) {
        const double h = seg.bytes * px_per_byte;
        const double top = std::max(y - h, area.y);
        if (y - top > 0.01) out.push_back({Rect{area.x, top, area.w, y - top, 0, seg.color}});
        y = top;
    }
}

// Name at the top-left and capacity at the top-right when both fit the measured width;
// otherwise the name alone, centred.
void add_header(std::vector<Item>& out, const Palette& p, const TextMetrics& m, const Locale& l,
                const CardSpec& c) {
    const TextStyle name = name_style(c);
    const double baseline = header_baseline(m, c);
    if (c.capacity_label) {
        const TextStyle cap_style{std::max(22.0, c.label_size - 4), Weight::regular, true};
        const std::string cap = format_bytes(c.capacity, l);
        const double room = c.w - 2 * kPad;
        if (m.measure(c.name, name).advance + 12 + m.measure(cap, cap_style).advance <= room) {
            out.push_back({Text{c.x + kPad, baseline, c.name, name, p.muted, Align::left}});
            out.push_back(
                {Text{c.x + c.w - kPad, baseline, cap, cap_style, p.muted, Align::right}});
            return;
        }
    }
    out.push_back({Text{c.x + c.w / 2, baseline, c.name, name, p.muted, Align::center}});
}

}  // namespace

std::vector<Item> gpu_card(const Palette& p, const TextMetrics& m, const Locale& l,
                           const CardSpec& c) {
    std::vector<Item> out;
    out.push_back({Rect{c.x, c.y, c.w, c.h, 12, p.panel, p.grid, 2}});
    add_header(out, p, m, l, c);
    const Box area = stack_area(m, c);
    const double px_per_byte = area.h / c.capacity;
    double used = 0;
    for (const MemorySegment& seg : c.stack) used += seg.bytes;
    add_stack(out, c, area, px_per_byte);
    out.push_back({Line{{c.x + 6, area.y}, {c.x + c.w - 6, area.y}, p.text, 2, true}});

    const double over = used - c.capacity;
    // Not the rounding of a stack poured to the brim ("over by 0.000000687 kB" as a spill drained).
    if (c.show_overflow && over > c.capacity * 1e-9) {
        // Spill above the card, at the card's scale but capped so it stays on screen.
        const double h = std::min(over * px_per_byte, c.h * c.max_spill);
        add_overflow(out, p, overflow(c.stack, c.capacity),
                     {c.x + kPad, c.y - h, c.w - 2 * kPad, h}, true);
        // Centred over the card, kept inside the safe area where the label is wider than it.
        const TextStyle lab{c.label_size, Weight::semibold, true};
        const double named = c.over_label.value_or(over);
        if (named > 0) {
            const std::string label = over_by(l, named);
            const double half = m.measure(label, lab).advance / 2;
            const double x = std::clamp(c.x + c.w / 2, frame::kLeft + half, frame::kRight - half);
            out.push_back({Text{x, c.y - h - 12, label, lab, p.highlight, Align::center}});
        }
    }
    return out;
}

std::vector<MemorySegment> overflow(const std::vector<MemorySegment>& stack, double capacity) {
    std::vector<MemorySegment> out;
    double below = 0;  // bytes under the segment
    for (const MemorySegment& seg : stack) {
        const double above = std::min(seg.bytes, below + seg.bytes - capacity);
        if (above > 0) out.push_back({above, seg.color});
        below += seg.bytes;
    }
    return out;
}

void add_overflow(std::vector<Item>& out, const Palette& p, const std::vector<MemorySegment>& parts,
                  const Box& area, bool vertical) {
    double total = 0;
    for (const MemorySegment& part : parts) total += part.bytes;
    double done = 0;
    for (const MemorySegment& part : parts) {
        const double a = done / total, b = (done + part.bytes) / total;
        done += part.bytes;
        Rect r = vertical ? Rect{area.x, area.bottom() - b * area.h, area.w, (b - a) * area.h}
                          : Rect{area.x + a * area.w, area.y, (b - a) * area.w, area.h};
        if (std::min(r.w, r.h) < 0.01) continue;
        r.fill = part.color;
        r.hatch = p.background;
        out.push_back({r});
    }
}

std::string over_by(const Locale& l, double over) {
    return l.tr("over by {bytes}", {{"bytes", format_bytes(over, l)}});
}

Box stack_area(const TextMetrics& m, const CardSpec& c) {
    const double top = header_baseline(m, c) + kStackGap;
    return {c.x + kPad, top, c.w - 2 * kPad, c.y + c.h - kPad - top};
}

std::string gpu_display_name(const engine::GpuSpec& g) {
    std::string name = g.name.substr(0, g.name.find('-'));
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return name;
}

}  // namespace story

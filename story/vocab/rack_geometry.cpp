// The rack's geometry; see rack_geometry.hpp.
#include "story/vocab/rack_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "story/draw/arrange.hpp"
#include "story/time/easing.hpp"
#include "story/vocab/cluster_vocab.hpp"

namespace story {

namespace {
// Traffic: TP chunks shuttle fast along the NVLink bar, DP chunks slowly down the network.
constexpr double kTpSpeed = 420, kTpSpacing = 90, kDpSpeed = 60, kDpSpacing = 70;
}  // namespace

namespace {

constexpr Rack kRoomy{262, 892, 26, 48, 38, 7, 4, 22, false};
constexpr double kCardsRightPad = 16, kCardGap = 14;
// A roomy rack's network line runs down the label column under the node names, so past two
// nodes it would cross a middle node's name (and its rows thin out): bigger racks are dense.
constexpr int kMaxRoomyRows = 2;
constexpr double kNetworkBelowName = 56;  // roomy: where the line leaves a node's band
// A dense rack starts higher (no band needed above its first row).
constexpr double kDenseTop = 226;
// At most this many rows; a larger rack shows its first nodes and a "… N more nodes" row, so
// rows never get too thin for a 22 px label.
constexpr int kMaxRows = 16;
constexpr double kTpInset = 30;  // a TP lane's ends inside its outline's
constexpr double kChunk = 14;    // a chunk of traffic, in a roomy rack

Rack rack_for(int rows) {
    if (rows <= kMaxRoomyRows) return kRoomy;
    // Gaps and the bus scale with the row pitch, so 16 rows still leave ~30 px cards.
    const double pitch = (frame::kPictureBottom - kDenseTop) / rows;
    const double bus = std::min(16.0, 0.18 * pitch);
    return {kDenseTop,
            frame::kPictureBottom,
            std::min(12.0, 0.12 * pitch),
            0,
            bus,
            4,
            3,
            std::max(6.0, bus - 4),
            true};
}

}  // namespace

RackGeometry::RackGeometry(int gpus, int per_node)
    : per_node_(std::max(1, per_node)),
      nodes_((gpus + per_node_ - 1) / per_node_),
      rows_(std::min(nodes_, kMaxRows)),
      shown_nodes_(nodes_ > kMaxRows ? kMaxRows - 1 : nodes_),
      shown_gpus_(std::min(gpus, shown_nodes_ * per_node_)),
      rack_(rack_for(rows_)) {
    const Box rack{frame::kLeft, rack_.top, frame::kRight - frame::kLeft, rack_.bottom - rack_.top};
    for (int n = 0; n < rows_; ++n) rows_box_.push_back(column_cell(rack, rows_, n, rack_.gap));
    // Every slot of the nodes shown, also those a last, partly filled node leaves empty.
    for (int r = 0; r < shown_nodes_ * per_node_; ++r) {
        const Box row = rows_box_[r / per_node_];
        const Box cards{kRackCardsLeft, row.y + rack_.band,
                        frame::kRight - kCardsRightPad - kRackCardsLeft,
                        row.h - rack_.band - rack_.bus};
        cards_.push_back(row_cell(cards, per_node_, r % per_node_, kCardGap));
    }
    nvlink_width_ = rack_.dense ? 0.6 * rack_.bus : kMaxLinkWidth * 0.7;
    chunk_size_ = rack_.dense ? std::min(kChunk, rack_.bus) : kChunk;
}

double RackGeometry::network_top(int node) const {
    return rack_.dense ? rows_box_[node].cy() : rows_box_[node].y + kNetworkBelowName;
}

double RackGeometry::network_bottom(int node) const {
    return rack_.dense ? rows_box_[node].cy() : rows_box_[node].y;
}

int RackGeometry::node_of(const Box& piece) const {
    const double pitch = rows_box_[0].h + rack_.gap;
    return std::clamp(static_cast<int>((piece.cy() - rack_.top) / pitch), 0, rows_ - 1);
}

std::vector<Box> RackGeometry::pieces(int first, int count) const {
    std::vector<Box> out;
    for (int r = first; r < std::min(first + count, shown_gpus_);) {
        const int end = std::min(first + count, (r / per_node_ + 1) * per_node_);
        out.push_back(inflate(bounding({cards_[r], cards_[end - 1]}), rack_.inflate));
        r = end;
    }
    return out;
}

std::vector<Box> RackGeometry::pieces(const std::vector<int>& ranks) const {
    std::vector<Box> out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i + 1;
        while (j < ranks.size() && ranks[j] == ranks[j - 1] + 1) ++j;
        const std::vector<Box> run = pieces(ranks[i], static_cast<int>(j - i));
        out.insert(out.end(), run.begin(), run.end());
        i = j;
    }
    return out;
}

std::vector<Box> RackGeometry::pieces_of_cards(const std::vector<int>& ranks) const {
    std::vector<Box> out;
    for (int r : ranks) out.push_back(pieces(r, 1).front());
    return out;
}

std::vector<Item> RackGeometry::handovers(const std::vector<Box>& stages, Color color) const {
    constexpr int kArcPoints = 16;
    constexpr double kWidth = 4, kHead = 14, kDropHead = 16;
    std::vector<Item> out;
    for (std::size_t i = 0; i + 1 < stages.size(); ++i) {
        const Box& a = stages[i];
        const Box& b = stages[i + 1];
        if (std::abs(a.y - b.y) >= 1) {
            out.push_back({Arrow{{a.cx(), a.bottom()}, {b.cx(), b.y}, color, kWidth, kDropHead}});
            continue;
        }
        std::vector<Point> arc;
        for (int k = 0; k <= kArcPoints; ++k) {
            const double u = k / double(kArcPoints);
            arc.push_back({lerp(a.cx(), b.cx(), u),
                           a.bottom() + 2 + rack_.arc * std::sin(u * std::numbers::pi)});
        }
        out.push_back({Path{arc, false, std::nullopt, color, kWidth}});
        out.push_back({Arrow{arc[kArcPoints - 2], arc[kArcPoints], color, kWidth, kHead}});
    }
    return out;
}

std::vector<Lane> RackGeometry::lanes(const std::vector<Box>& focus) const {
    std::vector<Lane> out;
    for (const Box& piece : focus) {
        const int node = node_of(piece);
        const double left = std::max(piece.x + kTpInset, bus_left(node));
        const double length = std::min(piece.right() - kTpInset, bus_right(node)) - left;
        if (length > 0) out.push_back({{left, bus_y(node)}, length});
    }
    return out;
}

std::vector<Item> RackGeometry::tp_traffic(const Palette& p, const std::vector<Lane>& lanes,
                                           double t) const {
    std::vector<Item> out;
    for (const Lane& lane : lanes)
        for (double d : chunk_offsets(std::max(0.0, t) * kTpSpeed, lane.length, kTpSpacing))
            out.push_back(chunk(p, {lane.start.x + d, lane.start.y}, chunk_size_));
    return out;
}

std::vector<Item> RackGeometry::dp_traffic(const Palette& p, double t) const {
    std::vector<Item> out;
    if (nodes_ < 2) return out;
    const double top = network_top(0), length = network_bottom(rows_ - 1) - top;
    for (double d : chunk_offsets(std::max(0.0, t) * kDpSpeed, length, kDpSpacing))
        out.push_back(chunk(p, {network_x(), top + d}, chunk_size_));
    return out;
}

}  // namespace story

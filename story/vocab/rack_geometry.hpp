// Where layout_3d draws a rack: a label column, then one row of cards per node, the NVLink bar
// under each row's cards and the network between the rows; and the shapes its groups take on it
// (outlines split at node boundaries, pipeline hand-overs, the stretches of NVLink a TP group's
// all-reduce runs along). Built once from the rack's size; pure geometry, no time.
#pragma once
#include <utility>
#include <vector>

#include "story/draw/box.hpp"
#include "story/scene/layout.hpp"
#include "story/scene/scene.hpp"
#include "story/scene/theme.hpp"

namespace story {

// A roomy rack (one or two nodes) gives each row a framed band for group labels above the cards;
// a dense rack has no room for them, so its rows are bare strips of cards (compact ones, the GPU
// number and the tag in focus, when rows are thin), the cards' tags name the groups, and the node
// labels and the network sit in the label column.
struct Rack {
    double top, bottom;  // of the rows
    double gap;          // between rows
    double band;         // above the cards: node name, group labels
    double bus;          // below the cards: the NVLink bar
    double inflate;      // group outlines around their cards
    double halo;         // the highlight around an outline
    double arc;          // depth of a pipeline hand-over arc below its stages
    bool dense;
};

// The cards' column starts at kRackCardsLeft; a roomy rack's network line runs down the label
// column at kRackNetworkX, a dense rack's spine at kRackSpineX.
inline constexpr double kRackCardsLeft = 256, kRackNetworkX = 124, kRackSpineX = frame::kLeft + 10;

// A stretch of the NVLink bar chunks shuttle along.
struct Lane {
    Point start;
    double length = 0;
};

class RackGeometry {
  public:
    // A rack of `gpus` cards, `per_node` to a node: at most 16 rows, a larger rack showing its
    // first nodes and a row for the rest.
    RackGeometry(int gpus, int per_node);

    const Rack& rack() const { return rack_; }
    int per_node() const { return per_node_; }
    int nodes() const { return nodes_; }
    int rows() const { return rows_; }                // drawn, the "more nodes" row included
    int shown_nodes() const { return shown_nodes_; }  // nodes among them
    int shown_gpus() const { return shown_gpus_; }    // their cards
    const Box& row(int n) const { return rows_box_[n]; }
    const Box& card(int rank) const { return cards_[rank]; }
    double nvlink_width() const { return nvlink_width_; }
    double chunk_size() const { return chunk_size_; }

    // A node's NVLink bar: at bus_y, between its first and last cards' centres.
    double bus_y(int node) const { return rows_box_[node].bottom() - rack_.bus / 2; }
    double bus_left(int node) const { return cards_[node * per_node_].cx(); }
    double bus_right(int node) const { return cards_[node * per_node_ + per_node_ - 1].cx(); }
    // The network line: in a roomy rack it leaves each node below its label; a dense rack's spine
    // joins the rows at their middles.
    double network_x() const { return rack_.dense ? kRackSpineX : kRackNetworkX; }
    double network_top(int node) const;
    double network_bottom(int node) const;

    // Ranks [first, first + count) as one outline per node they touch, leaving out nodes not shown.
    std::vector<Box> pieces(int first, int count) const;
    // A sorted list of ranks as pieces, one per run of consecutive ranks (and node).
    std::vector<Box> pieces(const std::vector<int>& ranks) const;
    // One box per card: a CP or EP group's members need not be adjacent.
    std::vector<Box> pieces_of_cards(const std::vector<int>& ranks) const;
    // Activations handed from each stage to the next: arcs under the cards in the same node, a
    // straight drop when the next stage sits on the next node.
    std::vector<Item> handovers(const std::vector<Box>& stages, Color color) const;
    // The stretches of NVLink bar under a TP group's pieces, kept clear of the outline's ends.
    std::vector<Lane> lanes(const std::vector<Box>& focus) const;
    // Traffic at t: a TP group's all-reduce, chunks shuttling fast along its lanes; gradients
    // all-reduced between replicas, chunks slowly down the network line (none in one node).
    std::vector<Item> tp_traffic(const Palette& p, const std::vector<Lane>& lanes, double t) const;
    std::vector<Item> dp_traffic(const Palette& p, double t) const;

  private:
    int node_of(const Box& piece) const;

    int per_node_ = 8, nodes_ = 1, rows_ = 1, shown_nodes_ = 1, shown_gpus_ = 1;
    Rack rack_;
    std::vector<Box> rows_box_, cards_;  // one per row drawn, one per card slot of the nodes shown
    double nvlink_width_ = 0, chunk_size_ = 0;
};

}  // namespace story

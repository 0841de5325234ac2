// The storyboard's YAML as a plain tree, the one adapter over yaml-cpp (yaml_tree.cpp is the only
// file that includes it): the parsers in story/load/ read scalars, maps and lists with positions.
#pragma once
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "story/storyboard/diagnostics.hpp"

namespace story::yaml {

enum class Kind { null, scalar, sequence, map };

struct Node;

// A map's entry: its key node and its value node, each with its own position.
struct Entry {
    const Node* key = nullptr;
    const Node* value = nullptr;
};

struct Node {
    Kind kind = Kind::null;
    // A scalar's text as written (empty for the other kinds). Tags are not applied: `!!str 1` is
    // "1", and YAML 1.1's yes and off stay words for the parsers to read as they mean them.
    std::string text;
    SourcePos pos;                   // {} where yaml-cpp has none (an empty document)
    std::vector<const Node*> items;  // a sequence's
    std::vector<Entry> entries;      // a map's, in file order, a repeated key kept each time

    bool is_null() const { return kind == Kind::null; }
    bool is_scalar() const { return kind == Kind::scalar; }
    bool is_sequence() const { return kind == Kind::sequence; }
    bool is_map() const { return kind == Kind::map; }
    bool is(std::string_view scalar) const { return is_scalar() && text == scalar; }
    std::size_t size() const { return is_map() ? entries.size() : items.size(); }
    // The first entry whose key is the scalar `key`, as yaml-cpp's node[key] finds it.
    const Entry* entry(std::string_view key) const;
};

// A node in messages: "'text'", "a list", "a map" or "nothing".
std::string describe(const Node& node);

// A parsed document. An alias is a copy of its anchor's nodes (with the anchor's positions), so
// the whole is a tree, at most limits::kMaxYamlNodes nodes. Nodes stay where they are for as
// long as the tree lives: parsers keep pointers to them.
class Tree {
  public:
    const Node& root() const { return nodes_.front(); }

  private:
    friend class Builder;
    std::deque<Node> nodes_;
};

// `text` parsed, within limits.hpp's bounds: its size and nesting checked before yaml-cpp sees
// it, its nodes counted with every alias expanded. nullptr after adding the one error that
// stopped it to `errors` (what yaml-cpp found is "invalid YAML: ...").
std::shared_ptr<const Tree> parse(const std::string& text, const std::string& file,
                                  Diagnostics& errors);

// How many texts parse() has been given in this process: the tests count a render's reads.
std::size_t parse_count();

}  // namespace story::yaml

// yaml-cpp's document turned into yaml_tree.hpp's plain tree; see yaml_tree.hpp.
#include "story/load/yaml_tree.hpp"

#include <yaml-cpp/yaml.h>

#include <atomic>
#include <optional>
#include <utility>

#include "story/storyboard/limits.hpp"

namespace story::yaml {

const Entry* Node::entry(std::string_view key) const {
    for (const Entry& e : entries)
        if (e.key->is(key)) return &e;
    return nullptr;
}

std::string describe(const Node& node) {
    switch (node.kind) {
        case Kind::scalar:
            return "'" + node.text + "'";
        case Kind::sequence:
            return "a list";
        case Kind::map:
            return "a map";
        default:
            return "nothing";
    }
}

namespace {

std::atomic<std::size_t> parses{0};

SourcePos pos_of(const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    if (m.is_null()) return {};
    return {m.line + 1, m.column + 1};
}

}  // namespace

// Copies yaml-cpp's nodes into a Tree, counting them as it goes: aliases let a small text stand
// for an exponentially large tree ("billion laughs") or a cycle, so it stops once it holds more
// than kMaxYamlNodes. Iterative: a chain of aliases nests deeper than the text does.
class Builder {
  public:
    // The tree of `root`, or nullptr when it expands to more than kMaxYamlNodes nodes.
    std::shared_ptr<Tree> build(const YAML::Node& root) {
        auto tree = std::make_shared<Tree>();
        std::vector<std::pair<YAML::Node, Node*>> pending{{root, &tree->nodes_.emplace_back()}};
        while (!pending.empty()) {
            // Never assign YAML::Node objects: assignment rebinds the document's node.
            const YAML::Node from = pending.back().first;
            Node& to = *pending.back().second;
            pending.pop_back();
            to.pos = pos_of(from);
            if (from.IsScalar()) {
                to.kind = Kind::scalar;
                to.text = from.Scalar();
            } else if (from.IsSequence()) {
                to.kind = Kind::sequence;
                for (auto it = from.begin(); it != from.end(); ++it)
                    to.items.push_back(add(*tree, *it, pending));
            } else if (from.IsMap()) {
                to.kind = Kind::map;
                for (auto it = from.begin(); it != from.end(); ++it)
                    to.entries.push_back(
                        {add(*tree, it->first, pending), add(*tree, it->second, pending)});
            }
            if (tree->nodes_.size() > std::size_t(limits::kMaxYamlNodes)) return nullptr;
        }
        return tree;
    }

  private:
    static const Node* add(Tree& tree, const YAML::Node& from,
                           std::vector<std::pair<YAML::Node, Node*>>& pending) {
        Node* node = &tree.nodes_.emplace_back();
        pending.emplace_back(from, node);
        return node;
    }
};

std::shared_ptr<const Tree> parse(const std::string& text, const std::string& file,
                                  Diagnostics& errors) {
    ++parses;
    if (auto problem = limits::storyboard_text_error(text)) {
        errors.error(file, problem->pos, problem->message);
        return nullptr;
    }
    try {
        auto tree = Builder().build(YAML::Load(text));
        if (!tree)
            errors.error(file, SourcePos{1, 1},
                         "the storyboard expands to more than " +
                             std::to_string(limits::kMaxYamlNodes) +
                             " YAML nodes (through aliases)");
        return tree;
    } catch (const YAML::Exception& e) {
        const SourcePos pos =
            e.mark.is_null() ? SourcePos{} : SourcePos{e.mark.line + 1, e.mark.column + 1};
        errors.error(file, pos, "invalid YAML: " + e.msg);
        return nullptr;
    }
}

std::size_t parse_count() { return parses; }

}  // namespace story::yaml

// The YAML adapter (story/load/yaml_tree): yaml-cpp's document as a plain tree with every key's
// and value's position, scalars as written, repeated keys kept, aliases copied within the node
// budget, and the limits and YAML errors reported as one diagnostic.
#include "story/load/yaml_tree.hpp"

#include <string>
#include <string_view>

#include "story/storyboard/limits.hpp"
#include "tests/catch.hpp"
#include "tests/story/lines.hpp"

using story::SourcePos;
using story::yaml::Kind;
using story::yaml::Node;

namespace {

struct Parsed {
    std::shared_ptr<const story::yaml::Tree> tree;
    std::string errors;
};

Parsed parse(const std::string& text) {
    story::Diagnostics diags;
    auto tree = story::yaml::parse(text, "t.yaml", diags);
    return {tree, diags.format()};
}

// key by value: GCC 14 takes a reference bound to a temporary argument for a dangling result.
const Node& value(const Node& map, std::string_view key) {
    const story::yaml::Entry* e = map.entry(std::string(key));
    REQUIRE(e);
    return *e->value;
}

}  // namespace

TEST_CASE("the tree keeps each key's and value's position, in file order") {
    const Parsed p = parse("a: 1\nb:\n  - x\n  - {c: d}\n");
    REQUIRE(p.tree);
    const Node& root = p.tree->root();
    REQUIRE(root.is_map());
    CHECK(root.pos == SourcePos{1, 1});
    REQUIRE(root.entries.size() == 2);
    CHECK(root.entries[0].key->text == "a");
    CHECK(root.entries[0].key->pos == SourcePos{1, 1});
    CHECK(root.entries[0].value->pos == SourcePos{1, 4});
    const Node& list = value(root, "b");
    REQUIRE(list.is_sequence());
    REQUIRE(list.size() == 2);
    CHECK(list.items[0]->is("x"));
    CHECK(list.items[0]->pos == SourcePos{3, 5});
    const Node& inner = *list.items[1];
    CHECK(inner.is_map());
    CHECK(inner.pos == SourcePos{4, 5});
    CHECK(value(inner, "c").pos == SourcePos{4, 9});
    CHECK(describe(inner) == "a map");
    CHECK(describe(list) == "a list");
    CHECK(describe(*list.items[0]) == "'x'");
}

TEST_CASE("scalars stay as written, nulls are nothing, repeated keys are kept") {
    const Parsed p = parse("a: !!str 1\nb: yes\nc: off\nd:\ne: ~\na: 2\n'': x\n");
    REQUIRE(p.tree);
    const Node& root = p.tree->root();
    CHECK(value(root, "a").is("1"));  // the first a
    CHECK(value(root, "b").is("yes"));
    CHECK(value(root, "c").is("off"));
    CHECK(value(root, "d").is_null());
    CHECK(value(root, "e").is_null());
    CHECK(describe(value(root, "e")) == "nothing");
    REQUIRE(root.entries.size() == 7);
    CHECK(root.entries[5].key->is("a"));
    CHECK(root.entries[5].value->is("2"));
    CHECK(root.entries[6].key->is(""));
    CHECK_FALSE(root.entry("f"));
}

TEST_CASE("an empty text is a null root without a position") {
    const Parsed p = parse("");
    REQUIRE(p.tree);
    CHECK(p.tree->root().is_null());
    CHECK(p.tree->root().pos == SourcePos{});
}

TEST_CASE("an alias is a copy of its anchor's nodes, with the anchor's positions") {
    const Parsed p = parse("a: &x {k: [1, 2]}\nb: *x\n");
    REQUIRE(p.tree);
    const Node& a = value(p.tree->root(), "a");
    const Node& b = value(p.tree->root(), "b");
    CHECK(&a != &b);
    CHECK(b.pos == a.pos);
    CHECK(value(b, "k").size() == 2);
    CHECK(value(b, "k").items[1]->is("2"));
    CHECK(value(b, "k").items[1]->pos == SourcePos{1, 15});
}

TEST_CASE("aliases are expanded within the node budget, and refused beyond it or in a cycle") {
    // Ten levels of ten aliases: 10^10 nodes from a few hundred bytes.
    std::string laughs = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 9; ++i) {
        const std::string prev = "*l" + std::to_string(i - 1);
        laughs += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [" + prev;
        for (int j = 1; j < 10; ++j) laughs += ", " + prev;
        laughs += "]\n";
    }
    const std::string refused =
        "t.yaml:1:1: error: the storyboard expands to more than 100000 YAML nodes (through "
        "aliases)\n";
    const Parsed big = parse(laughs);
    CHECK_FALSE(big.tree);
    CHECK(big.errors == refused);
    // Four levels (some 12,000 nodes) fit.
    std::string some;
    for (std::size_t at = 0, lines = 0; lines < 4; ++lines) {
        const std::size_t end = laughs.find('\n', at);
        some += laughs.substr(at, end + 1 - at);
        at = end + 1;
    }
    const Parsed fits = parse(some);
    REQUIRE(fits.tree);
    CHECK(fits.errors.empty());
    CHECK(value(fits.tree->root(), "l3").items[9]->items[9]->items[9]->items[9]->is("x"));
    const Parsed cycle = parse("a: &a [*a]\n");
    CHECK_FALSE(cycle.tree);
    CHECK(cycle.errors == refused);
}

TEST_CASE("the limits and YAML's own errors are one diagnostic each") {
    auto nested = [](int depth) {
        return "a: " + std::string(depth - 1, '[') + "x" + std::string(depth - 1, ']') + "\n";
    };
    const Parsed deep = parse(nested(story::limits::kMaxNesting + 1));
    CHECK_FALSE(deep.tree);
    CHECK(deep.errors == "t.yaml:1:1: error: YAML nesting deeper than 32 levels\n");
    const Parsed at_limit = parse(nested(story::limits::kMaxNesting));
    REQUIRE(at_limit.tree);
    const Node* n = &value(at_limit.tree->root(), "a");
    for (int i = 2; i < story::limits::kMaxNesting; ++i) n = n->items.at(0);
    CHECK(n->items.at(0)->is("x"));
    const Parsed bad = parse("a: [1, 2\nb: 3\n");
    CHECK_FALSE(bad.tree);
    // One line, at yaml-cpp's place, in yaml-cpp's words (which its versions word differently).
    CHECK(story_test::lines_of(bad.errors).size() == 1);
    CHECK(story_test::lines_matching(bad.errors, "t\\.yaml:2:[0-9]+: error: invalid YAML: .+")
              .size() == 1);
    const Parsed large = parse(std::string(story::limits::kMaxStoryboardBytes + 1, '#'));
    CHECK_FALSE(large.tree);
    CHECK(large.errors ==
          "t.yaml: error: the storyboard is 1048577 bytes, more than the 1 MiB (1048576 bytes) "
          "allowed\n");
}

TEST_CASE("parse_count counts every text given to the adapter") {
    const std::size_t before = story::yaml::parse_count();
    parse("a: 1\n");
    parse("a: [");
    CHECK(story::yaml::parse_count() == before + 2);
}

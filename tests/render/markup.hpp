// HTML and SVG as the tests read them back: the elements of the markup that was written, so a
// test names the element it expects (by name and attributes) and compares its attributes and
// text exactly, rather than finding a fragment that could sit anywhere.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace render_test {

using Attrs = std::map<std::string, std::string>;

struct Element {
    std::string name;
    Attrs attrs;        // values with character references decoded
    std::string inner;  // the markup between its tags (empty for a void or self-closed element)
    // inner without its tags, character references decoded.
    std::string text() const;
    // The attribute's value; a test failure when it has none.
    const std::string& attr(const std::string& key) const;
};

// Every element named `name` ("*": any) that has each attribute in `with` with that value, in
// document order. Comments, declarations and the contents of script and style are not markup.
std::vector<Element> elements(const std::string& markup, const std::string& name,
                              const Attrs& with = {});
// The one such element; a test failure when there is none or more than one.
Element element(const std::string& markup, const std::string& name, const Attrs& with = {});
// The text of each such element, in document order.
std::vector<std::string> texts(const std::string& markup, const std::string& name,
                               const Attrs& with = {});
// A table's rows (in thead, tbody or directly in it), each the text of its th and td cells.
std::vector<std::vector<std::string>> table_rows(const Element& table);
// A URL's %XX escapes decoded (a data: URI's payload).
std::string percent_decoded(const std::string& text);

}  // namespace render_test

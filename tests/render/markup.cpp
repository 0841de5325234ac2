// Reading markup back; see markup.hpp.
#include "tests/render/markup.hpp"

#include <algorithm>
#include <cstddef>
#include <set>

#include "tests/catch.hpp"

namespace render_test {
namespace {

// One tag as written: markup[begin, end) is "<name ...>", "</name>" or "<name .../>".
struct Tag {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::size_t begin = 0, end = 0;
    bool closing = false, self_closed = false;
};

const std::set<std::string> kVoid{"area",  "base", "br",   "col",    "embed", "hr", "img",
                                  "input", "link", "meta", "source", "track", "wbr"};

bool name_char(char c) { return c != ' ' && c != '\n' && c != '\t' && c != '/' && c != '>'; }

std::string decoded(const std::string& text) {
    static const std::map<std::string, std::string> named{
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", "\u00a0"}};
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::size_t semi = text[i] == '&' ? text.find(';', i) : std::string::npos;
        const std::string ref = semi == std::string::npos ? "" : text.substr(i + 1, semi - i - 1);
        if (named.contains(ref)) {
            out += named.at(ref);
        } else if (ref.size() > 1 && ref[0] == '#') {
            const bool hex = ref[1] == 'x';
            char32_t c =
                static_cast<char32_t>(std::stoul(ref.substr(hex ? 2 : 1), nullptr, hex ? 16 : 10));
            if (c < 0x80) {
                out += static_cast<char>(c);
            } else if (c < 0x800) {
                out += static_cast<char>(0xC0 | (c >> 6));
                out += static_cast<char>(0x80 | (c & 0x3F));
            } else {
                out += static_cast<char>(0xE0 | (c >> 12));
                out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
                out += static_cast<char>(0x80 | (c & 0x3F));
            }
        } else {
            out += text[i];
            continue;
        }
        i = semi;
    }
    return out;
}

// The attributes of a start tag from `at` (just after its name) to its '>'; `at` ends past it.
std::map<std::string, std::string> attributes(const std::string& m, std::size_t& at, bool& self) {
    std::map<std::string, std::string> out;
    while (at < m.size() && m[at] != '>') {
        if (m[at] == ' ' || m[at] == '\n' || m[at] == '\t' || m[at] == '/') {
            self = m[at++] == '/';
            continue;
        }
        const std::size_t name_at = at;
        while (at < m.size() && name_char(m[at]) && m[at] != '=') ++at;
        const std::string key = m.substr(name_at, at - name_at);
        std::string value;
        if (at < m.size() && m[at] == '=') {
            const char quote = m[++at];
            const bool quoted = quote == '"' || quote == '\'';
            const std::size_t from = quoted ? at + 1 : at;
            const std::size_t to = quoted ? m.find(quote, from) : m.find_first_of(" \n\t>", from);
            value = decoded(m.substr(from, to - from));
            at = quoted ? to + 1 : to;
        }
        out[key] = value;
        self = false;
    }
    ++at;
    return out;
}

std::vector<Tag> tags_of(const std::string& m) {
    std::vector<Tag> out;
    for (std::size_t at = m.find('<'); at != std::string::npos; at = m.find('<', at)) {
        if (m.compare(at, 4, "<!--") == 0) {
            at = m.find("-->", at) + 3;
            continue;
        }
        if (m[at + 1] == '!' || m[at + 1] == '?') {
            at = m.find('>', at) + 1;
            continue;
        }
        Tag tag{{}, {}, at, 0, m[at + 1] == '/', false};
        std::size_t p = at + (tag.closing ? 2 : 1);
        const std::size_t name_at = p;
        while (p < m.size() && name_char(m[p])) ++p;
        tag.name = m.substr(name_at, p - name_at);
        tag.attrs = attributes(m, p, tag.self_closed);
        tag.self_closed = tag.self_closed || (!tag.closing && kVoid.contains(tag.name));
        tag.end = p;
        out.push_back(tag);
        if (!tag.closing && (tag.name == "script" || tag.name == "style")) {
            at = m.find("</" + tag.name, p);  // raw text: no markup inside
            continue;
        }
        at = p;
    }
    return out;
}

// The index of the tag that closes tags[open].
std::size_t closing_tag(const std::vector<Tag>& tags, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < tags.size(); ++i) {
        if (tags[i].name != tags[open].name || tags[i].self_closed) continue;
        depth += tags[i].closing ? -1 : 1;
        if (depth == 0) return i;
    }
    FAIL("no closing tag for <" << tags[open].name << "> at " << tags[open].begin);
    return open;
}

bool matches(const Tag& tag, const std::string& name, const Attrs& with) {
    if (tag.closing || (name != "*" && tag.name != name)) return false;
    return std::ranges::all_of(with, [&](const auto& kv) {
        const auto found = tag.attrs.find(kv.first);
        return found != tag.attrs.end() && found->second == kv.second;
    });
}

}  // namespace

std::string Element::text() const {
    std::string out;
    std::size_t at = 0;
    for (const Tag& tag : tags_of(inner)) {
        out += inner.substr(at, tag.begin - at);
        at = tag.end;
    }
    return decoded(out + inner.substr(std::min(at, inner.size())));
}

const std::string& Element::attr(const std::string& key) const {
    const auto found = attrs.find(key);
    if (found == attrs.end()) FAIL("<" << name << "> has no attribute " << key);
    return found->second;
}

std::vector<Element> elements(const std::string& markup, const std::string& name,
                              const Attrs& with) {
    const std::vector<Tag> tags = tags_of(markup);
    std::vector<Element> out;
    for (std::size_t i = 0; i < tags.size(); ++i) {
        if (!matches(tags[i], name, with)) continue;
        Element e{tags[i].name, tags[i].attrs, {}};
        if (!tags[i].self_closed) {
            const Tag& close = tags[closing_tag(tags, i)];
            e.inner = markup.substr(tags[i].end, close.begin - tags[i].end);
        }
        out.push_back(std::move(e));
    }
    return out;
}

Element element(const std::string& markup, const std::string& name, const Attrs& with) {
    std::vector<Element> found = elements(markup, name, with);
    INFO("<" << name << "> with " << with.size() << " attributes given");
    REQUIRE(found.size() == 1);
    return found[0];
}

std::vector<std::string> texts(const std::string& markup, const std::string& name,
                               const Attrs& with) {
    std::vector<std::string> out;
    for (const Element& e : elements(markup, name, with)) out.push_back(e.text());
    return out;
}

std::vector<std::vector<std::string>> table_rows(const Element& table) {
    std::vector<std::vector<std::string>> rows;
    for (const Element& row : elements(table.inner, "tr")) {
        std::vector<std::string>& cells = rows.emplace_back();
        for (const Element& cell : elements(row.inner, "*"))
            if (cell.name == "th" || cell.name == "td") cells.push_back(cell.text());
    }
    return rows;
}

std::string percent_decoded(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace render_test

// Page figures from Cairo's SVG; see figures.hpp. The text is Cairo's own output (cairo-svg:
// <style> classes s<N>, <symbol id="glyph<F>-<G>"> each holding one <path>, <use xlink:href>,
// clip<N> and surface<N> ids), read with plain string search.
#include "render/page/figures.hpp"

#include <stdexcept>

namespace render {
namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// The positions of CSS colours ":#rrggbb" (the '#').
std::vector<std::size_t> colour_positions(const std::string& s) {
    std::vector<std::size_t> out;
    for (std::size_t i = s.find(":#"); i != std::string::npos; i = s.find(":#", i + 1)) {
        std::size_t j = i + 2;
        while (j < s.size() && j - i - 2 < 6 && is_hex(s[j])) ++j;
        if (j - i - 2 == 6 && (j == s.size() || !is_hex(s[j]))) out.push_back(i + 1);
    }
    return out;
}

std::string masked(std::string s, const std::vector<std::size_t>& at) {
    for (std::size_t p : at) s.replace(p, 7, "#000000");
    return s;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    for (std::size_t i = s.find(from); i != std::string::npos; i = s.find(from, i + to.size()))
        s.replace(i, from.size(), to);
}

// Every name after `open` made prefix + name.
void prefix_names(std::string& s, const std::string& open, const std::string& prefix) {
    for (std::size_t i = s.find(open); i != std::string::npos; i = s.find(open, i + 1)) {
        const std::size_t name = i + open.size();
        if (s.compare(name, 1, "@") == 0) continue;  // a glyph, already the sheet's
        s.insert(name, prefix);
    }
}

}  // namespace

std::string FigureSheet::add(const std::string& dark_svg, const std::string& light_svg,
                             const std::string& prefix) {
    return themed(reshape(dark_svg, prefix), reshape(light_svg, prefix));
}

// Glyphs to the sheet, ids and classes prefixed, the root sized by its container.
std::string FigureSheet::reshape(const std::string& svg, const std::string& prefix) {
    std::string s = svg.substr(std::min(svg.find("<svg"), svg.size()));
    if (s.empty()) throw std::runtime_error("not an SVG document from Cairo");
    const std::string open = "<symbol overflow=\"visible\" id=\"", close = "</symbol>";
    for (std::size_t i = s.find(open); i != std::string::npos; i = s.find(open, i)) {
        const std::size_t id_end = s.find('"', i + open.size());
        const std::size_t d = s.find(" d=\"", id_end), d_end = s.find('"', d + 4);
        const std::size_t end = s.find(close, d_end);
        if (id_end == std::string::npos || d == std::string::npos || end == std::string::npos)
            throw std::runtime_error("unexpected glyph in Cairo's SVG");
        const std::string id = s.substr(i + open.size(), id_end - i - open.size());
        const std::string outline = s.substr(d + 4, d_end - d - 4);
        auto [it, fresh] = glyph_ids_.emplace(outline, glyphs_.size());
        if (fresh) glyphs_.push_back(outline);
        s.erase(i, end + close.size() - i);
        // "@" marks a sheet glyph until the figure's own names are prefixed.
        replace_all(s, "xlink:href=\"#" + id + "\"",
                    "href=\"#@g" + std::to_string(it->second) + "\"");
    }
    prefix_names(s, " id=\"", prefix);
    prefix_names(s, "url(#", prefix);
    prefix_names(s, "href=\"#", prefix);
    prefix_names(s, "class=\"", prefix);
    const std::size_t style = s.find("<style>"), style_end = s.find("</style>");
    if (style != std::string::npos && style_end != std::string::npos) {
        std::string css = s.substr(style, style_end - style);
        prefix_names(css, "\n.", prefix);
        s.replace(style, style_end - style, css);
    }
    replace_all(s, "#@g", "#g");
    const std::size_t root_end = s.find('>');
    std::string root = s.substr(0, root_end);
    const std::size_t w = root.find(" width=\""), h = root.find(" height=\"");
    if (w != std::string::npos && h != std::string::npos && h > w)
        root.erase(w, root.find('"', h + 9) + 1 - w);
    return root + " width=\"100%\" focusable=\"false\" aria-hidden=\"true\"" + s.substr(root_end);
}

std::string FigureSheet::themed(const std::string& dark, const std::string& light) {
    const auto at = colour_positions(dark), light_at = colour_positions(light);
    if (at != light_at || masked(dark, at) != masked(light, light_at)) {
        auto tagged = [](const std::string& svg, const char* theme) {
            return "<svg class=\"only-" + std::string(theme) + "\"" + svg.substr(4);
        };
        return tagged(dark, "dark") + tagged(light, "light");
    }
    std::string out;
    std::size_t from = 0;
    for (std::size_t p : at) {
        out += dark.substr(from, p - from);
        out += "var(--c" + std::to_string(colour(dark.substr(p, 7), light.substr(p, 7))) + ")";
        from = p + 7;
    }
    return out + dark.substr(from);
}

std::size_t FigureSheet::colour(const std::string& dark, const std::string& light) {
    auto [it, fresh] = colour_ids_.emplace(std::pair(dark, light), colours_.size());
    if (fresh) colours_.emplace_back(dark, light);
    return it->second;
}

std::string FigureSheet::glyph_sheet() const {
    std::string out =
        "<svg class=\"glyphs\" width=\"0\" height=\"0\" aria-hidden=\"true\" focusable=\"false\">"
        "<defs>\n";
    for (std::size_t i = 0; i < glyphs_.size(); ++i)
        out += "<symbol overflow=\"visible\" id=\"g" + std::to_string(i) +
               "\"><path stroke=\"none\" d=\"" + glyphs_[i] + "\"/></symbol>\n";
    return out + "</defs></svg>\n";
}

std::string FigureSheet::colour_css() const {
    std::string light = ":root{", dark = "@media (prefers-color-scheme: dark){:root{";
    for (std::size_t i = 0; i < colours_.size(); ++i) {
        const std::string var = "--c" + std::to_string(i) + ":";
        dark += var + colours_[i].first + ";";
        light += var + colours_[i].second + ";";
    }
    return light + "}\n" + dark + "}}\n";
}

}  // namespace render

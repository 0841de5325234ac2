// SVG stills: the painter on a Cairo SVG surface sized in CSS px, the output size, plus a
// transparent text layer so the words stay searchable and selectable.
#include <cairo-svg.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <string_view>

#include "render/draw/bidi.hpp"
#include "render/draw/painter.hpp"
#include "render/markup/markup.hpp"
#include "render/sinks/still_sinks.hpp"

namespace render {
namespace {

// "surface17" -> "surface1" in order of first appearance, each name its own count: Cairo numbers
// these from one counter for the whole process (a surface's unique id), so the same frame drawn
// twice would differ. Cairo 1.16 (Debian 12) names them surfaceN and imageN, 1.18 (Debian 13)
// source-N; its other ids (clip-N, mask-N, glyph-F-G) count within the document.
std::string renumber_ids(const std::string& svg) {
    static const std::regex id(R"((id="|#)(surface|image|source-)(\d+))");
    std::map<std::string, std::string> renamed;
    std::map<std::string, int> next;
    std::string out;
    auto last = svg.cbegin();
    for (std::sregex_iterator it(svg.begin(), svg.end(), id), end; it != end; ++it) {
        const std::smatch& m = *it;
        const std::string old_name = m.str(2) + m.str(3);
        auto [entry, fresh] = renamed.try_emplace(old_name);
        if (fresh) entry->second = m.str(2) + std::to_string(++next[m.str(2)]);
        out.append(last, m[0].first).append(m.str(1)).append(entry->second);
        last = m[0].second;
    }
    return out.append(last, svg.cend());
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

// Copies s with each `open ... close` span replaced by rewrite(what lies between).
template <class Rewrite>
std::string rewrite_spans(const std::string& s, std::string_view open, char close,
                          Rewrite rewrite) {
    std::string out;
    out.reserve(s.size());
    std::size_t pos = 0;
    for (std::size_t start; (start = s.find(open, pos)) != std::string::npos;) {
        const std::size_t inner = start + open.size(), end = s.find(close, inner);
        if (end == std::string::npos) break;
        out.append(s, pos, start - pos);
        out += rewrite(std::string_view(s).substr(inner, end - inner));
        pos = end + 1;
    }
    return out.append(s, pos);
}

// Path data: Cairo's six decimals rounded to two (1/100 px at most; 1/1000 of a glyph at
// 10 px), trailing zeros dropped. Roughly halves a diagram-heavy frame.
std::string round_path_data(std::string_view d) {
    std::string out;
    for (std::size_t i = 0; i < d.size();) {
        const bool starts_number =
            std::isdigit(static_cast<unsigned char>(d[i])) ||
            (d[i] == '-' && i + 1 < d.size() && std::isdigit(static_cast<unsigned char>(d[i + 1])));
        if (!starts_number) {
            out += d[i++];
            continue;
        }
        std::size_t end = i + 1;
        while (end < d.size() &&
               (std::isdigit(static_cast<unsigned char>(d[end])) || d[end] == '.'))
            ++end;
        out += number(std::strtod(std::string(d.substr(i, end - i)).c_str(), nullptr));
        i = end;
    }
    return out;
}

// rgb(54.509804%,58.039216%,61.960784%) -> #8b949e: the bytes Cairo started from.
std::string hex_color(std::string_view percentages) {
    std::string out = "#";
    std::size_t pos = 0;
    for (int c = 0; c < 3; ++c) {
        const std::size_t end = percentages.find('%', pos);
        if (end == std::string_view::npos) return "rgb(" + std::string(percentages) + ")";
        const double p =
            std::strtod(std::string(percentages.substr(pos, end - pos)).c_str(), nullptr);
        char byte[3];
        std::snprintf(byte, sizeof byte, "%02x",
                      static_cast<unsigned>(std::lround(p * 2.55)) & 0xFF);
        out += byte;
        pos = end + 2;  // past "%,"
    }
    return out;
}

// A repeated style="..." becomes class="sN" with one CSS rule after the root tag: a diagram
// repeats a dozen styles hundreds of times.
std::string hoist_styles(const std::string& svg) {
    std::map<std::string, int> uses;
    rewrite_spans(svg, " style=\"", '"', [&](std::string_view style) {
        ++uses[std::string(style)];
        return std::string();
    });
    std::map<std::string, std::string> classes;
    std::string css;
    std::string out = rewrite_spans(svg, " style=\"", '"', [&](std::string_view style) {
        const std::string key(style);
        if (uses[key] < 2) return " style=\"" + key + "\"";
        auto [entry, fresh] = classes.try_emplace(key, "s" + std::to_string(classes.size() + 1));
        if (fresh) css += "." + entry->second + "{" + key + "}\n";
        return " class=\"" + entry->second + "\"";
    });
    const std::size_t root = out.find("<svg");
    const std::size_t root_end = root == std::string::npos ? root : out.find('>', root);
    if (css.empty() || root_end == std::string::npos) return out;
    return out.insert(root_end + 1, "\n<style>\n" + css + "</style>");
}

// Smaller, equivalent markup: rounded path data, hex colours and shared styles.
std::string compact(const std::string& svg) {
    const std::string rounded = rewrite_spans(
        svg, " d=\"", '"', [](std::string_view d) { return " d=\"" + round_path_data(d) + "\""; });
    return hoist_styles(rewrite_spans(rounded, "rgb(", ')', hex_color));
}

const char* css_weight(story::Weight w) {
    switch (w) {
        case story::Weight::medium:
            return "500";
        case story::Weight::semibold:
            return "600";
        default:
            return "400";
    }
}

// A text's language and, right to left, its direction, so a browser selects, reads aloud and
// lays out its fallback font as drawn.
std::string language_attributes(const std::string& lang, bool rtl) {
    std::string out;
    if (!lang.empty()) out += R"( xml:lang=")" + xml_escape(lang) + '"';
    if (rtl) out += R"( direction="rtl")";
    return out;
}

// One <text> per visible Text item, at its drawn position and measured width (textLength makes
// a fallback font select exactly the drawn extent); fill-opacity 0 keeps the glyphs' look.
std::string text_layer(const story::Scene& scene, const OutputSpec& spec, const Fonts& fonts) {
    const Fit f = fit(scene, spec.width, spec.height);
    std::string out = R"(<g id="text-layer" font-family="Inter, sans-serif" xml:space="preserve">)"
                      "\n";
    for (const story::PlacedText& placed : story::texts_of(scene)) {
        const story::Text& t = placed.text;
        if (placed.opacity <= 0 || t.text.empty()) continue;
        const double advance = fonts.measure(t.text, t.style).advance;
        const double shift = t.align == story::Align::left     ? 0
                             : t.align == story::Align::center ? advance / 2
                                                               : advance;
        // A right-to-left line starts at its right end.
        const bool rtl = bidi_line(t.text, t.style.lang).rtl;
        const double start = t.x - shift + (rtl ? advance : 0);
        out += R"(<text fill-opacity="0" x=")" + number(f.dx + f.scale * start) + R"(" y=")" +
               number(f.dy + f.scale * t.y) + R"(" font-size=")" + number(f.scale * t.style.size) +
               R"(" font-weight=")" + css_weight(t.style.weight) + R"(" textLength=")" +
               number(f.scale * advance) + R"(" lengthAdjust="spacingAndGlyphs")" +
               language_attributes(t.style.lang, rtl) + ">" + xml_escape(t.text) + "</text>\n";
    }
    return out + "</g>\n";
}

// The layer goes last, above the drawing, so a pointer selects it.
std::string with_text_layer(const std::string& svg, const std::string& layer) {
    const std::size_t end = svg.rfind("</svg>");
    if (end == std::string::npos || layer.empty()) return svg;
    return svg.substr(0, end) + layer + svg.substr(end);
}

}  // namespace

void SvgSink::drew(const story::Scene& scene, const OutputSpec& spec, const Fonts& fonts) {
    text_layer_ = text_layer(scene, spec, fonts);
}

cairo_surface_t* SvgSink::create_surface(const OutputSpec& spec) {
    svg_.clear();
    text_layer_.clear();
    cairo_surface_t* surface =
        cairo_svg_surface_create_for_stream(append, this, spec.width, spec.height);
    cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
    return surface;
}

cairo_status_t SvgSink::append(void* closure, const unsigned char* data, unsigned length) {
    static_cast<SvgSink*>(closure)->svg_.append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

cairo_status_t SvgSink::finished() {
    const std::string svg = with_text_layer(compact(renumber_ids(svg_)), text_layer_);
    svg_.clear();
    text_layer_.clear();
    return stream_to_file(this, reinterpret_cast<const unsigned char*>(svg.data()),
                          static_cast<unsigned>(svg.size()));
}

}  // namespace render

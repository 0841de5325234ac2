// SVG stills: the painter on a Cairo SVG surface sized in CSS px, the output size.
#include <map>
#include <regex>

#include <cairo-svg.h>

#include "render/sinks/still_sinks.hpp"

namespace render {
namespace {

// "surface17" -> "surface1" in order of first appearance; image ids come from the same counter.
std::string renumber_ids(const std::string& svg) {
    static const std::regex id(R"((id="|#)(surface|image)(\d+))");
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

}  // namespace

cairo_surface_t* SvgSink::create_surface(const OutputSpec& spec) {
    svg_.clear();
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
    const std::string svg = renumber_ids(svg_);
    svg_.clear();
    return stream_to_file(this, reinterpret_cast<const unsigned char*>(svg.data()),
                          static_cast<unsigned>(svg.size()));
}

}  // namespace render

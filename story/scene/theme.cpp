// The two palettes of STYLE.md (Okabe-Ito, colour-blind safe), one meaning per colour.
#include "story/scene/theme.hpp"

namespace story {

const Palette& palette(ThemeName t) {
    static const Palette dark{hex(0x56B4E9), hex(0xE69F00), hex(0xCC79A7), hex(0x009E73),
                              hex(0xD55E00), hex(0xF0E442), hex(0x6E7681), hex(0x0E1117),
                              hex(0x161B22), hex(0x30363D), hex(0xE6EDF3), hex(0x8B949E),
                              hex(0xA48BFF), hex(0x3CC8C0)};
    static const Palette light{hex(0x0072B2), hex(0xB36B00), hex(0xA0508A), hex(0x007A5A),
                               hex(0xC04F00), hex(0x8A7A00), hex(0x8C959F), hex(0xFFFFFF),
                               hex(0xF6F8FA), hex(0xD0D7DE), hex(0x1F2328), hex(0x59636E),
                               hex(0x6A4FD0), hex(0x007F78)};
    return t == ThemeName::dark ? dark : light;
}

std::optional<ThemeName> parse_theme(std::string_view s) {
    if (s == "dark") return ThemeName::dark;
    if (s == "light") return ThemeName::light;
    return std::nullopt;
}

std::string_view to_string(ThemeName t) { return t == ThemeName::dark ? "dark" : "light"; }

}  // namespace story

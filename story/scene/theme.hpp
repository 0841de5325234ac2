// Colours by meaning (STYLE.md): a theme changes colours, never meanings.
#pragma once
#include <optional>
#include <string_view>

#include "story/scene/scene.hpp"

namespace story {

enum class ThemeName { dark, light };

struct Palette {
    Color weights, gradients, optimizer, activations, comm, highlight, idle;
    Color background, panel, grid, text, muted;
    // The parallel axes drawn beside tp, pp and dp (outlined in the text colour): context- and
    // expert-parallel groups, in two hues no other meaning uses.
    Color cp_group, ep_group;
};

const Palette& palette(ThemeName t);
std::optional<ThemeName> parse_theme(std::string_view s);
std::string_view to_string(ThemeName t);

}  // namespace story

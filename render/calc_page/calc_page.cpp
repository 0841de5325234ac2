// The calculator page: the template with its style, palette, module and scripts; see calc_page.hpp.
#include "render/calc_page/calc_page.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "render/calc_page_assets.hpp"
#include "story/scene/theme.hpp"

namespace render {
namespace {

std::string css_hex(story::Color c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02X%02X%02X", c.r, c.g, c.b);
    return buf;
}

// The film's colours by meaning, as the page's CSS variables.
std::string palette_vars(story::ThemeName theme) {
    const story::Palette& p = story::palette(theme);
    const std::pair<const char*, story::Color> vars[] = {
        {"weights", p.weights},     {"gradients", p.gradients},
        {"optimizer", p.optimizer}, {"activations", p.activations},
        {"comm", p.comm},           {"idle", p.idle},
        {"bg", p.background},       {"panel", p.panel},
        {"line", p.grid},           {"fg", p.text},
        {"muted", p.muted}};
    std::string out;
    for (const auto& [name, colour] : vars)
        out += std::string("--") + name + ":" + css_hex(colour) + ";";
    return out;
}

std::string palette_css() {
    return ":root{color-scheme:light dark;" + palette_vars(story::ThemeName::light) +
           "}\n@media (prefers-color-scheme: dark){:root{" + palette_vars(story::ThemeName::dark) +
           "}}\n";
}

// The template with its one placeholder `{{key}}` replaced by text.
void fill(std::string& page, const std::string& key, const std::string& text) {
    const std::string mark = "{{" + key + "}}";
    const std::size_t at = page.find(mark);
    if (at == std::string::npos) throw std::logic_error("calculator.html has no " + mark);
    page.replace(at, mark.size(), text);
}

}  // namespace

std::string base64(std::string_view bytes) {
    static const char* const digits =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t group = 0;
        for (std::size_t k = 0; k < 3; ++k)
            group = group << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k)
            out += k <= n ? digits[(group >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

std::string calculator_page(std::string_view wasm) {
    std::string page = embedded::kCalculatorHtml;
    // The module first: the scripts are filled in after it, so no text of theirs is searched.
    fill(page, "module", base64(wasm));
    fill(page, "style", palette_css() + embedded::kCalculatorCss);
    fill(page, "script", std::string(embedded::kCalcJs) + "\n" + embedded::kCalculatorJs);
    return page;
}

}  // namespace render

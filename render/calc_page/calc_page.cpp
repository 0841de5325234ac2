// The calculator page: the template with its style, palette, module and scripts; see calc_page.hpp.
#include "render/calc_page/calc_page.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <utility>

#include "engine/problem.hpp"
#include "render/calc_page_assets.hpp"
#include "render/inputs/config_values.hpp"
#include "render/inputs/numbers_json.hpp"
#include "render/markup/markup.hpp"
#include "story/scene/theme.hpp"
#include "story/storyboard/problems.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/lang.hpp"
#include "story/text/locale.hpp"
#include "story/text/numbering.hpp"

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
    const std::pair<const char*, story::Color> vars[] = {{"weights", p.weights},
                                                         {"gradients", p.gradients},
                                                         {"optimizer", p.optimizer},
                                                         {"activations", p.activations},
                                                         {"comm", p.comm},
                                                         {"highlight", p.highlight},
                                                         {"idle", p.idle},
                                                         {"bg", p.background},
                                                         {"panel", p.panel},
                                                         {"line", p.grid},
                                                         {"fg", p.text},
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

// The messages the script translates, each once, sorted: the text of each tr("...") and
// N_("...") in it (its comments must not write one).
std::vector<std::string> script_msgids(std::string_view script) {
    std::set<std::string> ids;
    for (const std::string_view call : {"tr(\"", "N_(\""}) {
        for (std::size_t at = script.find(call); at != std::string_view::npos;
             at = script.find(call, at)) {
            at += call.size();
            ids.emplace(script.substr(at, script.find('"', at) - at));
        }
    }
    return {ids.begin(), ids.end()};
}

// What the script needs of the page's language: its tag, the numbering system of its numbers
// and each of its messages the catalogue translates.
std::string locale_json(const story::Locale& l) {
    nlohmann::ordered_json words = nlohmann::ordered_json::object();
    for (const std::string& id : calculator_msgids())
        if (const std::string text = l.tr(id); text != id) words[id] = text;
    const nlohmann::ordered_json locale{
        {"lang", l.tag()}, {"numbering", story::numbering_system(l.tag())}, {"words", words}};
    return script_json(locale.dump());
}

// The template's words, in the page's language.
void fill_words(std::string& page, const story::Locale& l) {
    fill(page, "lang", xml_escape(l.tag()));
    fill(page, "dir", story::is_rtl(l.tag()) ? "rtl" : "ltr");
    fill(page, "title", xml_escape(l.tr("shardreel calculator")));
    fill(page, "heading", xml_escape(l.tr("Training calculator")));
    fill(page, "lede",
         xml_escape(l.tr("Memory, communication, bubble and speed of one training step, for any "
                         "model and cluster, computed in this page by shardreel’s own cost model "
                         "(the engine the film is drawn from, compiled to WebAssembly). The "
                         "settings live in the address: copy it to share the calculation.")));
    fill(page, "key-figures", xml_escape(l.tr("Key figures")));
    fill(page, "settings", xml_escape(l.tr("Settings")));
    fill(page, "footer",
         xml_escape(l.tr("Made by shardreel calculator. Works offline: nothing is fetched.")));
}

// The calculator's own script: the memory bar, then the page's script, which draws with it.
std::string calculator_script() {
    return std::string(embedded::kStackBarJs) + "\n" + embedded::kCalculatorJs;
}

}  // namespace

std::vector<std::string> calculator_msgids() {
    std::vector<std::string> ids = script_msgids(calculator_script());
    // The settings' help, which the page shows beside each control: the settings table's, the
    // shape's, --global-batch's and --tokens' (the module's calc.settings() lists them all).
    for (const story::SettingSpec& s : story::settings()) ids.push_back(s.help);
    for (const FlagSpec& f : shape_flags()) ids.emplace_back(f.help);
    for (const FlagSpec& f : {kGlobalBatchFlag, kTokensFlag}) ids.emplace_back(f.help);
    // The templates of the engine's refusals, which the page fills with their arguments.
    for (const char* format : engine::problem_formats()) ids.emplace_back(format);
    // And of a flag's value, beside its control.
    for (const char* format : story::refusal_formats()) ids.emplace_back(format);
    std::ranges::sort(ids);
    ids.erase(std::ranges::unique(ids).begin(), ids.end());
    return ids;
}

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

std::string calculator_page(std::string_view wasm, const std::string& lang) {
    const story::Locale l(lang);
    std::string page = embedded::kCalculatorHtml;
    // The words, locale and module first: the scripts are filled in after them, so no text of
    // theirs is searched.
    fill_words(page, l);
    fill(page, "locale", locale_json(l));
    fill(page, "module", base64(wasm));
    fill(page, "style", palette_css() + embedded::kCalculatorCss);
    fill(page, "script", std::string(embedded::kCalcJs) + "\n" + calculator_script());
    return page;
}

}  // namespace render

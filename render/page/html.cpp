// The page's markup, style and script; see html.hpp.
#include "render/page/html.hpp"

#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>

#include "render/markup/markup.hpp"
#include "story/storyboard/languages.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"
#include "story/text/lang.hpp"
#include "story/text/locale.hpp"

namespace render {
namespace {

using story::Locale;

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    std::string out = buf;
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
    return out;
}

std::string clock(double s) {
    const int whole = static_cast<int>(s);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d:%02d", whole / 60, whole % 60);
    return buf;
}

const char* kStyle = R"CSS(
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--accent:#0969da;--panel:#f6f8fa}
@media (prefers-color-scheme: dark){:root{--bg:#0e1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--accent:#4493f8;--panel:#151b23}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
h1{font-size:2rem;line-height:1.2;margin:2rem 0 .5rem}
h2{font-size:1.4rem;margin:2.5rem 0 .75rem}
h3{font-size:1.05rem;margin:1.25rem 0 .5rem}
a{color:var(--accent)}
.lede{font-size:1.15rem;color:var(--muted)}
video{display:block;width:100%;height:auto;background:#000;border-radius:6px}
nav.chapters ol{padding-inline-start:1.5rem;columns:2 18rem}
#calculator iframe{display:block;width:100%;height:90vh;border:1px solid currentColor;border-radius:6px}
p.calc{margin:.5rem 0}
ul.calc-beats{margin:.25rem 0;padding-inline-start:1.5rem;font-size:.95rem}
nav.chapters li{margin:.2rem 0}
button.seek{font:inherit;color:var(--accent);background:none;border:0;padding:.15rem .2rem;cursor:pointer;text-align:start;text-decoration:underline}
button.seek:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.time{color:var(--muted);font-variant-numeric:tabular-nums}
figure{margin:0}
.art{border:1px solid var(--line);border-radius:6px;overflow:hidden;line-height:0}
.art svg{display:block;width:100%;height:auto}
.only-dark{display:none}
@media (prefers-color-scheme: dark){.only-dark{display:block}.only-light{display:none}}
figcaption{color:var(--muted);font-size:.95rem;margin:.4rem 0 0}
.explore{display:flex;flex-wrap:wrap;gap:1rem 2rem;margin:1rem 0;padding:.75rem 1rem;background:var(--panel);border-radius:6px}
.explore label{font-weight:600}
.explore input[type=range]{width:min(18rem,100%);accent-color:var(--accent)}
.explore output{font-variant-numeric:tabular-nums;font-weight:600;margin-inline-start:.5rem}
.slider{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem}
fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
legend{font-weight:600;float:inline-start;margin-inline-end:.5rem}
.pill{display:inline-flex;align-items:center;border:1px solid var(--line);border-radius:999px;padding:.1rem .8rem;font-weight:400;cursor:pointer}
.pill input{margin:0 .4rem 0 0;accent-color:var(--accent)}
.pill:has(input:checked){border-color:var(--accent);color:var(--accent);font-weight:600}
table.numbers{border-collapse:collapse;width:100%;margin:1rem 0;font-variant-numeric:tabular-nums}
table.numbers caption{text-align:start;font-weight:600;margin-bottom:.25rem}
table.numbers th,table.numbers td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:start;vertical-align:top}
table.numbers td{text-align:end;white-space:nowrap}
.maths .formula{margin:.75rem 0}
.maths math{text-align:start;margin:.1rem 0;max-width:100%;overflow-x:auto}
.formula-label{display:block;color:var(--muted);font-size:.9rem}
math{font-size:1.1rem}
@media (max-width:30rem){math{font-size:.95rem}body{font-size:16px}}
.transcript p{margin:.3rem 0}
details{margin:.5rem 0}
summary{cursor:pointer;font-weight:600}
dt{font-weight:600;margin-top:.6rem}
dd{margin:0;margin-inline-start:1rem}
footer{color:var(--muted);font-size:.9rem;margin:3rem auto 2rem}
:lang(ar) nav.chapters ol{list-style-type:arabic-indic}
:lang(fa) nav.chapters ol{list-style-type:persian}
.glyphs{position:absolute;width:0;height:0;overflow:hidden}
@media (prefers-reduced-motion: reduce){*{transition:none!important;animation:none!important}}
)CSS";

const char* kScript = R"JS(
(() => {
  const film = document.getElementById('film');
  for (const b of document.querySelectorAll('nav.chapters button.seek'))
    b.addEventListener('click', () => { film.currentTime = Number(b.dataset.start); });
  if (matchMedia('(prefers-reduced-motion: no-preference)').matches) {
    film.muted = true;
    film.play().catch(() => {});
  }
  for (const box of document.querySelectorAll('.explore')) {
    const id = box.dataset.chapter;
    const data = JSON.parse(document.getElementById('variants-' + id).textContent);
    const section = document.getElementById('ch-' + id);
    const art = section.querySelector('figure .art');
    const written = document.createElement('template');
    written.id = data.variants[data.base.join(',')].figure;
    written.innerHTML = art.innerHTML;
    document.body.appendChild(written);
    const controls = data.params.map(p => box.querySelector('[data-param="' + p + '"]'));
    const index = () => controls.map((c, i) => c.matches('input') ? Number(c.value)
      : data.values[i].indexOf(c.querySelector('input:checked').value));
    const show = () => {
      const at = index(), v = data.variants[at.join(',')];
      art.innerHTML = document.getElementById(v.figure).innerHTML;
      art.setAttribute('aria-label', v.alt);
      for (const [key, s] of Object.entries(v.stats)) {
        const cell = section.querySelector('td[data-key="' + key + '"]');
        cell.textContent = s.text;
        cell.dataset.value = JSON.stringify(s.value);
      }
      section.querySelector('.maths').innerHTML = v.maths;
      const calc = section.querySelector('p.calc a[data-calc]');
      if (calc) calc.href = calc.getAttribute('href').split('#')[0] + '#' + v.calculator;
      controls.forEach((c, i) => {
        if (!c.matches('input')) return;
        const text = data.values[i][at[i]];
        c.setAttribute('aria-valuetext', text);
        box.querySelector('output[for="' + c.id + '"]').textContent = text;
      });
    };
    box.addEventListener('input', show);
  }
  // The calculator's frame: its outputs seek the film to the chapter that explains them (by
  // kind), and it learns the film's titles; a chapter's link opens its configuration there.
  const frame = document.querySelector('iframe[name="calculator"]');
  if (!frame) return;
  const seeks = [...document.querySelectorAll('nav.chapters button.seek')];
  const titles = {};
  for (const b of seeks.reverse()) titles[b.dataset.kind] = b.textContent;
  frame.addEventListener('load', () => frame.contentWindow.postMessage({ chapters: titles }, '*'));
  addEventListener('message', (e) => {
    const b = e.source === frame.contentWindow && seeks.find(s => s.dataset.kind === e.data.seek);
    if (!b) return;
    film.currentTime = Number(b.dataset.start);
    film.scrollIntoView({ block: 'nearest' });
  });
  for (const a of document.querySelectorAll('a[data-calc]'))
    a.addEventListener('click', () => frame.scrollIntoView());
})();
)JS";

std::string stats_table(const PageChapter& c, const Locale& l) {
    if (c.facts.stats.empty()) return "";
    std::string out = "<table class=\"numbers\"><caption>" +
                      xml_escape(l.tr("The cost model’s figures")) + "</caption><tbody>\n";
    for (const Stat& s : c.facts.stats)
        out += "<tr><th scope=\"row\">" + xml_escape(s.label) + "</th><td data-key=\"" + s.key +
               "\" data-value=\"" + xml_escape(s.value.dump()) + "\">" + xml_escape(s.text) +
               "</td></tr>\n";
    return out + "</tbody></table>\n";
}

std::string figure_id(const PageChapter& c, const PageVariant& v) {
    std::string id = "fig-" + c.id;
    for (std::size_t i : v.index) id += "-" + std::to_string(i);
    return id;
}

std::string key_of(const std::vector<std::size_t>& index) {
    std::string key;
    for (std::size_t i : index) key += (key.empty() ? "" : ",") + std::to_string(i);
    return key;
}

std::string controls(const PageChapter& c, const Locale& l) {
    std::string out = "<div class=\"explore\" data-chapter=\"" + c.id + "\">\n";
    for (std::size_t p = 0; p < c.explore.size(); ++p) {
        const story::ExploreParam& e = c.explore[p];
        const std::string id = "x-" + c.id + "-" + e.key, label = xml_escape(param_label(e.key, l));
        const std::string& value = e.values[c.written[p]];
        if (story::setting_type(e.key) == story::SettingType::whole) {
            out += "<div class=\"slider\"><label for=\"" + id + "\">" + label +
                   "</label><input type=\"range\" id=\"" + id + "\" data-param=\"" + e.key +
                   "\" min=\"0\" max=\"" + std::to_string(e.values.size() - 1) +
                   "\" step=\"1\" value=\"" + std::to_string(c.written[p]) +
                   "\" aria-valuetext=\"" + xml_escape(value) + "\"><output for=\"" + id + "\">" +
                   xml_escape(value) + "</output></div>\n";
            continue;
        }
        out += "<fieldset data-param=\"" + e.key + "\"><legend>" + label + "</legend>";
        for (std::size_t i = 0; i < e.values.size(); ++i)
            out += "<label class=\"pill\"><input type=\"radio\" name=\"" + id + "\" value=\"" +
                   xml_escape(e.values[i]) + "\"" + (i == c.written[p] ? " checked" : "") + ">" +
                   xml_escape(e.values[i]) + "</label>";
        out += "</fieldset>\n";
    }
    return out + "</div>\n";
}

// The variants' figures as templates and their figures as JSON: `at` (the figure's moment, as
// `numbers --at` takes it), the parameters, their values, the written combination and, per
// combination "i,j", its figure's template id, alt text, settings, stats and formulas.
std::string variant_data(const PageChapter& c) {
    nlohmann::ordered_json data{{"at", c.at},
                                {"params", nlohmann::ordered_json::array()},
                                {"values", nlohmann::ordered_json::array()},
                                {"base", c.written},
                                {"variants", nlohmann::ordered_json::object()}};
    for (const story::ExploreParam& e : c.explore) {
        data["params"].push_back(e.key);
        data["values"].push_back(e.values);
    }
    std::string templates;
    for (const PageVariant& v : c.variants) {
        nlohmann::ordered_json stats = nlohmann::ordered_json::object(), settings = stats;
        for (const Stat& s : v.facts.stats) stats[s.key] = {{"text", s.text}, {"value", s.value}};
        for (const story::Setting& s : v.settings) settings[s.key] = s.value;
        data["variants"][key_of(v.index)] = {
            {"figure", figure_id(c, v)}, {"alt", v.alt},
            {"settings", settings},      {"stats", stats},
            {"maths", v.facts.maths},    {"calculator", v.calculator}};
        if (!v.svg.empty())
            templates += "<template id=\"" + figure_id(c, v) + "\">" + v.svg + "</template>\n";
    }
    return templates + "<script type=\"application/json\" id=\"variants-" + c.id + "\">" +
           script_json(data.dump()) + "</script>\n";
}

// A link that opens a configuration (`at` the moment it is on screen) in the calculator's frame.
std::string calc_anchor(const std::string& at, const std::string& calculator,
                        const std::string& fragment, const std::string& text) {
    return "<a data-calc=\"" + at + "\" href=\"" + xml_escape(calculator) + "#" +
           xml_escape(fragment) + "\" target=\"calculator\">" + xml_escape(text) + "</a>";
}

// The chapter's configuration in the calculator, then each beat's that sets its own.
std::string calculator_link(const PageChapter& c, const std::string& calculator, const Locale& l) {
    if (calculator.empty()) return "";
    std::string out = "<p class=\"calc\">" +
                      calc_anchor(c.at, calculator, c.calculator,
                                  l.tr("Open this configuration in the calculator")) +
                      "</p>\n";
    if (c.beats.empty()) return out;
    out += "<ul class=\"calc-beats\">";
    for (const BeatLink& b : c.beats)
        out += "<li>" +
               calc_anchor(
                   b.at, calculator, b.calculator,
                   l.tr("Open beat {n}’s configuration in the calculator", {{"n", b.number}})) +
               "</li>";
    return out + "</ul>\n";
}

std::string calculator_section(const std::string& calculator, const std::string& start,
                               const Locale& l) {
    if (calculator.empty()) return "";
    const std::string name = xml_escape(l.tr("Calculator"));
    const std::string src = calculator + (start.empty() ? "" : "#" + start);
    return "<section id=\"calculator\" aria-labelledby=\"h-calculator\"><h2 id=\"h-calculator\">" +
           name + "</h2>\n<iframe name=\"calculator\" src=\"" + xml_escape(src) + "\" title=\"" +
           name + "\"></iframe></section>\n";
}

std::string chapter_section(const PageChapter& c, const std::string& calculator, const Locale& l) {
    std::string out = "<section class=\"chapter\" id=\"ch-" + c.id + "\" data-kind=\"" + c.kind +
                      "\" aria-labelledby=\"h-" + c.id + "\">\n<h2 id=\"h-" + c.id + "\">" +
                      xml_escape(c.title) + "</h2>\n";
    out += "<figure><div class=\"art\" role=\"img\" aria-label=\"" + xml_escape(c.alt) + "\">" +
           c.svg + "</div><figcaption>" + xml_escape(c.alt) + "</figcaption></figure>\n";
    if (!c.explore.empty()) out += controls(c, l);
    out += stats_table(c, l) + calculator_link(c, calculator, l);
    if (!c.facts.maths.empty() || !c.explore.empty())
        out += "<div class=\"maths\">" + c.facts.maths + "</div>\n";
    if (!c.transcript.empty()) {
        out += "<h3>" + xml_escape(l.tr("Transcript")) + "</h3><div class=\"transcript\">";
        for (const std::string& line : c.transcript) out += "<p>" + xml_escape(line) + "</p>";
        out += "</div>\n";
    }
    if (!c.explore.empty()) out += variant_data(c);
    return out + "</section>\n";
}

// Text percent-encoded but for unreserved characters (so nothing in it can end the attribute);
// keep: more characters left as they are.
std::string percent_encoded(const std::string& text, const char* keep = ":,!*'()") {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || std::strchr("-._~", c) || std::strchr(keep, c)) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// WebVTT as a data: URL.
std::string vtt_url(const std::string& vtt) {
    return "data:text/vtt;charset=utf-8," + percent_encoded(vtt);
}

std::string film_section(const PageModel& p, const Locale& l) {
    const std::string lang = "\" srclang=\"" + xml_escape(p.lang) + "\" label=\"";
    const std::string chapters = xml_escape(l.tr("Chapters"));
    std::string out =
        "<section class=\"film\" aria-label=\"" + xml_escape(l.tr("The film")) +
        "\">\n<video id=\"film\" controls preload=\"metadata\" playsinline poster=\"" + p.poster +
        "\" width=\"" + std::to_string(p.width) + "\" height=\"" + std::to_string(p.height) +
        "\"><source src=\"" + p.film + "\" type=\"video/mp4\"><track kind=\"captions\" src=\"" +
        vtt_url(p.captions_vtt) + lang + xml_escape(story::language_name(p.lang)) +
        "\" default><track kind=\"chapters\" src=\"" + vtt_url(p.chapters_vtt) + lang + chapters +
        "\"></video>\n";
    out += "<nav class=\"chapters\" aria-label=\"" + chapters + "\"><ol>\n";
    for (const PageChapter& c : p.chapters)
        out += "<li><button type=\"button\" class=\"seek\" data-kind=\"" + c.kind +
               "\" data-start=\"" + seconds_text(c.start) + "\">" + xml_escape(c.title) +
               "</button> <span class=\"time\">" + clock(c.start) + "</span> <a href=\"#ch-" +
               c.id + "\">" + xml_escape(l.tr("read")) + "<span class=\"glyphs\"> " +
               xml_escape(c.title) + "</span></a></li>\n";
    return out + "</ol></nav>\n</section>\n";
}

std::string questions(const story::PageText& t, const Locale& l) {
    std::string out;
    if (!t.questions.empty()) {
        out +=
            "<section id=\"questions\" aria-labelledby=\"h-questions\"><h2 "
            "id=\"h-questions\">" +
            xml_escape(l.tr("Questions")) + "</h2>\n";
        for (const story::QA& q : t.questions)
            out += "<details><summary>" + xml_escape(q.question) + "</summary><p>" +
                   xml_escape(q.answer) + "</p></details>\n";
        out += "</section>\n";
    }
    if (!t.glossary.empty()) {
        out +=
            "<section id=\"glossary\" aria-labelledby=\"h-glossary\"><h2 "
            "id=\"h-glossary\">" +
            xml_escape(l.tr("Glossary")) + "</h2><dl>\n";
        for (const story::Term& g : t.glossary)
            out += "<dt>" + xml_escape(g.term) + "</dt><dd>" + xml_escape(g.meaning) + "</dd>\n";
        out += "</dl></section>\n";
    }
    return out;
}

}  // namespace

std::string page_html(const PageModel& p) {
    const Locale l(p.lang);
    std::string out = "<!doctype html>\n<html lang=\"" + xml_escape(p.lang) + "\"" +
                      (story::is_rtl(p.lang) ? " dir=\"rtl\"" : "") +
                      ">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>" +
                      xml_escape(p.title) + "</title>\n<style>" + kStyle + p.colours +
                      "</style>\n</head>\n<body>\n" + p.glyphs + "<header><h1>" +
                      xml_escape(p.title) + "</h1>\n";
    if (!p.text.lede.empty()) out += "<p class=\"lede\">" + xml_escape(p.text.lede) + "</p>\n";
    out += "</header>\n<main>\n" + film_section(p, l);
    for (const PageChapter& c : p.chapters) out += chapter_section(c, p.calculator, l);
    out += calculator_section(p.calculator, p.calculator_start, l) + questions(p.text, l);
    out +=
        "</main>\n<footer><p>" +
        xml_escape(l.tr("Made with shardreel: every figure and number on this page comes from its "
                        "cost model.")) +
        "</p></footer>\n<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
    return out;
}

std::string calculator_fragment(const std::map<std::string, std::string>& flags) {
    std::string out;
    for (const auto& [flag, value] : flags)
        out +=
            (out.empty() ? "" : "&") + percent_encoded(flag, "") + "=" + percent_encoded(value, "");
    return out;
}

std::string chapters_webvtt(const std::vector<PageChapter>& chapters, double film_seconds) {
    std::string out = "WEBVTT\n";
    for (std::size_t i = 0; i < chapters.size(); ++i) {
        const double end = i + 1 < chapters.size() ? chapters[i + 1].start : film_seconds;
        out += "\n" + std::to_string(i + 1) + "\n" +
               story::format_timecode(chapters[i].start, '.') + " --> " +
               story::format_timecode(end, '.') + "\n" + chapters[i].title + "\n";
    }
    return out;
}

}  // namespace render

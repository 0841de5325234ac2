// The settings a chapter changes, named; see settings_note.hpp.
#include "story/vocab/settings_note.hpp"

#include <functional>
#include <map>

#include "engine/report.hpp"
#include "story/storyboard/setting_text.hpp"
#include "story/storyboard/settings.hpp"
#include "story/text/format.hpp"
#include "story/text/lang.hpp"
#include "story/vocab/pipeline_timeline.hpp"
#include "story/vocab/vocab.hpp"

namespace story {
namespace {

using C = engine::Config;
using Phrase = std::function<std::string(const C&, const Locale&)>;

// A whole-number setting read back from its text, for the phrases that count.
long long whole(const C& c, const char* name) { return std::stoll(setting_text(c, name)); }

Phrase counted(const char* one, const char* many, const char* name) {
    return [=](const C& c, const Locale& l) {
        const long long n = whole(c, name);
        return n == 1 ? l.tr(one) : l.tr(many, {{"n", format_int(n, l)}});
    };
}
Phrase numbered(const char* msgid, const char* name) {
    return [=](const C& c, const Locale& l) {
        return l.tr(msgid, {{"n", format_int(whole(c, name), l)}});
    };
}
Phrase keyword(const char* msgid, const char* name) {
    return [=](const C& c, const Locale& l) {
        return l.tr(msgid, {{"value", setting_text(c, name)}});
    };
}
Phrase flag(const char* on, const char* off, const char* name) {
    return [=](const C& c, const Locale& l) {
        const bool set = setting_text(c, name) == "true";
        return l.tr(set ? on : off);
    };
}

// How each setting reads when a chapter changes it; a setting not here reads "name: value".
const std::map<std::string, Phrase>& phrases() {
    static const std::map<std::string, Phrase> p{
        {"precision", keyword(N_("{value} precision"), "precision")},
        {"offload", keyword(N_("offload: {value}"), "offload")},
        {"optimizer", keyword(N_("optimizer {value}"), "optimizer")},
        {"seq_len", numbered(N_("{n}-token sequences"), "seq_len")},
        {"micro_batch", counted(N_("1 sequence per micro-batch"),
                                N_("{n} sequences per micro-batch"), "micro_batch")},
        {"micro_batches", counted(N_("1 micro-batch"), N_("{n} micro-batches"), "micro_batches")},
        {"recompute",
         [](const C& c, const Locale& l) {
             const char* kRecompute[] = {N_("no recompute"), N_("selective recompute"),
                                         N_("full recompute")};
             return l.tr(kRecompute[static_cast<int>(c.training.recompute)]);
         }},
        {"flash_attention",
         flag(N_("with FlashAttention"), N_("without FlashAttention"), "flash_attention")},
        {"sequence_parallel", flag(N_("with sequence parallelism"),
                                   N_("without sequence parallelism"), "sequence_parallel")},
        {"schedule",
         [](const C& c, const Locale& l) {
             return l.tr("{schedule} schedule",
                         {{"schedule", schedule_title(l, c.training.schedule)}});
         }},
        {"gpu", [](const C& c, const Locale&) { return gpu_display_name(c.cluster.gpu); }},
        {"nodes", counted(N_("1 node"), N_("{n} nodes"), "nodes")},
        {"gpus", counted(N_("1 GPU"), N_("{n} GPUs"), "gpus")},
        {"zero",
         [](const C& c, const Locale& l) {
             const int z = c.layout.zero;
             return z == 0 ? l.tr("without ZeRO") : "ZeRO-" + std::to_string(z);  // a name
         }},
    };
    return p;
}

// Whether a setting applies: it changes a figure of the engine's (pipeline chunks under 1F1B do
// not). A configuration the engine refuses on the way counts as a change.
bool changes_figures(const C& before, const C& after) {
    if (!engine::validate(before).empty() || !engine::validate(after).empty()) return true;
    return !(engine::analyze(before) == engine::analyze(after));
}

const std::string kNoBreak = "\u00A0";

std::string phrase(const std::string& name, const C& c, const Locale& l) {
    if (const auto it = phrases().find(name); it != phrases().end()) return it->second(c, l);
    // tp 4, pp 2, cp_mode ring, capacity_factor 0.5: named as flags write them, a number in the
    // film's digits and decimal sign, the name and its value joined by a no-break space (a line of
    // the note never ends on "tp").
    const std::string text = setting_text(c, name);
    if (setting_type(name) == SettingType::whole)
        return name + kNoBreak + format_count(std::stoll(text), l);
    if (setting_type(name) == SettingType::ranged)
        return name + kNoBreak + format_sig3(std::stod(text), l);
    return name + kNoBreak + text;
}

}  // namespace

std::vector<std::string> changed_settings(const C& film, const C& here, const Locale& l) {
    std::vector<std::string> out;
    C base = film;
    if (base.model != here.model) {
        out.push_back(l.tr("{params} model", {{"params", format_params(here.model.params, l)}}));
        base.model = here.model;
    }
    for (const std::string& name : setting_names()) {
        const std::string text = setting_text(here, name);
        if (text.empty() || setting_text(base, name) == text) continue;
        C next = base;
        apply_setting(next, name, text);  // what follows from it is not named again
        if (changes_figures(base, next)) out.push_back(phrase(name, here, l));
        base = std::move(next);
    }
    return out;
}

std::string settings_note(const C& film, const C& here, const Locale& l) {
    const std::vector<std::string> changed = changed_settings(film, here, l);
    if (changed.empty()) return "";
    // No line begins with the separator: only its space after may end a line.
    const std::string sep = list_separator(kNoBreak + "· ", l.tag());
    std::string joined;
    for (const std::string& c : changed) joined += (joined.empty() ? "" : sep) + c;
    return l.tr("Here: {settings}", {{"settings", joined}});
}

}  // namespace story

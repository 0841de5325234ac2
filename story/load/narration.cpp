// Narration and its voices; see narration.hpp.
#include "story/load/narration.hpp"

#include <algorithm>

#include "story/load/text.hpp"
#include "story/storyboard/settings.hpp"

namespace story::load {
namespace {

// A voice's name after its engine: what the loader takes, and the schema.
bool is_voice_name(std::string_view name) {
    return !name.empty() && std::ranges::all_of(name, [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
               std::string_view("_.+/-").find(ch) != std::string_view::npos;
    });
}

std::string unknown_voice(const std::string& value, const std::string& engine) {
    std::vector<std::string> names(std::begin(limits::kVoiceEngines),
                                   std::end(limits::kVoiceEngines));
    std::string hint = closest_match(engine, names);
    for (const std::string& name : names)
        if (hint.empty() && !engine.empty() && name.starts_with(engine)) hint = name;
    const std::string what = value == engine ? "voice '" + value + "'"
                                             : "voice engine '" + engine + "' in '" + value + "'";
    if (!hint.empty()) return "unknown " + what + " (did you mean '" + hint + "'?)";
    return "unknown " + what +
           " (expected espeak-ng:VOICE, festival:VOICE, open-jtalk:VOICE, recorded or off)";
}

std::string speaks_not(const std::string& voice, const std::string& lang,
                       const std::string& whose) {
    return "voice '" + voice + "' does not speak " + lang + " (" + language_name(lang) + "), " +
           whose + ": give a voice of it, e.g. espeak-ng:" + default_voice_name(lang) +
           ", or one voice per language, voice: {" + lang + ": ...}";
}

// off (any YAML 1.1 false), ENGINE:VOICE or recorded, over n; false after an error.
bool plain_voice(Context& ctx, const Entry& e, Narration& n) {
    auto s = scalar(ctx, e);
    if (!s) return false;
    if (parse_flag(*s) == false) {
        n.engine = VoiceEngine::off;
        n.voice.clear();
        n.pos = e.value->pos;
        return true;
    }
    const std::size_t colon = s->find(':');
    const std::string engine = s->substr(0, colon);
    const auto& engines = limits::kVoiceEngines;
    const auto it = std::ranges::find(engines, engine);
    const std::string name = colon == std::string::npos ? "" : s->substr(colon + 1);
    if (it == std::end(engines)) {
        ctx.error(*e.value, unknown_voice(*s, engine));
    } else if (limits::engine_names_voice(engine) && !is_voice_name(name)) {
        ctx.error(*e.value, "voice '" + *s + "' needs a voice name after '" + engine +
                                ":' (e.g. espeak-ng:en-us, festival:cmu_us_slt_arctic_hts or "
                                "open-jtalk:nitech-jp-atr503-m001)");
    } else if (!limits::engine_names_voice(engine) && colon != std::string::npos) {
        ctx.error(
            *e.value,
            "'" + engine + "' takes no voice name (the takes are the voice), got '" + *s + "'");
    } else {
        n.engine = static_cast<VoiceEngine>(1 + (it - std::begin(engines)));
        n.voice = name;
        n.pos = e.value->pos;
        return true;
    }
    return false;
}

// espeak-ng speaking the film's language, in place of `n`'s voice.
Narration language_voice(const Context& ctx, Narration n) {
    n.engine = VoiceEngine::espeak;
    n.voice = default_voice_name(ctx.langs.film());
    return n;
}

// `voice: {en: "festival:...", de: "espeak-ng:de"}`: the film's language's voice; a language
// left out keeps the voice it had (a chapter's map), or is spoken by espeak-ng.
void voice_map(Context& ctx, const Entry& e, Narration& n) {
    std::optional<Narration> own;
    bool voiced = false;
    each_language(ctx, e, [&](const std::string& lang, const Entry& item) {
        Narration said = n;
        if (!plain_voice(ctx, item, said)) return;
        if (!voice_speaks(said.engine, said.voice, lang)) {
            ctx.error(*item.value, speaks_not(item.value->text, lang, "its language"));
            return;
        }
        voiced = voiced || said.engine != VoiceEngine::off;
        if (lang == ctx.langs.film()) own = said;
    });
    if (own) {
        n = *own;
    } else if (voiced && n.engine == VoiceEngine::off) {
        n.pos = e.value->pos;
        n = language_voice(ctx, n);
    }
}

// The film's voice: one voice (the default language's, and every language it speaks; any
// other language is spoken by espeak-ng), or a map by language. Each must speak its language.
void voice(Context& ctx, const Entry& e, Narration& n) {
    if (e.value->is_map()) return voice_map(ctx, e, n);
    Narration said = n;
    if (!plain_voice(ctx, e, said)) return;
    const std::string& own = ctx.langs.default_language();
    if (!voice_speaks(said.engine, said.voice, own)) {
        ctx.error(*e.value, speaks_not(e.value->text, own, "the storyboard's own language"));
        return;
    }
    const bool other_language = said.engine == VoiceEngine::recorded ||
                                !voice_speaks(said.engine, said.voice, ctx.langs.film());
    n = ctx.langs.film_is_default() || !other_language ? said : language_voice(ctx, said);
}

// One language's {word: reading}, sorted longest word first; nullopt after an error.
std::optional<std::vector<Reading>> readings_of(Context& ctx, const Entry& e) {
    if (!e.value->is_map()) {
        ctx.error(*e.value, "expected a map of word: reading for '" + e.key->text + "', got " +
                                describe(*e.value) + " (e.g. {NVLink: エヌブイリンク})");
        return std::nullopt;
    }
    std::vector<Reading> out;
    bool ok = true;
    for (const Entry& item : e.value->entries) {
        auto reading = scalar(ctx, item);
        if (reading && !reading->empty() && !item.key->text.empty()) {
            out.push_back({item.key->text, *reading});
            continue;
        }
        if (reading && item.key->text.empty())
            ctx.error(*item.key, "a word to read needs letters, not an empty key");
        else if (reading)
            ctx.error(*item.value, "'" + item.key->text + "' needs a reading, not empty");
        ok = false;
    }
    std::stable_sort(out.begin(), out.end(), [](const Reading& a, const Reading& b) {
        return a.word.size() > b.word.size();
    });
    return ok ? std::optional(std::move(out)) : std::nullopt;
}

// `pronounce: {ja: {NVLink: エヌブイリンク}}`: the film's language's readings, longest word
// first; a language it leaves out keeps the readings it had (a chapter's map).
void pronounce(Context& ctx, const Entry& e, Narration& n) {
    if (!e.value->is_map()) {
        ctx.error(*e.value, "expected a map by language for 'pronounce', got " +
                                describe(*e.value) +
                                " (e.g. pronounce: {ja: {NVLink: エヌブイリンク}})");
        return;
    }
    each_language(ctx, e, [&](const std::string& lang, const Entry& item) {
        auto readings = readings_of(ctx, item);
        if (readings && lang == ctx.langs.film()) n.readings = std::move(*readings);
    });
}

// The takes' folder; another language's takes are in its subfolder named by its tag.
std::optional<std::string> takes(Context& ctx, const Entry& e) {
    auto folder = file_name(ctx, e);
    if (folder && !ctx.langs.film_is_default()) *folder += "/" + ctx.langs.film();
    return folder;
}

}  // namespace

Narration read_narration(Context& ctx, const Entry& e, Narration n, int fps) {
    if (!e.value->is_map()) {
        voice(ctx, e, n);
        return n;
    }
    const Entries fields = entries(ctx, *e.value, kNarrationKeys, "in narration");
    if (const Entry* f = find(fields, "voice")) voice(ctx, *f, n);
    if (const Entry* f = find(fields, "wpm"))
        n.wpm = static_cast<int>(integer(ctx, *f, limits::whole_number("wpm")).value_or(n.wpm));
    if (const Entry* f = find(fields, "gap"))
        n.gap = ranged(ctx, *f, limits::range("gap"), fps).value_or(n.gap);
    if (const Entry* f = find(fields, "tail"))
        n.tail = ranged(ctx, *f, limits::range("tail"), fps).value_or(n.tail);
    if (const Entry* f = find(fields, "takes")) n.takes = takes(ctx, *f).value_or(n.takes);
    if (const Entry* f = find(fields, "pronounce")) pronounce(ctx, *f, n);
    return n;
}

}  // namespace story::load

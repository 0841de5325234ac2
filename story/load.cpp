// Storyboard loading (schema version 1): YAML nodes to plain structs, every user error collected
// with its position. The only file that includes yaml-cpp.
#include "story/load.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>

#include "engine/plan.hpp"
#include "story/beat_checks.hpp"
#include "story/chapter.hpp"
#include "story/format.hpp"
#include "story/languages.hpp"
#include "story/limits.hpp"
#include "story/schema_keys.hpp"
#include "story/settings.hpp"
#include "story/units.hpp"

namespace story {
namespace {

using Keys = std::vector<std::string>;

const Keys kTopKeys{"shardreel", "title", "video",     "defaults",
                    "chapters",  "page",  "languages", "fallback"};
const Keys kVideoKeys{"size",      "fps",   "theme",       "captions",
                      "narration", "music", "music_level", "lang"};
const Keys kDefaultsKeys{"model", "training", "cluster", "parallel"};
const Keys kChapterKeys{"id",        "kind",  "title",    "subtitle", "duration",
                        "fit",       "model", "training", "cluster",  "parallel",
                        "narration", "beats", "figure",   "explore"};
const Keys kBeatKeys{"at", "say", "set", "over", "gap", "take", "sound", "explore"};
const Keys kPageKeys{"lede", "questions", "glossary"};
const Keys kQuestionKeys{"q", "a"}, kTermKeys{"term", "means"};
const Keys kNarrationKeys{"voice", "wpm", "gap", "tail", "takes", "pronounce"};
const Keys kModelKeys{"name",           "params",       "layers",   "hidden",  "heads",
                      "kv_heads",       "ffn",          "vocab",    "experts", "top_k",
                      "shared_experts", "dense_layers", "dense_ffn"};
const Keys kModelRequired{"layers", "hidden", "heads"};
// Section keys are flat setting names (settings.hpp), applied in the settings' order: a gpu
// first so that an nvlink or network beside it overrides the preset's links; gpus after the
// cluster size.
const Keys kTrainingKeys = section_keys(SettingSection::training);
const Keys kClusterKeys = section_keys(SettingSection::cluster);
const Keys kParallelKeys = section_keys(SettingSection::parallel);

struct Section {
    const char* name;
    const Keys* keys;
};
const Section kSections[] = {
    {"training", &kTrainingKeys}, {"cluster", &kClusterKeys}, {"parallel", &kParallelKeys}};

bool contains(const Keys& keys, const std::string& k) { return std::ranges::count(keys, k) > 0; }

SourcePos pos_of(const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    if (m.is_null()) return {};
    return {m.line + 1, m.column + 1};
}

std::string describe(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Scalar:
            return "'" + n.Scalar() + "'";
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Map:
            return "a map";
        default:
            return "nothing";
    }
}

// A map entry, its key node kept for positions. Never assign YAML::Node objects: assignment
// rebinds the underlying document node.
struct Entry {
    YAML::Node key, value;
};
using Entries = std::map<std::string, Entry>;

const Entry* find(const Entries& entries, const std::string& key) {
    auto it = entries.find(key);
    return it == entries.end() ? nullptr : &it->second;
}

// A bookmark's name, and a voice's after its engine: what the loader takes, and the schema.
bool is_mark_name(std::string_view name) {
    return !name.empty() && std::ranges::all_of(name, [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
    });
}
bool speaks(const Beat& b) { return !b.say.empty(); }

bool is_voice_name(std::string_view name) {
    return !name.empty() && std::ranges::all_of(name, [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
               std::string_view("_.+/-").find(ch) != std::string_view::npos;
    });
}

// Takes the `[[name]]` bookmarks out of a `say:`, each recorded at the word after it (spaces a
// bookmark leaves doubled are dropped). Returns what is wrong with any (those are dropped too).
std::vector<std::string> take_bookmarks(std::string& say, std::vector<Bookmark>& marks) {
    std::vector<std::string> problems;
    std::string out;
    std::size_t i = 0;
    while (i < say.size()) {
        const std::size_t open = say.find("[[", i), close = say.find("]]", open);
        if (open == std::string::npos || close == std::string::npos) {
            if (open != std::string::npos)
                problems.push_back("unclosed bookmark '" + say.substr(open, 24) +
                                   "' in say: (write [[name]] before a word)");
            out += say.substr(i);
            break;
        }
        out += say.substr(i, open - i);
        const std::string name = say.substr(open + 2, close - open - 2);
        i = close + 2;
        if (out.empty() || out.back() == ' ')
            while (i < say.size() && say[i] == ' ') ++i;
        if (!is_mark_name(name)) {
            problems.push_back("bad bookmark '[[" + name +
                               "]]' in say: (names use a-z, 0-9, '_' and '-')");
            continue;
        }
        const std::size_t word = std::min(say.find_first_not_of(' ', i), say.size());
        marks.push_back({name, out.size() + (word - i)});
    }
    while (!out.empty() && out.back() == ' ' && !say.ends_with(' ')) out.pop_back();
    for (Bookmark& m : marks) m.offset = std::min(m.offset, out.size());
    say = std::move(out);
    return problems;
}

class Loader {
  public:
    Loader(const std::string& file, Diagnostics& diags, std::vector<Diagnostic>& warnings,
           const std::string& lang)
        : file_(file), diags_(diags), warnings_(warnings), requested_(lang) {}

    Storyboard load(const YAML::Node& root) {
        Storyboard sb;
        sb.file = file_;
        if (!root.IsMap()) {
            error(SourcePos{1, 1}, root.IsNull()
                                       ? "the storyboard is empty (expected 'shardreel: 1')"
                                       : "expected a map at the top level, got " + describe(root));
            return sb;
        }
        const Entries top = entries(root, kTopKeys, "");
        version(top, root);
        std::optional<Entries> video_fields;
        if (const Entry* e = find(top, "video")) video_fields = map_of(*e, kVideoKeys, "in video");
        languages(top, video_fields, root);
        sb.languages = langs_.listed();
        if (const Entry* e = find(top, "title")) sb.title = localized(*e, {"storyboard's title"});
        if (video_fields) sb.video = video(*video_fields);
        sb.video.lang = langs_.film();
        engine::Config defaults = default_config();
        if (const Entry* e = find(top, "defaults")) apply_defaults(*e, defaults);
        sb.defaults = defaults;
        if (const Entry* e = find(top, "chapters"))
            sb.chapters = chapters(*e, sb);
        else
            error(root, "missing required key 'chapters'");
        if (const Entry* e = find(top, "page")) sb.page = page(*e);
        return sb;
    }

  private:
    void error(SourcePos pos, std::string message) { diags_.error(file_, pos, std::move(message)); }
    void error(const YAML::Node& at, std::string message) { error(pos_of(at), std::move(message)); }

    // The entries of a map, reporting unknown keys (with a suggestion) and repeated ones.
    Entries entries(const YAML::Node& map, const Keys& known, const std::string& where) {
        Entries out;
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it->first.IsScalar()) {
                error(it->first, "expected a key name, got " + describe(it->first));
                continue;
            }
            const std::string key = it->first.Scalar();
            if (const Entry* first = find(out, key)) {
                error(it->first, "duplicate key '" + key + "' (first on line " +
                                     std::to_string(pos_of(first->key).line) + ")");
            } else if (!contains(known, key)) {
                error(it->first, unknown_key(key, known, where));
            } else {
                out.emplace(key, Entry{it->first, it->second});
            }
        }
        return out;
    }

    static std::string unknown_key(const std::string& key, const Keys& known,
                                   const std::string& where) {
        std::string message = "unknown key '" + key + "'" + (where.empty() ? "" : " " + where);
        if (std::string hint = closest_match(key, known); !hint.empty())
            return message + " (did you mean '" + hint + "'?)";
        for (const Section& s : kSections)
            if (contains(*s.keys, key) && !contains(known, key))
                return message + " ('" + key + "' belongs under '" + s.name + "')";
        return message;
    }

    // The entries of e's value when it is a map; otherwise reports the type error.
    std::optional<Entries> map_of(const Entry& e, const Keys& known, const std::string& where) {
        if (e.value.IsMap()) return entries(e.value, known, where);
        error(e.value, "expected a map for '" + e.key.Scalar() + "', got " + describe(e.value));
        return std::nullopt;
    }

    std::optional<std::string> scalar(const Entry& e) {
        if (e.value.IsScalar()) return e.value.Scalar();
        error(e.value,
              "expected a single value for '" + e.key.Scalar() + "', got " + describe(e.value));
        return std::nullopt;
    }

    std::optional<std::string> text(const Entry& e) {
        if (e.value.IsNull()) return std::string();
        return scalar(e);
    }

    std::optional<long long> integer(const Entry& e, limits::Bound bound) {
        auto s = scalar(e);
        long long v = 0;
        if (!s) return std::nullopt;
        if (auto message = integer_in_range(e.key.Scalar(), *s, bound.lo, bound.hi, v)) {
            error(e.value, *message);
            return std::nullopt;
        }
        return v;
    }

    std::optional<double> time(const Entry& e, int fps) {
        auto s = scalar(e);
        if (!s) return std::nullopt;
        auto t = parse_time(*s, fps);
        if (!t) error(e.value, unit_error(*s, Quantity::time));
        return t;
    }

    void version(const Entries& top, const YAML::Node& root) {
        const Entry* e = find(top, "shardreel");
        if (!e) {
            error(root, "missing required key 'shardreel' (the schema version: shardreel: 1)");
            return;
        }
        if (auto v = scalar(*e); v && *v != "1")
            error(e->value, "unsupported schema version '" + *v + "' (this shardreel reads 1)");
    }

    // `video: lang` (the default language), `languages:` (every language the text is in, the
    // default among them) and `fallback:`; the film's language is the one asked for (--lang) or
    // the default.
    void languages(const Entries& top, const std::optional<Entries>& video,
                   const YAML::Node& root) {
        const Entry* lang = video ? find(*video, "lang") : nullptr;
        const std::string own = lang ? language_tag(*lang).value_or("en") : "en";
        std::vector<std::string> listed{own};
        const Entry* list = find(top, "languages");
        if (list) listed = language_list(*list, own);
        std::string fallback;
        if (const Entry* f = find(top, "fallback")) fallback = fallback_language(*f, listed);
        std::string film = requested_.empty() ? own : requested_;
        if (std::ranges::count(listed, film) == 0) {
            const YAML::Node at = list ? list->key : lang ? lang->value : root;
            error(at, "this storyboard has no " + film + " text (it is in " +
                          quoted_languages(listed) + "): add " + film +
                          " to languages: with its translations, or ask for one of them");
            film = own;
        }
        langs_ = Languages(listed, fallback, film);
    }

    std::optional<std::string> language_tag(const Entry& e) {
        auto s = scalar(e);
        if (!s) return std::nullopt;
        TagCheck tag = check_language_tag(*s);
        if (tag.error) error(e.value, *tag.error);
        return tag.error ? std::nullopt : std::optional(tag.tag);
    }

    // `languages: [en, de, ar]`, the default language first (wherever it is written).
    std::vector<std::string> language_list(const Entry& e, const std::string& own) {
        std::vector<std::string> listed{own};
        if (!e.value.IsSequence() || e.value.size() == 0) {
            error(e.value,
                  "expected a list of language tags for 'languages' (e.g. [en, de, ar]), "
                  "got " +
                      describe(e.value));
            return listed;
        }
        bool has_own = false;
        for (const YAML::Node& item : e.value) {
            auto tag = language_tag(Entry{e.key, item});
            if (!tag) continue;
            if (*tag == own && !has_own) {
                has_own = true;
            } else if (std::ranges::count(listed, *tag)) {
                error(item, "duplicate language '" + *tag + "' in languages:");
            } else {
                listed.push_back(*tag);
            }
        }
        if (!has_own)
            error(e.value, "languages: lacks " + own +
                               ", the storyboard's own language (video: lang, default en): "
                               "add it, or set video: lang to one of them");
        return listed;
    }

    std::string fallback_language(const Entry& e, const std::vector<std::string>& listed) {
        auto tag = language_tag(e);
        if (!tag) return "";
        if (std::ranges::count(listed, *tag)) return *tag;
        error(e.value, "fallback: " + *tag + " is not in " + quoted_languages(listed) +
                           " (fall back to one of them)");
        return "";
    }

    // A text field as written: a string (the default language's) or a map by language.
    WrittenText written(const Entry& e) {
        WrittenText w{pos_of(e.value), e.value.IsMap(), {}};
        if (!w.by_language) {
            w.translations.push_back({langs_.default_language(), text(e).value_or(""), {}, w.pos});
            return w;
        }
        for (auto it = e.value.begin(); it != e.value.end(); ++it) {
            const Entry item{it->first, it->second};
            auto lang = language_tag(Entry{e.key, item.key});
            if (!lang) continue;
            if (std::ranges::count(w.translations, *lang, &Translation::lang))
                error(item.key, "duplicate translation '" + *lang + "'");
            else
                w.translations.push_back(
                    {*lang, text(item).value_or(""), pos_of(item.key), pos_of(item.value)});
        }
        return w;
    }

    // A text field in the film's language (Languages::pick).
    std::string localized(const Entry& e, const TextPlace& place) {
        return langs_.pick(written(e), place, file_, diags_, warnings_).text;
    }

    Video video(const Entries& fields) {
        Video v;
        if (const Entry* f = find(fields, "size")) frame_size(*f, v);
        if (const Entry* f = find(fields, "fps"))
            v.fps = static_cast<int>(integer(*f, limits::whole_number("fps")).value_or(v.fps));
        if (const Entry* f = find(fields, "theme"); f && scalar(*f)) {
            auto theme = parse_theme(f->value.Scalar());
            if (theme)
                v.theme = *theme;
            else
                error(f->value, unknown_choice(limits::choice("theme"), f->value.Scalar()));
        }
        if (const Entry* f = find(fields, "captions"); f && scalar(*f)) {
            if (auto mode = parse_captions(f->value.Scalar()))
                v.captions = *mode;
            else
                error(f->value, unknown_choice(limits::choice("captions"), f->value.Scalar()));
        }
        if (const Entry* f = find(fields, "narration"))
            v.narration = narration(*f, v.narration, v.fps);
        if (const Entry* f = find(fields, "music")) {
            v.music.file = file_name(*f).value_or("");
            v.music.pos = pos_of(f->value);
        }
        if (const Entry* f = find(fields, "music_level"))
            v.music.level = ranged(*f, limits::range("music_level"), v.fps).value_or(v.music.level);
        return v;
    }

    // `narration:` over `n` (the film's, for a chapter; each given field replaces its own): off,
    // a voice, or a map {voice, wpm, gap, tail, takes}.
    Narration narration(const Entry& e, Narration n, int fps) {
        if (!e.value.IsMap()) {
            voice(e, n);
            return n;
        }
        const Entries fields = entries(e.value, kNarrationKeys, "in narration");
        if (const Entry* f = find(fields, "voice")) voice(*f, n);
        if (const Entry* f = find(fields, "wpm"))
            n.wpm = static_cast<int>(integer(*f, limits::whole_number("wpm")).value_or(n.wpm));
        if (const Entry* f = find(fields, "gap"))
            n.gap = ranged(*f, limits::range("gap"), fps).value_or(n.gap);
        if (const Entry* f = find(fields, "tail"))
            n.tail = ranged(*f, limits::range("tail"), fps).value_or(n.tail);
        if (const Entry* f = find(fields, "takes")) n.takes = takes(*f).value_or(n.takes);
        if (const Entry* f = find(fields, "pronounce")) pronounce(*f, n);
        return n;
    }

    // `pronounce: {ja: {NVLink: エヌブイリンク}}`: the film's language's readings, longest word
    // first; a language it leaves out keeps the readings it had (a chapter's map).
    void pronounce(const Entry& e, Narration& n) {
        if (!e.value.IsMap()) {
            error(e.value, "expected a map by language for 'pronounce', got " + describe(e.value) +
                               " (e.g. pronounce: {ja: {NVLink: エヌブイリンク}})");
            return;
        }
        each_language(e, [&](const std::string& lang, const Entry& item) {
            auto readings = readings_of(item);
            if (readings && lang == langs_.film()) n.readings = std::move(*readings);
        });
    }

    // One language's {word: reading}, sorted longest word first; nullopt after an error.
    std::optional<std::vector<Reading>> readings_of(const Entry& e) {
        if (!e.value.IsMap()) {
            error(e.value, "expected a map of word: reading for '" + e.key.Scalar() + "', got " +
                               describe(e.value) + " (e.g. {NVLink: エヌブイリンク})");
            return std::nullopt;
        }
        std::vector<Reading> out;
        bool ok = true;
        for (auto it = e.value.begin(); it != e.value.end(); ++it) {
            const Entry item{it->first, it->second};
            auto reading = scalar(item);
            if (reading && !reading->empty() && !item.key.Scalar().empty()) {
                out.push_back({item.key.Scalar(), *reading});
                continue;
            }
            if (reading && item.key.Scalar().empty())
                error(item.key, "a word to read needs letters, not an empty key");
            else if (reading)
                error(item.value, "'" + item.key.Scalar() + "' needs a reading, not empty");
            ok = false;
        }
        std::stable_sort(out.begin(), out.end(), [](const Reading& a, const Reading& b) {
            return a.word.size() > b.word.size();
        });
        return ok ? std::optional(std::move(out)) : std::nullopt;
    }

    // The film's voice: one voice (the default language's, and every language it speaks; any
    // other language is spoken by espeak-ng), or a map by language. Each must speak its
    // language.
    void voice(const Entry& e, Narration& n) {
        if (e.value.IsMap()) return voice_map(e, n);
        Narration said = n;
        if (!plain_voice(e, said)) return;
        const std::string& own = langs_.default_language();
        if (!voice_speaks(said.engine, said.voice, own)) {
            error(e.value, speaks_not(e.value.Scalar(), own, "the storyboard's own language"));
            return;
        }
        const bool other_language = said.engine == VoiceEngine::recorded ||
                                    !voice_speaks(said.engine, said.voice, langs_.film());
        n = langs_.film_is_default() || !other_language ? said : language_voice(said);
    }

    // Each entry of a map by language whose key is a well-formed tag the storyboard lists, as
    // (language, entry); the others reported.
    template <class Each>
    void each_language(const Entry& e, Each each) {
        for (auto it = e.value.begin(); it != e.value.end(); ++it) {
            const Entry item{it->first, it->second};
            auto lang = language_tag(Entry{e.key, item.key});
            if (!lang) continue;
            if (auto problem = langs_.key_error(*lang)) {
                error(item.key, *problem);
                continue;
            }
            each(*lang, item);
        }
    }

    // `voice: {en: "festival:...", de: "espeak-ng:de"}`: the film's language's voice; a language
    // left out keeps the voice it had (a chapter's map), or is spoken by espeak-ng.
    void voice_map(const Entry& e, Narration& n) {
        std::optional<Narration> own;
        bool voiced = false;
        each_language(e, [&](const std::string& lang, const Entry& item) {
            Narration said = n;
            if (!plain_voice(item, said)) return;
            if (!voice_speaks(said.engine, said.voice, lang)) {
                error(item.value, speaks_not(item.value.Scalar(), lang, "its language"));
                return;
            }
            voiced = voiced || said.engine != VoiceEngine::off;
            if (lang == langs_.film()) own = said;
        });
        if (own) {
            n = *own;
        } else if (voiced && n.engine == VoiceEngine::off) {
            n.pos = pos_of(e.value);
            n = language_voice(n);
        }
    }

    // espeak-ng speaking the film's language, in place of `n`'s voice.
    Narration language_voice(Narration n) const {
        n.engine = VoiceEngine::espeak;
        n.voice = default_voice_name(langs_.film());
        return n;
    }

    static std::string speaks_not(const std::string& voice, const std::string& lang,
                                  const std::string& whose) {
        return "voice '" + voice + "' does not speak " + lang + " (" + language_name(lang) + "), " +
               whose + ": give a voice of it, e.g. espeak-ng:" + default_voice_name(lang) +
               ", or one voice per language, voice: {" + lang + ": ...}";
    }

    // off (any YAML 1.1 false), ENGINE:VOICE or recorded, over n; false after an error.
    bool plain_voice(const Entry& e, Narration& n) {
        auto s = scalar(e);
        if (!s) return false;
        if (parse_flag(*s) == false) {
            n.engine = VoiceEngine::off;
            n.voice.clear();
            n.pos = pos_of(e.value);
            return true;
        }
        const std::size_t colon = s->find(':');
        const std::string engine = s->substr(0, colon);
        const auto& engines = limits::kVoiceEngines;
        const auto it = std::ranges::find(engines, engine);
        const std::string name = colon == std::string::npos ? "" : s->substr(colon + 1);
        if (it == std::end(engines)) {
            error(e.value, unknown_voice(*s, engine));
        } else if (limits::engine_names_voice(engine) && !is_voice_name(name)) {
            error(e.value, "voice '" + *s + "' needs a voice name after '" + engine +
                               ":' (e.g. espeak-ng:en-us, festival:cmu_us_slt_arctic_hts or "
                               "open-jtalk:nitech-jp-atr503-m001)");
        } else if (!limits::engine_names_voice(engine) && colon != std::string::npos) {
            error(e.value, "'" + engine + "' takes no voice name (the takes are the voice), got '" +
                               *s + "'");
        } else {
            n.engine = static_cast<VoiceEngine>(1 + (it - std::begin(engines)));
            n.voice = name;
            n.pos = pos_of(e.value);
            return true;
        }
        return false;
    }

    static std::string unknown_voice(const std::string& value, const std::string& engine) {
        std::vector<std::string> names(std::begin(limits::kVoiceEngines),
                                       std::end(limits::kVoiceEngines));
        std::string hint = closest_match(engine, names);
        for (const std::string& name : names)
            if (hint.empty() && !engine.empty() && name.starts_with(engine)) hint = name;
        const std::string what = value == engine
                                     ? "voice '" + value + "'"
                                     : "voice engine '" + engine + "' in '" + value + "'";
        if (!hint.empty()) return "unknown " + what + " (did you mean '" + hint + "'?)";
        return "unknown " + what +
               " (expected espeak-ng:VOICE, festival:VOICE, open-jtalk:VOICE, recorded or off)";
    }

    // The takes' folder; another language's takes are in its subfolder named by its tag.
    std::optional<std::string> takes(const Entry& e) {
        auto folder = file_name(e);
        if (folder && !langs_.film_is_default()) *folder += "/" + langs_.film();
        return folder;
    }

    // A file or folder name, relative to the storyboard's folder (render checks that it exists).
    std::optional<std::string> file_name(const Entry& e) {
        auto s = text(e);
        if (s && s->empty())
            error(e.value, "expected a file name for '" + e.key.Scalar() + "', got nothing");
        if (!s || s->empty()) return std::nullopt;
        return s;
    }

    // A time or a level within its range (limits::kRanges).
    std::optional<double> ranged(const Entry& e, const limits::Range& r, int fps) {
        auto s = scalar(e);
        if (!s) return std::nullopt;
        const bool seconds = r.unit == "s";
        auto v = seconds ? parse_time(*s, fps) : parse_level(*s);
        if (!v) {
            error(e.value, unit_error(*s, seconds ? Quantity::time : Quantity::level));
            return std::nullopt;
        }
        if (auto message = limits::range_error(r, *v)) {
            error(e.value, *message);
            return std::nullopt;
        }
        return v;
    }

    static std::string unknown_choice(const limits::Choice& choice, const std::string& value) {
        return unknown_name(std::string(choice.key), value, choice.listed());
    }

    // burn, track or off; any YAML 1.1 false (`captions: off` is false to PyYAML) is off too.
    static std::optional<Captions> parse_captions(const std::string& value) {
        const auto& names = limits::kCaptionModes;
        if (auto it = std::ranges::find(names, value); it != std::end(names))
            return static_cast<Captions>(it - std::begin(names));
        if (parse_flag(value) == false) return Captions::off;
        return std::nullopt;
    }

    void frame_size(const Entry& e, Video& v) {
        auto s = scalar(e);
        if (!s) return;
        auto size = parse_frame_size(*s);
        if (!size) {
            error(e.value, "cannot parse '" + *s + "' as a frame size (expected e.g. 1920x1080)");
        } else if (auto message = limits::frame_size_error(*size, *s)) {
            error(e.value, *message);
        } else {
            v.width = size->width;
            v.height = size->height;
        }
    }

    void apply_defaults(const Entry& e, engine::Config& c) {
        if (auto fields = map_of(e, kDefaultsKeys, "in defaults"))
            apply_config(*fields, c, "in defaults");
    }

    // model, then each section in turn, overriding c key by key; `parallel: plan` last, as the
    // planner needs everything else.
    void apply_config(const Entries& fields, engine::Config& c, const std::string& where) {
        if (const Entry* m = find(fields, "model")) model(*m, c, where);
        const Entry* planned = nullptr;
        for (const Section& s : kSections) {
            const Entry* e = find(fields, s.name);
            if (e && s.keys == &kParallelKeys && e->value.IsScalar() && e->value.Scalar() == "plan")
                planned = e;
            else if (e)
                apply_section(*e, *s.keys, c, where);
        }
        if (planned) plan_layout(*planned, c);
    }

    // The planner's first choice (engine/plan.hpp) for the model, training and cluster given,
    // keeping the global batch they imply (dp x micro_batch x micro_batches).
    void plan_layout(const Entry& e, engine::Config& c) {
        if (c.layout.dp() < 1) return;  // a degree below 1 or too large: reported already
        const long long batch =
            1LL * c.layout.dp() * c.training.micro_batch * c.training.micro_batches;
        const engine::PlanResult r =
            engine::plan(c, {1, int(std::min<long long>(batch, INT32_MAX))});
        if (!r.best.empty()) {
            c = r.best.front().config;
            return;
        }
        std::string message = "parallel: plan found no layout of " + c.model.name + " that fits " +
                              std::to_string(c.layout.gpus) + " x " + c.cluster.gpu.name;
        if (r.leanest) {
            const engine::PerGpu& g = r.leanest->report.per_gpu;
            message += " (the nearest needs " + format_bytes(g.total.value) + " per GPU of " +
                       format_bytes(g.capacity.value);
            if (g.host.value > 0)
                message += " and " + format_bytes(g.host.value) + " of host memory of " +
                           format_bytes(g.host_capacity.value);
            message += ")";
        }
        error(e.value, message + ": give more GPUs (cluster: nodes) or a GPU with more memory");
    }

    void apply_section(const Entry& e, const Keys& keys, engine::Config& c,
                       const std::string& where) {
        auto fields = map_of(e, keys, where);
        if (!fields) return;
        for (const std::string& key : keys) {
            const Entry* f = find(*fields, key);
            auto value = f ? scalar(*f) : std::nullopt;
            if (!value) continue;
            if (auto message = apply_setting(c, key, *value)) {
                error(f->value, *message);
            }
        }
    }

    void model(const Entry& e, engine::Config& c, const std::string& where) {
        if (e.value.IsMap()) {
            model_map(e, c, where);
        } else if (auto value = scalar(e)) {
            if (auto message = apply_setting(c, "model", *value)) error(e.value, *message);
        }
    }

    // {params, layers, hidden, heads, kv_heads, ffn, vocab, experts, top_k, shared_experts,
    // dense_layers, dense_ffn}; engine::validate checks the shape (top_k within the experts).
    void model_map(const Entry& e, engine::Config& c, const std::string& where) {
        const Entries fields = entries(e.value, kModelKeys, where);
        bool complete = true;
        for (const std::string& required : kModelRequired) {
            if (find(fields, required)) continue;
            error(e.value, "missing required key '" + required + "' for 'model' " + where);
            complete = false;
        }
        engine::ModelSpec m;
        m.name = "custom";
        if (const Entry* f = find(fields, "name")) m.name = text(*f).value_or(m.name);
        auto read = [&](limits::Bound bound, int fallback) {
            const Entry* f = find(fields, std::string(bound.key));
            auto v = f ? integer(*f, bound) : std::optional<long long>(fallback);
            complete = complete && v.has_value();
            return static_cast<int>(v.value_or(fallback));
        };
        using limits::whole_number;
        m.layers = read(whole_number("layers"), 0);
        m.hidden = read(whole_number("hidden"), 0);
        m.heads = read(whole_number("heads"), 0);
        m.kv_heads = read(whole_number("kv_heads"), m.heads);
        m.ffn = read(whole_number("ffn"), 4 * m.hidden);
        m.vocab = read(whole_number("vocab"), 32000);
        m.experts = read(whole_number("experts"), 0);
        m.top_k = read(whole_number("top_k"), 0);
        m.shared_experts = read(whole_number("shared_experts"), 0);
        m.dense_layers = read(whole_number("dense_layers"), 0);
        m.dense_ffn = m.dense_layers > 0 ? read(whole_number("dense_ffn"), m.ffn) : 0;
        m.context = c.model.context;
        m.params = engine::parameter_count(m);
        if (const Entry* f = find(fields, "params"))
            complete = params(*f, m) && complete;
        else if (complete)
            shape_params(e, m);
        if (complete) c.model = m;
    }

    // The count a shape implies must be in range too (reported, like every error, at once).
    void shape_params(const Entry& e, const engine::ModelSpec& m) {
        if (auto message = params_error(m.params, format_count(m.params) + " from its shape"))
            error(e.value, *message);
    }

    static std::string format_count(double count) {
        char text[32];
        std::snprintf(text, sizeof text, "%.3g", count);
        return text;
    }

    bool params(const Entry& e, engine::ModelSpec& m) {
        auto s = scalar(e);
        if (!s) return false;
        auto count = parse_count(*s);
        if (!count) {
            error(e.value, unit_error(*s, Quantity::count));
            return false;
        }
        if (auto message = params_error(*count, "'" + *s + "'")) {
            error(e.value, *message);
            return false;
        }
        m.params = *count;
        return true;
    }

    std::vector<ChapterSpec> chapters(const Entry& e, const Storyboard& sb) {
        std::vector<ChapterSpec> out;
        if (!e.value.IsSequence()) {
            error(e.value, "expected a list of chapters for 'chapters', got " + describe(e.value));
            return out;
        }
        if (e.value.size() == 0)
            error(e.value, "'chapters' is empty (a storyboard needs at least one)");
        std::map<std::string, SourcePos> ids;
        for (std::size_t i = 0; i < e.value.size(); ++i) {
            const YAML::Node node = e.value[i];
            if (!node.IsMap()) {
                error(node, "expected a map for chapter " + std::to_string(i + 1) + ", got " +
                                describe(node));
                continue;
            }
            out.push_back(chapter(node, i, sb, ids));
        }
        film_length(e, out);
        return out;
    }

    // The chapters whose lengths are known now (story::timed adds the auto ones).
    void film_length(const Entry& e, const std::vector<ChapterSpec>& specs) {
        double total = 0;
        for (const ChapterSpec& spec : specs)
            if (!spec.auto_duration) total += spec.duration;
        if (auto problem = limits::film_length_error(total)) error(e.key, *problem);
    }

    ChapterSpec chapter(const YAML::Node& node, std::size_t index, const Storyboard& sb,
                        std::map<std::string, SourcePos>& ids) {
        const int fps = sb.video.fps;
        ChapterSpec spec;
        spec.pos = pos_of(node);
        spec.config = sb.defaults;
        spec.narration = sb.video.narration;
        const YAML::Node id_node = node["id"];
        const bool named = id_node.IsDefined() && id_node.IsScalar();
        const std::string where = named ? "in chapter '" + id_node.Scalar() + "'"
                                        : "in chapter " + std::to_string(index + 1);
        const Entries fields = entries(node, kChapterKeys, where);
        if (const Entry* f = find(fields, "id"))
            chapter_id(*f, spec, ids);
        else
            error(node, "missing required key 'id' " + where);
        const KindInfo* kind = nullptr;
        if (const Entry* f = find(fields, "kind"))
            kind = chapter_kind(*f, spec);
        else
            error(node, "missing required key 'kind' " + where);
        if (const Entry* f = find(fields, "title")) spec.title = localized(*f, {"title", spec.id});
        if (const Entry* f = find(fields, "subtitle"))
            spec.subtitle = localized(*f, {"subtitle", spec.id});
        spec.duration = kind ? kind->default_duration : 0;
        const Entry* duration = find(fields, "duration");
        if (duration) chapter_duration(*duration, fps, spec);
        if (const Entry* f = find(fields, "fit"); f && scalar(*f)) fit(*f, spec);
        if (const Entry* f = find(fields, "narration"))
            spec.narration = narration(*f, spec.narration, fps);
        apply_config(fields, spec.config, where);
        for (const std::string& problem : config_problems(spec.config, kind))
            error(spec.pos, "invalid configuration " + where + ": " + problem);
        if (const Entry* f = find(fields, "beats")) beats(*f, fps, kind, where, spec);
        if (const Entry* f = find(fields, "figure")) figure(*f, fps, spec);
        if (const Entry* f = find(fields, "explore")) spec.explore = explore(*f, kind, spec.config);
        beat_explore(node, kind, spec);
        if (spec.auto_duration && std::ranges::none_of(spec.beats, speaks))
            error(duration->value,
                  "duration: auto needs a beat with a say: (the chapter ends "
                  "after its last line)");
        return spec;
    }

    // `figure: TIME` or `end`: when the article page's figure of the chapter shows.
    void figure(const Entry& e, int fps, ChapterSpec& spec) {
        if (e.value.IsScalar() && e.value.Scalar() == "end") {
            spec.figure = std::numeric_limits<double>::infinity();
            return;
        }
        auto t = time(e, fps);
        if (t && *t > spec.duration && !spec.auto_duration)
            error(e.value, "figure: " + e.value.Scalar() + " is after the chapter's end (" +
                               format_seconds(spec.duration) + "); give a time within it or end");
        else if (t)
            spec.figure = *t;
    }

    // A beat's `explore:` (at most one per chapter, and not beside the chapter's own).
    void beat_explore(const YAML::Node& node, const KindInfo* kind, ChapterSpec& spec) {
        const YAML::Node beats = node["beats"];
        if (!beats.IsDefined() || !beats.IsSequence()) return;
        for (std::size_t i = 0; i < beats.size(); ++i) {
            if (!beats[i].IsMap()) continue;
            const auto key = explore_key(beats[i]);
            if (!key) continue;
            if (!spec.explore.empty()) {
                error(*key, "chapter '" + spec.id +
                                "' already explores (one explore: per chapter, on the chapter "
                                "or on one of its beats)");
                return;
            }
            spec.explore = explore(Entry{*key, beats[i]["explore"]}, kind, spec.config);
            spec.explore_beat = static_cast<int>(i + 1);
        }
    }

    static std::optional<YAML::Node> explore_key(const YAML::Node& beat) {
        for (auto it = beat.begin(); it != beat.end(); ++it)
            if (it->first.IsScalar() && it->first.Scalar() == "explore") return it->first;
        return std::nullopt;
    }

    // `explore: {PARAM: [values]}`: parameters the kind can set, each value one apply_setting
    // and the cost model accept on the chapter's configuration, at most kMaxExploreVariants
    // combinations.
    std::vector<ExploreParam> explore(const Entry& e, const KindInfo* kind,
                                      const engine::Config& config) {
        std::vector<ExploreParam> out;
        if (!e.value.IsMap() || e.value.size() == 0) {
            error(e.value,
                  "expected a map of parameters to their values for 'explore' (e.g. "
                  "explore: {micro_batches: [1, 2, 4, 8]}), got " +
                      describe(e.value));
            return out;
        }
        long long variants = 1;
        for (auto it = e.value.begin(); it != e.value.end(); ++it) {
            if (auto p = explore_param(Entry{it->first, it->second}, kind, config, out)) {
                variants *= static_cast<long long>(p->values.size());
                out.push_back(std::move(*p));
            }
        }
        if (variants > limits::kMaxExploreVariants)
            error(e.key, "explore: gives " + std::to_string(variants) +
                             " combinations, more than the " +
                             std::to_string(limits::kMaxExploreVariants) +
                             " a page pre-renders (offer fewer values)");
        return out;
    }

    std::optional<ExploreParam> explore_param(const Entry& item, const KindInfo* kind,
                                              const engine::Config& config,
                                              const std::vector<ExploreParam>& seen) {
        if (!item.key.IsScalar()) {
            error(item.key, "expected a parameter name, got " + describe(item.key));
            return std::nullopt;
        }
        const std::string key = item.key.Scalar();
        if (kind && !contains(kind->settable, key)) {
            error(item.key, missing_parameter(*kind, key));
            return std::nullopt;
        }
        if (std::ranges::count(seen, key, &ExploreParam::key)) {
            error(item.key, "duplicate key '" + key + "' in explore:");
            return std::nullopt;
        }
        if (!item.value.IsSequence() || item.value.size() == 0) {
            error(item.value,
                  "expected a list of values for 'explore: " + key + "', got " +
                      (item.value.IsSequence() ? "an empty list" : describe(item.value)) +
                      " (e.g. " + key + ": [1, 2, 4, 8])");
            return std::nullopt;
        }
        ExploreParam p{key, {}, pos_of(item.key)};
        for (const YAML::Node& v : item.value) {
            if (auto value = explore_value(key, v, kind, config, p.values))
                p.values.push_back(*value);
        }
        return p.values.empty() ? std::nullopt : std::optional(std::move(p));
    }

    std::optional<std::string> explore_value(const std::string& key, const YAML::Node& v,
                                             const KindInfo* kind, const engine::Config& config,
                                             const std::vector<std::string>& values) {
        if (!v.IsScalar()) {
            error(v, "expected a value of '" + key + "' in explore:, got " + describe(v));
            return std::nullopt;
        }
        engine::Config c = config;
        if (auto problem = apply_setting(c, key, v.Scalar())) {
            error(v, "explore: " + *problem);
            return std::nullopt;
        }
        if (std::ranges::count(values, v.Scalar())) {
            error(v, "'" + v.Scalar() + "' is already among explore: " + key + "'s values");
            return std::nullopt;
        }
        for (const std::string& problem : config_problems(c, kind)) {
            error(v, "explore: " + key + ": " + v.Scalar() +
                         " gives an invalid configuration: " + problem);
            return std::nullopt;
        }
        return v.Scalar();
    }

    // `page:` {lede, questions: [{q, a}], glossary: [{term, means}]}.
    PageText page(const Entry& e) {
        PageText p;
        auto fields = map_of(e, kPageKeys, "in page");
        if (!fields) return p;
        if (const Entry* f = find(*fields, "lede")) p.lede = localized(*f, {"page's lede"});
        if (const Entry* f = find(*fields, "questions")) {
            const std::vector<Entries> list = items(*f, kQuestionKeys, "in a question");
            for (std::size_t i = 0; i < list.size(); ++i)
                p.questions.push_back(
                    {required_text(list[i], "q", *f, i), required_text(list[i], "a", *f, i)});
        }
        if (const Entry* f = find(*fields, "glossary")) {
            const std::vector<Entries> list = items(*f, kTermKeys, "in a glossary entry");
            for (std::size_t i = 0; i < list.size(); ++i)
                p.glossary.push_back({required_text(list[i], "term", *f, i),
                                      required_text(list[i], "means", *f, i)});
        }
        return p;
    }

    // The entries of each map in e's list.
    std::vector<Entries> items(const Entry& e, const Keys& known, const std::string& where) {
        std::vector<Entries> out;
        if (!e.value.IsSequence()) {
            error(e.value,
                  "expected a list for '" + e.key.Scalar() + "', got " + describe(e.value));
            return out;
        }
        for (const YAML::Node& node : e.value) {
            if (node.IsMap())
                out.push_back(entries(node, known, where));
            else
                error(node, "expected a map " + where + ", got " + describe(node));
        }
        return out;
    }

    // Item i's `key` (q, a, term, means) of a page list.
    std::string required_text(const Entries& item, const std::string& key, const Entry& list,
                              std::size_t i) {
        const Entry* f = find(item, key);
        if (!f) {
            const YAML::Node at = item.empty() ? list.value : item.begin()->second.key;
            error(at, "missing required key '" + key + "' in '" + list.key.Scalar() + "'");
            return "";
        }
        return localized(
            *f, {key + " of page " + list.key.Scalar() + " item " + std::to_string(i + 1)});
    }

    void fit(const Entry& e, ChapterSpec& spec) {
        const auto& names = limits::kFits;
        const auto it = std::ranges::find(names, e.value.Scalar());
        if (it == std::end(names))
            error(e.value, unknown_choice(limits::choice("fit"), e.value.Scalar()));
        else
            spec.stretch = *it == "stretch";
    }

    void chapter_id(const Entry& e, ChapterSpec& spec, std::map<std::string, SourcePos>& ids) {
        auto id = scalar(e);
        if (!id) return;
        spec.id = *id;
        const bool valid = !id->empty() && std::ranges::all_of(*id, [](char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
        });
        if (!valid) {
            error(e.value, "chapter id '" + *id + "' may only use a-z, 0-9 and '-'");
        } else if (auto [it, fresh] = ids.emplace(*id, pos_of(e.value)); !fresh) {
            error(e.value, "duplicate chapter id '" + *id + "' (first used on line " +
                               std::to_string(it->second.line) + ")");
        }
    }

    const KindInfo* chapter_kind(const Entry& e, ChapterSpec& spec) {
        auto name = scalar(e);
        if (!name) return nullptr;
        spec.kind = *name;
        const KindInfo* kind = find_kind(*name);
        if (!kind) error(e.value, unknown_name("chapter kind", *name, kind_names()));
        return kind;
    }

    void chapter_duration(const Entry& e, int fps, ChapterSpec& spec) {
        if (e.value.IsScalar() && e.value.Scalar() == "auto") {
            spec.auto_duration = true;
            return;
        }
        auto d = time(e, fps);
        if (!d) return;
        if (auto problem = limits::chapter_duration_error(*d, fps))
            error(e.value, *problem);
        else
            spec.duration = *d;
    }

    void beats(const Entry& e, int fps, const KindInfo* kind, const std::string& where,
               ChapterSpec& spec) {
        if (!e.value.IsSequence()) {
            error(e.value, "expected a list of beats for 'beats', got " + describe(e.value));
            return;
        }
        lines_.clear();
        for (std::size_t i = 0; i < e.value.size(); ++i) {
            const YAML::Node node = e.value[i];
            const TextPlace place{"say:", spec.id, static_cast<int>(i + 1)};
            if (!node.IsMap()) {
                error(node, "expected a map for a beat, got " + describe(node));
            } else if (auto b = beat(node, fps, kind, where, place)) {
                b->number = place.beat;
                spec.beats.push_back(std::move(*b));
            }
        }
        check_bookmarks(spec);
        check_takes(spec);
        // Times that need no speech are checked now, with the rest of the file.
        const bool fixed =
            !spec.auto_duration &&
            std::ranges::all_of(spec.beats, [](const Beat& b) { return b.rule == AtRule::fixed; });
        if (fixed) check_beats(spec, file_, where, diags_);
    }

    std::optional<Beat> beat(const YAML::Node& node, int fps, const KindInfo* kind,
                             const std::string& where, const TextPlace& place) {
        Beat b;
        b.pos = pos_of(node);
        const Entries fields = entries(node, kBeatKeys, where);
        const Entry* at = find(fields, "at");
        if (!at) {
            error(node, "missing required key 'at' for a beat " + where);
            return std::nullopt;
        }
        b.at_pos = pos_of(at->value);
        if (!start(*at, fps, b)) return std::nullopt;
        if (const Entry* f = find(fields, "say")) say(*f, place, b);
        if (const Entry* f = find(fields, "over")) b.over = time(*f, fps).value_or(0);
        if (const Entry* f = find(fields, "gap")) b.gap = ranged(*f, limits::range("gap"), fps);
        if (const Entry* f = find(fields, "take"); f && langs_.film_is_default()) {
            b.take = file_name(*f).value_or("");
            b.take_pos = pos_of(f->value);
        }
        if (const Entry* f = find(fields, "sound")) {
            b.sound = file_name(*f).value_or("");
            b.sound_pos = pos_of(f->value);
        }
        if (const Entry* f = find(fields, "set")) settings(*f, kind, b);
        return b;
    }

    // `at:` a time, `after` (when the beats before it end) or `mark:NAME` (a bookmark's word).
    bool start(const Entry& at, int fps, Beat& b) {
        auto s = scalar(at);
        if (!s) return false;
        if (*s == "after") {
            b.rule = AtRule::after;
            return true;
        }
        if (s->starts_with("mark:")) {
            b.mark = s->substr(5);
            b.rule = AtRule::mark;
            if (is_mark_name(b.mark)) return true;
            error(at.value, "bad bookmark name '" + b.mark + "' in 'at: " + *s +
                                "' (names use a-z, 0-9, '_' and '-')");
            return false;
        }
        if (auto t = parse_time(*s, fps)) {
            b.at = *t;
            return true;
        }
        if (!closest_match(*s, {"after"}).empty())
            error(at.value, "cannot parse '" + *s + "' as a beat's start (did you mean 'after'?)");
        else if (s->starts_with("mark"))
            error(at.value, "cannot parse '" + *s + "' as a beat's start (expected mark:NAME)");
        else
            error(at.value, unit_error(*s, Quantity::time));
        return false;
    }

    // The line in the film's language; every translation's bookmarks are kept for
    // check_bookmarks (and their problems reported, whichever language is loaded).
    void say(const Entry& e, const TextPlace& place, Beat& b) {
        const WrittenText w = written(e);
        std::vector<Line>& lines = lines_[place.beat];
        for (const Translation& t : w.translations) {
            std::string said = t.text;
            Line& line = lines.emplace_back(Line{t.lang, t.pos, {}});
            for (std::string& problem : take_bookmarks(said, line.marks))
                error(t.pos, std::move(problem));
        }
        const Translation said = langs_.pick(w, place, file_, diags_, warnings_);
        b.say = said.text;
        b.say_pos = said.pos;
        take_bookmarks(b.say, b.marks);
    }

    // Whether an earlier beat's line has bookmark `name` in any language (a beat starting on
    // it); reports each translation of that line that lacks it.
    bool translated_mark(const ChapterSpec& spec, std::size_t i) {
        const Beat& b = spec.beats[i];
        const auto has = [&](const Line& l) {
            return std::ranges::count(l.marks, b.mark, &Bookmark::name) > 0;
        };
        for (std::size_t j = 0; j < i; ++j) {
            const auto it = lines_.find(spec.beats[j].number);
            if (it == lines_.end() || std::ranges::none_of(it->second, has)) continue;
            const TextPlace place{"say:", spec.id, spec.beats[j].number};
            for (const Line& l : it->second)
                if (!has(l))
                    error(l.pos, "the " + l.lang + " text of " + place.describe() +
                                     " lacks the bookmark '[[" + b.mark +
                                     "]]' that the beat on line " + std::to_string(b.pos.line) +
                                     " starts on: write [[" + b.mark +
                                     "]] before the word it marks in every translation");
            return true;
        }
        return false;
    }

    // Each bookmark once per chapter; `at: mark:NAME` on one of an earlier beat (file order).
    void check_bookmarks(const ChapterSpec& spec) {
        std::map<std::string, int> seen;  // bookmark name -> line of its beat
        for (std::size_t i = 0; i < spec.beats.size(); ++i) {
            const Beat& b = spec.beats[i];
            const bool translated = b.rule == AtRule::mark && translated_mark(spec, i);
            if (b.rule == AtRule::mark && !seen.contains(b.mark) && !translated)
                error(b.at_pos, missing_bookmark(spec, i, seen));
            for (const Bookmark& m : b.marks) {
                if (auto [it, fresh] = seen.emplace(m.name, b.pos.line); !fresh)
                    error(b.say_pos, "bookmark '[[" + m.name + "]]' is already in chapter '" +
                                         spec.id + "' (on line " + std::to_string(it->second) +
                                         ")");
            }
        }
    }

    static std::string missing_bookmark(const ChapterSpec& spec, std::size_t i,
                                        const std::map<std::string, int>& seen) {
        const std::string name = spec.beats[i].mark;
        for (std::size_t j = i; j < spec.beats.size(); ++j) {
            if (std::ranges::count(spec.beats[j].marks, name, &Bookmark::name) == 0) continue;
            const std::string where =
                j == i ? "this beat's own line"
                       : "a later beat (line " + std::to_string(spec.beats[j].pos.line) + ")";
            return "bookmark '" + name + "' is in " + where +
                   ", but a beat can start only on a bookmark of an earlier one";
        }
        std::vector<std::string> names;
        for (const auto& [known, line] : seen) names.push_back(known);
        const std::string message =
            "no bookmark '" + name + "' in an earlier beat of chapter '" + spec.id + "'";
        if (std::string hint = closest_match(name, names); !hint.empty())
            return message + " (did you mean '" + hint + "'?)";
        return message + " (write [[" + name + "]] before a word of an earlier say:)";
    }

    // A take records a line; narration: recorded needs one for every line, from take: or takes:.
    void check_takes(const ChapterSpec& spec) {
        for (const Beat& b : spec.beats)
            if (!b.take.empty() && !speaks(b))
                error(b.take_pos, "take: needs a say: on its beat (the line it records)");
        if (spec.narration.engine != VoiceEngine::recorded || !spec.narration.takes.empty()) return;
        for (const Beat& b : spec.beats) {
            if (!speaks(b) || !b.take.empty()) continue;
            error(b.say_pos, "no recording for this line in chapter '" + spec.id +
                                 "': narration: recorded needs takes: FOLDER, or a take: on "
                                 "the beat");
            return;
        }
    }

    void settings(const Entry& e, const KindInfo* kind, Beat& b) {
        b.set_pos = pos_of(e.key);
        if (!e.value.IsMap()) {
            error(e.value, "expected a map for 'set', got " + describe(e.value));
            return;
        }
        for (auto it = e.value.begin(); it != e.value.end(); ++it) {
            const Entry item{it->first, it->second};
            if (!item.key.IsScalar()) {
                error(item.key, "expected a parameter name, got " + describe(item.key));
                continue;
            }
            auto value = scalar(item);
            if (!value) continue;
            const std::string key = item.key.Scalar();
            if (kind && !contains(kind->settable, key)) {
                error(item.key, missing_parameter(*kind, key));
                continue;
            }
            b.set.push_back(Setting{key, *value, pos_of(item.key), pos_of(item.value)});
        }
    }

    static std::string missing_parameter(const KindInfo& kind, const std::string& key) {
        std::string message = "chapter kind '" + kind.name + "' has no parameter '" + key + "'";
        if (std::string hint = closest_match(key, kind.settable); !hint.empty())
            return message + " (did you mean '" + hint + "'?)";
        if (kind.settable.empty()) return message + " (it has none)";
        std::string list;
        for (const std::string& name : kind.settable) list += (list.empty() ? "" : ", ") + name;
        return message + " (it has: " + list + ")";
    }

    // One translation of a beat's line with its bookmarks (say: keeps them for
    // translated_mark).
    struct Line {
        std::string lang;
        SourcePos pos;
        std::vector<Bookmark> marks;
    };

    const std::string& file_;
    Diagnostics& diags_;
    std::vector<Diagnostic>& warnings_;
    const std::string requested_;  // the language asked for (--lang); empty: the default
    Languages langs_;
    std::map<int, std::vector<Line>> lines_;  // the chapter's lines by beat number
};

// Whether the document, with every alias expanded, has at most kMaxYamlNodes nodes: aliases let a
// small text stand for an exponentially large tree ("billion laughs"), or for a cycle.
bool within_node_budget(const YAML::Node& root) {
    std::vector<YAML::Node> pending{root};
    long long count = 0;
    while (!pending.empty()) {
        const YAML::Node n = pending.back();
        pending.pop_back();
        if (++count > limits::kMaxYamlNodes) return false;
        for (auto it = n.begin(); it != n.end(); ++it) {
            if (n.IsSequence()) {
                pending.push_back(*it);
            } else {
                pending.push_back(it->first);
                pending.push_back(it->second);
            }
        }
    }
    return true;
}

std::optional<Storyboard> load_text(const std::string& text, const std::string& file,
                                    Diagnostics& found, std::vector<Diagnostic>& warnings,
                                    const std::string& lang) {
    if (auto problem = limits::storyboard_text_error(text)) {
        found.error(file, problem->pos, problem->message);
        return std::nullopt;
    }
    const YAML::Node root = YAML::Load(text);
    if (!within_node_budget(root)) {
        found.error(file, SourcePos{1, 1},
                    "the storyboard expands to more than " + std::to_string(limits::kMaxYamlNodes) +
                        " YAML nodes (through aliases)");
        return std::nullopt;
    }
    return Loader(file, found, warnings, lang).load(root);
}

}  // namespace

std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags) {
    std::vector<Diagnostic> warnings;
    return parse_storyboard(text, file, diags, warnings, "");
}

std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags, std::vector<Diagnostic>& warnings,
                                           const std::string& lang) {
    Diagnostics found;
    std::optional<Storyboard> sb;
    try {
        sb = load_text(text, file, found, warnings, lang);
    } catch (const YAML::Exception& e) {
        const SourcePos pos =
            e.mark.is_null() ? SourcePos{} : SourcePos{e.mark.line + 1, e.mark.column + 1};
        found.error(file, pos, "invalid YAML: " + e.msg);
    }
    diags.append(found);
    if (!found.empty()) return std::nullopt;
    return sb;
}

const std::vector<KeySet>& loader_keys() {
    // The required keys each have their own check above, with its own message.
    static const std::vector<KeySet> sets{{"top", kTopKeys, {"shardreel", "chapters"}},
                                          {"video", kVideoKeys},
                                          {"defaults", kDefaultsKeys},
                                          {"chapter", kChapterKeys, {"id", "kind"}},
                                          {"beat", kBeatKeys, {"at"}},
                                          {"page", kPageKeys},
                                          {"question", kQuestionKeys, {"q", "a"}},
                                          {"term", kTermKeys, {"term", "means"}},
                                          {"narration", kNarrationKeys},
                                          {"model", kModelKeys, kModelRequired},
                                          {"training", kTrainingKeys},
                                          {"cluster", kClusterKeys},
                                          {"parallel", kParallelKeys}};
    return sets;
}

}  // namespace story

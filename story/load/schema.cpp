// Builds storyboards/schema.json from the loader's own tables, so the schema cannot drift from
// what `shardreel check` accepts: every key with additionalProperties false, each whole number's
// range and each keyword's names from story/storyboard/limits.hpp, units as patterns from
// story/storyboard/units.cpp's tables.
#include "story/load/schema.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "engine/presets.hpp"
#include "story/chapter/chapter.hpp"
#include "story/load/schema_keys.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/settings.hpp"
#include "story/storyboard/units.hpp"

namespace story {
namespace {

using Json = nlohmann::ordered_json;

Json ref_to(std::string_view definition) {
    return {{"$ref", "#/definitions/" + std::string(definition)}};
}

// The schema with a description in front, where editors show it on hover.
Json described(std::string_view what, const Json& schema) {
    Json out{{"description", what}};
    for (const auto& [key, value] : schema.items()) out[key] = value;
    return out;
}

Json whole(const limits::Bound& b) {
    return {{"description", b.what}, {"type", "integer"}, {"minimum", b.lo}, {"maximum", b.hi}};
}

Json keyword(const limits::Choice& c) {
    Json names = Json::array();
    for (std::string_view n : c.names) names.push_back(n);
    for (std::string_view n : c.aliases) names.push_back(n);
    return {{"description", c.what}, {"enum", names}};
}

// A number or a quantity's text, e.g. 1.5s (times and counts).
Json number_or(Quantity q) {
    return {{"anyOf",
             {{{"type", "number"}, {"minimum", 0}},
              {{"type", "string"}, {"pattern", quantity_pattern(q)}}}}};
}

// A time (seconds) or a level (dB) in its range: the number's bounds are checked, the text's
// only for its shape.
Json ranged(const limits::Range& r) {
    const Quantity q = r.unit == "s" ? Quantity::time : Quantity::level;
    if (r.unit.empty())
        return {{"description", std::string(r.what) + "."},
                {"type", "number"},
                {"minimum", r.lo},
                {"maximum", r.hi}};
    char bounds[64];
    std::snprintf(bounds, sizeof bounds, " (%g to %g%.*s).", r.lo, r.hi,
                  static_cast<int>(r.unit.size()), r.unit.data());
    return {{"description", std::string(r.what) + bounds},
            {"anyOf",
             {{{"type", "number"}, {"minimum", r.lo}, {"maximum", r.hi}},
              {{"type", "string"}, {"pattern", quantity_pattern(q)}}}}};
}

Json flag() {
    Json words = Json::array();
    for (std::string_view w : limits::kTrueWords) words.push_back(w);
    for (std::string_view w : limits::kFalseWords) words.push_back(w);
    return {{"description",
             "true or false; yes/no and on/off too, in any of YAML 1.1's spellings (which YAML "
             "1.1 tools read as booleans)."},
            {"anyOf", {{{"type", "boolean"}}, {{"type", "string"}, {"enum", words}}}}};
}

Json captions() {
    Json c = keyword(limits::choice("captions"));
    c["description"] = std::string(c["description"]) + " false (YAML 1.1's off) is off.";
    c["enum"].push_back(false);
    return c;
}

// `narration: off` as YAML 1.1 and 1.2 tools read it (false, or the word), or a voice.
Json one_voice() {
    std::string engines;
    for (std::string_view e : limits::kVoiceEngines)
        engines += (engines.empty() ? "" : "|") + std::string(e) +
                   (limits::engine_names_voice(e) ? ":[A-Za-z0-9_.+/-]+" : "");
    Json off = Json::array();
    for (std::string_view w : limits::kFalseWords) off.push_back(w);
    off.push_back(false);
    return {{"description",
             "espeak-ng:VOICE (e.g. espeak-ng:en-us), festival:VOICE (e.g. "
             "festival:cmu_us_slt_arctic_hts), open-jtalk:VOICE (Japanese only, e.g. "
             "open-jtalk:nitech-jp-atr503-m001), recorded (the takes), or off."},
            {"anyOf", {{{"type", "string"}, {"pattern", "^(" + engines + ")$"}}, {{"enum", off}}}}};
}

// A map by language (issue 18): each key a language tag, each value `value`.
Json by_language(const Json& value) {
    return {{"type", "object"},
            {"minProperties", 1},
            {"propertyNames", ref_to("language")},
            {"additionalProperties", value}};
}

Json file_name(std::string_view what) {
    return {{"description", what}, {"type", "string"}, {"minLength", 1}};
}

std::string frame_size_description() {
    using namespace limits;
    return "WxH, even, " + std::to_string(kMinSide) + "x" + std::to_string(kMinSide) + " to " +
           std::to_string(kMaxWidth) + "x" + std::to_string(kMaxHeight) + ".";
}

// A key whose meaning is the same wherever the loader reads it (titles, models, sections, ...).
Json structural(const std::string& key) {
    static const std::map<std::string, Json> table{
        {"shardreel", {{"description", "Schema version."}, {"const", 1}}},
        {"title", ref_to("text")},
        {"subtitle", ref_to("text")},
        {"languages",
         {{"description",
           "Every language the storyboard's text is written in, its own (video: lang) among "
           "them; a text may then be a map by language."},
          {"type", "array"},
          {"minItems", 1},
          {"uniqueItems", true},
          {"items", ref_to("language")}}},
        {"fallback",
         described("The language whose text stands in for a missing translation (a warning).",
                   ref_to("language"))},
        {"lang", described("The storyboard's own language, its plain strings' (default en).",
                           ref_to("language"))},
        {"video", ref_to("video")},
        {"defaults", described("Inherited by every chapter; any chapter may override key by key.",
                               ref_to("defaults"))},
        {"chapters", {{"type", "array"}, {"minItems", 1}, {"items", ref_to("chapter")}}},
        {"size",
         {{"description", frame_size_description()},
          {"type", "string"},
          {"pattern", "^[0-9]+x[0-9]+$"}}},
        {"captions", captions()},
        {"model", ref_to("model")},
        {"training", ref_to("training")},
        {"cluster", ref_to("cluster")},
        {"parallel",
         {{"anyOf",
           {ref_to("parallel"),
            {{"const", "plan"},
             {"description",
              "The planner's first choice (shardreel plan) for this model, training and cluster, "
              "keeping the global batch they imply."}}}}}},
        {"id",
         {{"description", "Unique id: a-z, 0-9 and '-'."},
          {"type", "string"},
          {"pattern", "^[a-z0-9-]+$"}}},
        {"kind", {{"description", "What the chapter shows."}, {"enum", kind_names()}}},
        {"duration",
         {{"description",
           "Default: the kind's; auto: the last line's end plus the narration's tail."},
          {"anyOf", {ref_to("time"), {{"const", "auto"}}}}}},
        {"beats", {{"type", "array"}, {"items", ref_to("beat")}}},
        {"at",
         {{"description",
           "A time; after: the previous beat's speech end plus the gap; mark:NAME: the word a "
           "[[NAME]] bookmark of an earlier beat marks."},
          {"anyOf",
           {ref_to("time"),
            {{"const", "after"}},
            {{"type", "string"}, {"pattern", "^mark:[a-z0-9_-]+$"}}}}}},
        {"say",
         described(
             "Caption and narration; [[name]] before a word bookmarks it for `at: mark:name`.",
             ref_to("text"))},
        {"narration",
         {{"description",
           "The voice: off, a voice, or a map; a chapter's fields override the film's one by one."},
          {"anyOf", {ref_to("one_voice"), ref_to("narration")}}}},
        {"voice", ref_to("voice")},
        {"takes", file_name("Recorded takes' folder: <chapter>-<n>.wav|flac|mp3|opus|ogg|m4a.")},
        {"pronounce",
         described(
             "How the voice says words the captions write, by language: {ja: {NVLink: "
             "エヌブイリンク}}. A word of ASCII letters and digits is replaced only whole.",
             by_language({{"type", "object"},
                          {"propertyNames", {{"minLength", 1}}},
                          {"additionalProperties", {{"type", "string"}, {"minLength", 1}}}}))},
        {"take", file_name("This line's recording (narration: recorded).")},
        {"sound", file_name("A sound cue, played from the beat's start.")},
        {"music", file_name("Music under the whole film, ducked while the voice speaks.")},
        {"set", ref_to("set")},
        {"over", described("How long the `set:` morph takes.", ref_to("time"))},
        {"show",
         {{"description",
           "A phase of the kind's choreography that begins with this beat (each kind lists its "
           "own, in order); the picture between two shown phases is spread evenly between them."},
          {"type", "string"}}},
        {"name", {{"type", "string"}}},
        {"figure",
         {{"description",
           "When the article page's figure of this chapter shows (default: the end of the "
           "explored beat's morph, else the chapter's end)."},
          {"anyOf", {ref_to("time"), {{"const", "end"}}}}}},
        {"explore", ref_to("explore")},
        {"page", ref_to("page")},
        {"lede", described("The article page's opening paragraph.", ref_to("text"))},
        {"questions", {{"type", "array"}, {"items", ref_to("question")}}},
        {"glossary", {{"type", "array"}, {"items", ref_to("term")}}},
        {"q", ref_to("text")},
        {"a", ref_to("text")},
        {"term", ref_to("text")},
        {"means", ref_to("text")},
        {"params", ref_to("count")},
    };
    auto it = table.find(key);
    return it == table.end() ? Json() : it->second;
}

// What `key` may hold in the place `where`; in a training, cluster or parallel section a flat
// setting refers to its one definition under `setting`.
Json property(const std::string& where, const std::string& key) {
    const bool section = where == "training" || where == "cluster" || where == "parallel";
    if (section && setting_type(key)) return ref_to("setting/properties/" + key);
    if (Json s = structural(key); !s.is_null()) return s;
    if (const limits::Bound* b = limits::find_whole_number(key)) return whole(*b);
    if (const limits::Range* r = limits::find_range(key)) return ranged(*r);
    if (const limits::Choice* c = limits::find_choice(key)) return keyword(*c);
    throw std::logic_error("storyboard schema: nothing says what '" + key + "' " + where + " is");
}

Json setting(const std::string& name) {
    switch (*setting_type(name)) {
        case SettingType::model:
            return ref_to("model_name");
        case SettingType::gpu: {
            Json names = Json::array();
            for (const engine::GpuSpec& g : engine::gpu_presets()) names.push_back(g.name);
            return {{"description", "GPU preset; brings its own NVLink and network bandwidths."},
                    {"enum", names}};
        }
        case SettingType::choice:
            return keyword(*limits::find_choice(name));
        case SettingType::whole:
            return whole(*limits::find_whole_number(name));
        case SettingType::flag:
            return ref_to("flag");
        case SettingType::bandwidth:
            return ref_to("bandwidth");
        case SettingType::ranged:
            return ranged(*limits::find_range(name));
    }
    throw std::logic_error("storyboard schema: no shape for setting '" + name + "'");
}

// {type: object, additionalProperties: false, required, properties} for one of the loader's
// key sets.
Json object(const KeySet& set) {
    Json out{{"type", "object"}, {"additionalProperties", false}};
    if (!set.required.empty()) out["required"] = set.required;
    Json& properties = out["properties"] = Json::object();
    for (const std::string& key : set.keys) properties[key] = property(set.where, key);
    return out;
}

const KeySet& keys_of(const std::string& where) {
    const auto& sets = loader_keys();
    auto it = std::ranges::find(sets, where, &KeySet::where);
    if (it == sets.end()) throw std::logic_error("storyboard schema: no key set '" + where + "'");
    return *it;
}

// Each flat name's schema as a non-empty list of unique values of it (explore:).
Json lists_of(const Json& refs) {
    Json out = Json::object();
    for (const auto& [name, ref] : refs.items())
        out[name] = {{"type", "array"}, {"minItems", 1}, {"uniqueItems", true}, {"items", ref}};
    return out;
}

// The flat names: what each takes (`setting`), and the `set:` map of them.
void add_settings(Json& definitions) {
    Json properties = Json::object(), refs = Json::object();
    for (const std::string& name : setting_names()) {
        properties[name] = setting(name);
        refs[name] = ref_to("setting/properties/" + name);
    }
    definitions["setting"] = {
        {"description", "The flat parameter names, as `set:` and the sections use them."},
        {"type", "object"},
        {"properties", properties}};
    for (const char* section : {"training", "cluster", "parallel"})
        definitions[section] = object(keys_of(section));
    definitions["explore"] = {
        {"description",
         "The values an article page offers for parameters this chapter kind can set (a slider "
         "for numbers, pills for keywords); at most " +
             std::to_string(limits::kMaxExploreVariants) + " combinations."},
        {"type", "object"},
        {"minProperties", 1},
        {"additionalProperties", false},
        {"properties", lists_of(refs)}};
    definitions["set"] = {
        {"description",
         "Parameters to morph to, by flat name; each chapter kind accepts a subset."},
        {"type", "object"},
        {"additionalProperties", false},
        {"properties", refs}};
}

// For each kind, the names its `set:` beats may change (none: an empty map at most). The types
// are spelled out because Ajv's strict mode wants every keyword's type declared beside it.
Json kind_rules() {
    Json rules = Json::array();
    for (const KindInfo& kind : chapter_kinds()) {
        Json set{{"type", "object"}};
        if (kind.settable.empty())
            set["maxProperties"] = 0;
        else
            set["propertyNames"] = {{"enum", kind.settable}};
        Json phases = Json::array();
        for (const Phase& p : kind.phases) phases.push_back(p.name);
        // No phase to show: nothing validates (draft-07 has no empty enum).
        const Json show = phases.empty() ? Json{{"not", Json::object()}} : Json{{"enum", phases}};
        rules.push_back(
            {{"if", {{"properties", {{"kind", {{"const", kind.name}}}}}, {"required", {"kind"}}}},
             {"then",
              {{"properties",
                {{"beats",
                  {{"type", "array"},
                   {"items",
                    {{"type", "object"},
                     {"properties", {{"set", set}, {"explore", set}, {"show", show}}}}}}},
                 {"explore", set}}}}}});
    }
    return rules;
}

Json model_definitions(Json& definitions) {
    Json presets = Json::array();
    for (const engine::ModelSpec& m : engine::model_presets()) presets.push_back(m.name);
    definitions["model_name"] = {
        {"description",
         "A preset name, or a parameter count (7B, 70e9): the shape of the nearest preset with "
         "exactly that many parameters."},
        {"anyOf", {{{"enum", presets}}, ref_to("count")}}};
    definitions["model_map"] = described(
        "A custom model; arch defaults to llama, kv_heads to heads, ffn to 4 x hidden, vocab to "
        "32000, "
        "params to the count the architecture implies; experts and top_k make it a mixture of "
        "experts (ffn is then each expert's width), with shared_experts every token uses and "
        "dense_layers leading dense layers of width dense_ffn (default ffn).",
        object(keys_of("model")));
    return {{"anyOf", {ref_to("model_name"), ref_to("model_map")}}};
}

Json definitions() {
    Json d = Json::object();
    d["time"] = described("A time: 1.5s, 500ms, 45f (frames) or a bare number of seconds.",
                          number_or(Quantity::time));
    d["bandwidth"] = {
        {"description", "Bytes or bits per second: 900GB/s, 400Gb/s, 1.5TB/s, 100GiB/s."},
        {"type", "string"},
        {"pattern", quantity_pattern(Quantity::bandwidth)}};
    d["count"] = described("A count: 7B, 70e9, 1.5M, 8.", number_or(Quantity::count));
    d["flag"] = flag();
    d["language"] = {{"description", "A BCP-47 language tag: en, de-AT, zh-Hant, es-419."},
                     {"type", "string"},
                     {"pattern",
                      "^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?"
                      "(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$"}};
    d["plain_text"] = {{"description", "Text; a plain number or yes/no is read as its text."},
                       {"type", {"string", "number", "boolean", "null"}}};
    d["text"] = {{"description",
                  "Text in the storyboard's own language, or a map by language ({en: ..., de: "
                  "...})."},
                 {"anyOf", {ref_to("plain_text"), by_language(ref_to("plain_text"))}}};
    const Json model = model_definitions(d);  // after model_name and model_map
    d["model"] = model;
    add_settings(d);
    d["one_voice"] = one_voice();
    d["voice"] = {{"description",
                   "One voice (the storyboard's own language's, and every language it speaks), or "
                   "a map by language; a language without one is spoken by espeak-ng."},
                  {"anyOf", {ref_to("one_voice"), by_language(ref_to("one_voice"))}}};
    for (const char* where :
         {"video", "defaults", "beat", "narration", "chapter", "page", "question", "term"})
        d[where] = object(keys_of(where));
    d["chapter"]["allOf"] = kind_rules();
    return d;
}

}  // namespace

std::string storyboard_schema() {
    Json schema{
        {"$schema", "http://json-schema.org/draft-07/schema#"},
        {"$id", "https://shardreel.invalid/storyboards/schema.json"},
        {"title", "shardreel storyboard (schema version 1)"},
        {"description",
         "An animated explainer of distributed training. Generated by `shardreel schema` from "
         "the loader's tables (story/load/schema.cpp); `shardreel check` remains the authority."}};
    const Json top = object(keys_of("top"));
    for (const auto& [key, value] : top.items()) schema[key] = value;
    schema["definitions"] = definitions();
    return schema.dump(2) + "\n";
}

}  // namespace story

// The loader's key tables and loader_keys(); see keys.hpp.
#include "story/load/keys.hpp"

#include <algorithm>

#include "story/chapter/chapter.hpp"
#include "story/load/schema_keys.hpp"
#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/settings.hpp"

namespace story {
namespace load {

const Keys kTopKeys{"shardreel", "title", "video",     "defaults",
                    "chapters",  "page",  "languages", "fallback"};
const Keys kVideoKeys{"size",      "fps",   "theme",       "captions",
                      "narration", "music", "music_level", "lang"};
const Keys kDefaultsKeys{"model", "training", "cluster", "parallel"};
const Keys kChapterKeys{"id",        "kind",  "title",    "subtitle", "duration",
                        "fit",       "model", "training", "cluster",  "parallel",
                        "narration", "beats", "figure",   "explore"};
const Keys kBeatKeys{"at", "say", "set", "over", "gap", "take", "sound", "explore", "show"};
const Keys kPageKeys{"lede", "questions", "glossary"};
const Keys kQuestionKeys{"q", "a"}, kTermKeys{"term", "means"};
const Keys kNarrationKeys{"voice", "wpm", "gap", "tail", "takes", "pronounce"};
const Keys kModelKeys{"name",  "arch",           "params",       "layers",   "hidden",
                      "heads", "kv_heads",       "ffn",          "vocab",    "experts",
                      "top_k", "shared_experts", "dense_layers", "dense_ffn"};
const Keys kModelRequired{"layers", "hidden", "heads"};
const Keys kTrainingKeys = section_keys(SettingSection::training);
const Keys kClusterKeys = section_keys(SettingSection::cluster);
const Keys kParallelKeys = section_keys(SettingSection::parallel);

const Section kSections[3] = {
    {"training", &kTrainingKeys}, {"cluster", &kClusterKeys}, {"parallel", &kParallelKeys}};

bool contains(const Keys& keys, const std::string& key) {
    return std::ranges::count(keys, key) > 0;
}

std::string unknown_key(const std::string& key, const Keys& known, const std::string& where) {
    std::string message = "unknown key '" + key + "'" + (where.empty() ? "" : " " + where);
    if (std::string hint = closest_match(key, known); !hint.empty())
        return message + " (did you mean '" + hint + "'?)";
    for (const Section& s : kSections)
        if (contains(*s.keys, key) && !contains(known, key))
            return message + " ('" + key + "' belongs under '" + s.name + "')";
    return message;
}

std::string missing_parameter(const KindInfo& kind, const std::string& key) {
    std::string message = "chapter kind '" + kind.name + "' has no parameter '" + key + "'";
    if (std::string hint = closest_match(key, kind.settable); !hint.empty())
        return message + " (did you mean '" + hint + "'?)";
    if (kind.settable.empty()) return message + " (it has none)";
    std::string list;
    for (const std::string& name : kind.settable) list += (list.empty() ? "" : ", ") + name;
    return message + " (it has: " + list + ")";
}

}  // namespace load

const std::vector<KeySet>& loader_keys() {
    using namespace load;
    // The required keys each have their own check in the parsers, with its own message.
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

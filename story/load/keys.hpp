// The keys each place of a storyboard takes: the parsers check maps against these tables, and
// loader_keys() (schema_keys.hpp) hands them to the JSON Schema.
#pragma once
#include <string>
#include <vector>

namespace story {
struct KindInfo;
}

namespace story::load {

using Keys = std::vector<std::string>;

extern const Keys kTopKeys, kVideoKeys, kDefaultsKeys, kChapterKeys, kBeatKeys, kPageKeys;
extern const Keys kQuestionKeys, kTermKeys, kNarrationKeys, kModelKeys, kModelRequired;
// Section keys are flat setting names (settings.hpp), applied in the settings' order: a gpu
// first so that an nvlink or network beside it overrides the preset's links; gpus after the
// cluster size.
extern const Keys kTrainingKeys, kClusterKeys, kParallelKeys;

struct Section {
    const char* name;
    const Keys* keys;
};
// training, cluster and parallel, in the order a configuration applies them.
extern const Section kSections[3];

bool contains(const Keys& keys, const std::string& key);

// "unknown key 'fsp' in chapter 'x' (did you mean 'fps'?)", or naming the section a setting
// belongs under.
std::string unknown_key(const std::string& key, const Keys& known, const std::string& where);
// "chapter kind 'x' has no parameter 'y'", with a suggestion or the parameters it has: a key of
// set: or explore: the kind cannot set.
std::string missing_parameter(const KindInfo& kind, const std::string& key);

}  // namespace story::load

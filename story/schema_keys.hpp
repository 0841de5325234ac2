// Every key the storyboard loader accepts, by where it may appear, so the JSON Schema in
// storyboards/schema.json can be checked against the loader instead of drifting from it.
#pragma once
#include <string>
#include <vector>

namespace story {

struct KeySet {
    std::string where;  // top, video, defaults, chapter, beat, model, training, cluster, parallel
    std::vector<std::string> keys;
};

const std::vector<KeySet>& loader_keys();

}  // namespace story

// Every key the storyboard loader accepts, by where it may appear, and which of them are
// required: the JSON Schema (story/load/schema.hpp) is built from these lists, never beside them.
#pragma once
#include <string>
#include <vector>

namespace story {

struct KeySet {
    std::string where;  // top, video, defaults, chapter, beat, narration, model, training, ...
    std::vector<std::string> keys;
    std::vector<std::string> required = {};
};

const std::vector<KeySet>& loader_keys();

}  // namespace story

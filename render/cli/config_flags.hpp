// The cost model's settings as command-line flags, shared by `numbers` and `plan`: the model
// (--model, --params and a custom shape) and every flat setting (story::apply_setting).
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/config.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace render {

struct ConfigFlags {
    std::string model, params, global_batch;
    std::map<std::string, std::string> values;  // by flag; meaningful only when given
    std::map<std::string, CLI::Option*> options;
    std::set<std::string> chosen;  // setting keys the command decides (register_config_flags)
    bool given(const std::string& flag) const;
};

// Registers --model, --params, the shape flags, --global-batch and every setting flag whose
// setting key is not in `chosen` (what the command decides itself, such as the planner's tp).
void register_config_flags(CLI::App* cmd, ConfigFlags& f, const std::set<std::string>& chosen = {});

// Applies the given flags to c in a fixed order (--gpu before the links it brings; the global
// batch last, split into the layout's micro-batches unless the command chooses those itself);
// every problem, one a line.
std::vector<std::string> apply_config_flags(const ConfigFlags& f, engine::Config& c);

// "2048" (sequences) or "16M tokens" / "16Mtokens" (divided by seq_len) as sequences.
struct GlobalBatch {
    long long sequences = 0;
    std::string error;  // empty when it parsed
};
GlobalBatch parse_global_batch(const std::string& text, int seq_len);

}  // namespace render

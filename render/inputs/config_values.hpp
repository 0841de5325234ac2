// The cost model's settings as text, by flag, applied to an engine::Config: what `numbers` and
// `plan` take on the command line (render/cli/config_flags registers the flags) and the page's
// calculator takes from the reader (calc/), so both read the same text the same way: the model
// (--model, --params and a custom shape), every flat setting (story::apply_setting) and the
// global batch. No command-line library: it builds for the browser too.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "engine/problem.hpp"

namespace render {

struct ConfigValues {
    std::map<std::string, std::string> given;  // the flags given ("--tp"), with their text
    std::set<std::string> chosen;  // setting keys the command decides itself (the planner's tp)
};

// A flag besides the settings' own: --params and the custom shape, --global-batch.
struct FlagSpec {
    const char* flag;
    const char* key;  // a ModelSpec field, or empty
    const char* help;
};
// --params, then the custom shape's flags, in their order.
const std::vector<FlagSpec>& shape_flags();
extern const FlagSpec kGlobalBatchFlag;

// Applies the given values to c in a fixed order (--model or --params and the shape; the
// settings in the table's order, so --gpu brings its links before --nvlink overrides them; the
// global batch last, split into the layout's micro-batches unless the command chooses those
// itself); every problem, one a line ("--tp: ...").
std::vector<std::string> apply_config_values(const ConfigValues& v, engine::Config& c);
// The same problems as templates with their arguments, each naming its flag (story::about_flag,
// story/storyboard/problems.hpp; story::problem_line writes the line above).
std::vector<engine::Problem> config_problems(const ConfigValues& v, engine::Config& c);

// The flags that give c from story::default_config() through apply_config_values: the model (a
// preset's name, a nominal model's parameter count, else --params and the whole shape), then each
// setting whose text (story::setting_text) differs from what the model alone gives. What the
// article page opens a chapter's configuration in the calculator with.
std::map<std::string, std::string> config_flags(const engine::Config& c);

// "2048" (sequences) or "16M tokens" / "16Mtokens" (divided by seq_len) as sequences.
struct GlobalBatch {
    long long sequences = 0;
    std::optional<engine::Problem> error;  // none when it parsed (about no flag)
};
GlobalBatch parse_global_batch(const std::string& text, int seq_len);

}  // namespace render

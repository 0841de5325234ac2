// A chapter: a pure function from time to display list, built once from its spec (the engine
// runs up front, in the constructor), and the registry of chapter kinds.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "story/scene.hpp"
#include "story/storyboard.hpp"
#include "story/text_metrics.hpp"

namespace story {

class Chapter {
  public:
    virtual ~Chapter() = default;
    // Display list at t seconds from the chapter start, 0 <= t <= duration. Pure.
    virtual Scene scene_at(double t) const = 0;
};

struct KindInfo {
    std::string name;
    double default_duration = 10;
    std::vector<std::string> settable;  // flat setting names a `set:` beat may change
    std::unique_ptr<Chapter> (*make)(const ChapterSpec&, const Video&,
                                     const TextMetrics&) = nullptr;
    // Why this kind cannot draw a configuration (too large: its schedule grows faster than the
    // GPU count; or an axis it does not show), or nullopt; the loader reports it like an
    // engine::validate problem.
    std::optional<std::string> (*cannot_draw)(const engine::Config&) = nullptr;
};

// Each kind registers itself from its own file under story/chapters/ with a namespace-scope
// `const KindRegistrar registrar{{...}};` (story is an object library, so none is dropped).
struct KindRegistrar {
    explicit KindRegistrar(KindInfo info);
};

const std::vector<KindInfo>& chapter_kinds();  // sorted by name
const KindInfo* find_kind(std::string_view name);
std::vector<std::string> kind_names();

// What the cost model rejects in c (engine::validate), and what `kind` cannot draw (when known).
std::vector<std::string> config_problems(const engine::Config& c, const KindInfo* kind);

std::unique_ptr<Chapter> make_chapter(const ChapterSpec& spec, const Video& video,
                                      const TextMetrics& metrics);

}  // namespace story

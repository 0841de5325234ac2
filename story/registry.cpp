// The chapter kinds a storyboard may use, their default durations and `set:`-able parameters.
#include <algorithm>
#include <stdexcept>

#include "story/chapter.hpp"
#include "story/chapters/kinds.hpp"

namespace story {

const std::vector<KindInfo>& chapter_kinds() {
    static const std::vector<KindInfo> kinds = {
        {"title", 6, {}, make_title_chapter},
        {"bytes_per_parameter", 24, {"model", "precision", "grad_dtype", "gpu"}, make_bytes_chapter},
    };
    return kinds;
}

const KindInfo* find_kind(std::string_view name) {
    const auto& kinds = chapter_kinds();
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const KindInfo& k) { return k.name == name; });
    return it == kinds.end() ? nullptr : &*it;
}

std::vector<std::string> kind_names() {
    std::vector<std::string> names;
    for (const KindInfo& k : chapter_kinds()) names.push_back(k.name);
    return names;
}

std::unique_ptr<Chapter> make_chapter(const ChapterSpec& spec, const Video& video,
                                      const TextMetrics& metrics) {
    const KindInfo* kind = find_kind(spec.kind);
    if (!kind) throw std::logic_error("unvalidated chapter kind: " + spec.kind);
    return kind->make(spec, video, metrics);
}

}  // namespace story

// Factories of the chapter kinds, one file each under story/chapters/.
#pragma once
#include <memory>

#include "story/chapter.hpp"

namespace story {

std::unique_ptr<Chapter> make_title_chapter(const ChapterSpec&, const Video&, const TextMetrics&);
std::unique_ptr<Chapter> make_bytes_chapter(const ChapterSpec&, const Video&, const TextMetrics&);

}  // namespace story

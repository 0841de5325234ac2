// `[[name]]` bookmarks in a beat's say: and `at: mark:NAME` beats starting on them: taken out of
// the line, and checked across the chapter's beats in every language the line is written in.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

// A bookmark's name: a-z, 0-9, '_' and '-' (what the loader takes, and the schema).
bool is_mark_name(std::string_view name);

// Takes the `[[name]]` bookmarks out of a `say:`, each recorded at the word after it (spaces a
// bookmark leaves doubled are dropped). Returns what is wrong with any (those are dropped too).
std::vector<std::string> take_bookmarks(std::string& say, std::vector<Bookmark>& marks);

// One translation of a beat's line with its bookmarks.
struct Line {
    std::string lang;
    SourcePos pos;
    std::vector<Bookmark> marks;
};
using Lines = std::map<int, std::vector<Line>>;  // a chapter's lines by beat number

// Each bookmark once per chapter; `at: mark:NAME` on one of an earlier beat (file order), in
// every translation of its line.
void check_bookmarks(Context& ctx, const ChapterSpec& spec, const Lines& lines);

}  // namespace story::load

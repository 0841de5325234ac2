// A line as the voice says it; see narration.hpp.
#include "story/storyboard/narration.hpp"

namespace story {

namespace {

bool word_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The reading whose word stands at `at` in say (readings: longest first), or nullptr.
const Reading* reading_at(const std::string& say, std::size_t at,
                          const std::vector<Reading>& readings) {
    for (const Reading& r : readings) {
        if (say.compare(at, r.word.size(), r.word) != 0) continue;
        const std::size_t end = at + r.word.size();
        const bool whole = (at == 0 || !word_byte(say[at - 1]) || !word_byte(r.word.front())) &&
                           (end == say.size() || !word_byte(say[end]) || !word_byte(r.word.back()));
        if (whole) return &r;
    }
    return nullptr;
}

}  // namespace

VoicedLine voiced_line(const std::string& say, const std::vector<Bookmark>& marks,
                       const std::vector<Reading>& readings) {
    VoicedLine out;
    std::size_t next = 0;                     // marks come in text order
    const auto place = [&](std::size_t at) {  // marks up to `at` go where the text is now
        for (; next < marks.size() && marks[next].offset <= at; ++next)
            out.marks.push_back(out.text.size());
    };
    for (std::size_t at = 0; at < say.size();) {
        place(at);
        if (const Reading* r = reading_at(say, at, readings)) {
            out.text += r->reading;
            at += r->word.size();
        } else {
            out.text += say[at++];
        }
    }
    place(say.size());
    return out;
}

}  // namespace story

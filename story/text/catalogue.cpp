// Lookups in the shipped catalogues; the tables themselves are generated (catalogue.hpp).
#include "story/text/catalogue.hpp"

#include <algorithm>

namespace story {

std::optional<std::string_view> Catalogue::find(std::string_view msgid) const {
    const auto it = std::ranges::lower_bound(messages_, msgid, {}, &Message::id);
    if (it == messages_.end() || it->id != msgid) return std::nullopt;
    return it->text;
}

const Catalogue* shipped_catalogue(std::string_view language) {
    for (const Catalogue& c : shipped_catalogues())
        if (c.language() == language) return &c;
    return nullptr;
}

}  // namespace story

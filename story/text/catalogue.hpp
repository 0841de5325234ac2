// The message catalogues shipped in locale/ (one gettext .po file a language, English needing
// none): read with libgettextpo at build time (cmake/embed_catalogues.cpp) and compiled in as
// constant tables, so looking a message up reads no file and shares no mutable state.
#pragma once
#include <optional>
#include <span>
#include <string_view>

namespace story {

// One translated message: the English msgid and its text in the catalogue's language.
struct Message {
    std::string_view id, text;
};

class Catalogue {
  public:
    // messages sorted by id (byte order), as the build writes them.
    constexpr Catalogue(std::string_view language, std::string_view digest,
                        std::span<const Message> messages)
        : language_(language), digest_(digest), messages_(messages) {}

    std::string_view language() const { return language_; }  // "de": the .po file's stem
    // XXH3-128 of the .po file's bytes, 32 hex digits: part of every segment key in the language.
    std::string_view digest() const { return digest_; }
    std::span<const Message> messages() const { return messages_; }
    // The translation of msgid, or nullopt when the catalogue has none (it falls back to English).
    std::optional<std::string_view> find(std::string_view msgid) const;

  private:
    std::string_view language_, digest_;
    std::span<const Message> messages_;
};

// Every catalogue in locale/, sorted by language (defined in the generated catalogues.cpp).
std::span<const Catalogue> shipped_catalogues();
// The catalogue of a primary language subtag ("de" for "de-CH"), or nullptr (English, or a
// language shipped without one).
const Catalogue* shipped_catalogue(std::string_view language);

}  // namespace story

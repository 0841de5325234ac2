// The film's language (story::Video::lang, a BCP-47 tag): the words chapters draw, from the
// catalogue shipped for it (story/text/catalogue.hpp; English is the catalogues' msgids and needs
// none), and its numbers (story/text/numbers.hpp). A Locale is immutable once built, so chapters of
// different languages can be drawn at once, on any threads; each chapter builds one.
#pragma once
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "story/text/catalogue.hpp"
#include "story/text/numbers.hpp"

namespace story {

// Marks a message where it is defined apart from where it is drawn, for the extraction
// (scripts/catalogue.sh): `const char* kName[] = {N_("Plain DP"), ...}`, later tr(kName[z]).
constexpr const char* N_(const char* msgid) { return msgid; }

// A {placeholder}'s value: text (numbers formatted with the locale), or a whole number, written
// in the locale's digits without grouping ("1024", as std::to_string writes it in English).
struct MessageArg {
    MessageArg(std::string_view n, std::string v) : name(n), value(std::move(v)) {}
    MessageArg(std::string_view n, const char* v) : name(n), value(std::string(v)) {}
    MessageArg(std::string_view n, long long v) : name(n), value(v) {}
    MessageArg(std::string_view n, int v) : name(n), value(static_cast<long long>(v)) {}
    std::string_view name;
    std::variant<std::string, long long> value;
};

class Locale {
  public:
    // tag: a well-formed BCP-47 tag (the loader checks Video::lang); std::invalid_argument if not.
    explicit Locale(std::string_view tag = "en");
    // The film's language when none is given, for what is not drawn in a film (CLI tables).
    static const Locale& english();

    const std::string& tag() const { return impl_->tag; }
    // The catalogue the words come from: nullptr for English (and a language without one).
    const Catalogue* catalogue() const { return impl_->catalogue; }
    const NumberFormat& numbers() const { return impl_->numbers; }

    // msgid in this language: its translation, or msgid itself (English, or a message the
    // catalogue does not translate). Whole sentences, never fragments: word order differs.
    std::string tr(std::string_view msgid) const;
    // The same with each "{name}" replaced by its argument:
    //   tr("step {k} of {n}", {{"k", 3}, {"n", 7}})
    std::string tr(std::string_view msgid, std::initializer_list<MessageArg> args) const;

  private:
    std::string value_text(const MessageArg& arg) const;

    struct Impl {
        Impl(std::string t, const Catalogue* c) : tag(std::move(t)), catalogue(c), numbers(tag) {}
        std::string tag;
        const Catalogue* catalogue;
        NumberFormat numbers;
    };
    std::shared_ptr<const Impl> impl_;
};

}  // namespace story

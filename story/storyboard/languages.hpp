// The languages of a storyboard (issue 18): language tags as shardreel takes them, their ISO
// 639-2 codes, which voice speaks which language, and which text of a field written in several
// languages one load uses. Plain data: story/load/text.cpp turns YAML into WrittenText.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "story/storyboard/diagnostics.hpp"
#include "story/storyboard/narration.hpp"

namespace story {

struct LanguageCode {
    const char* iso639_1;  // "de"
    const char* iso639_2;  // "deu" (the terminology code, what MP4 language tags hold)
    const char* name;      // "German"
};
// Every ISO 639-1 language with its ISO 639-2/T code and English name (language_codes.cpp).
const std::vector<LanguageCode>& language_codes();

// A language tag in its canonical case ("de-AT", "zh-Hant", "es-419"), or what is wrong with it:
// ill-formed (not language[-Script][-REGION][-variant]...) or an unknown language. A primary
// language is an ISO 639-1 code or an ISO 639-2/T one (three letters, read as its two-letter
// code: "deu" is "de").
struct TagCheck {
    std::string tag;                   // canonical; empty when wrong
    std::optional<std::string> error;  // "'en_US' is not a language tag (...)"
};
TagCheck check_language_tag(std::string_view tag);

// The primary language of a valid tag, as its ISO 639-1 code: "de" for "de-AT" and "deu".
std::string primary_language(std::string_view tag);
// ISO 639-2/T of a valid tag's language ("deu" for "de-AT"); "und" for anything else.
std::string iso639_2(std::string_view tag);
// The language's English name ("German"); the tag itself when unknown.
std::string language_name(std::string_view tag);

// Whether a voice speaks `lang`: an espeak-ng voice the language its name starts with ("de",
// "en-gb-x-rp": en, "cmn": zh), a Festival voice English (the only ones shardreel knows), an
// Open JTalk voice Japanese (its dictionary and front end read nothing else),
// recorded takes any (they are what was recorded), no voice (off) every language.
bool voice_speaks(VoiceEngine engine, std::string_view voice, std::string_view lang);
// The voice a language gets when the storyboard names none: espeak-ng speaking it.
std::string default_voice_name(std::string_view lang);

// Characters a second a viewer reads captions of `lang` at: 15, the subtitle norm; Japanese 4,
// the rule Japanese subtitlers keep (1秒4文字), as each kanji or kana carries a syllable or more.
double reading_rate(std::string_view lang);
// Words a minute a silent film's captions may ask of a viewer (`check` warns past it).
constexpr double kCaptionWordsPerMinute = 180;
// The least time a viewer needs to read `text` in `lang` with no voice: its words at
// kCaptionWordsPerMinute; Japanese, written without spaces, its characters at reading_rate.
double caption_reading_seconds(std::string_view text, std::string_view lang);

// A text field as written: a plain string (the default language's text) or a map by language.
struct Translation {
    std::string lang, text;  // lang as written in the map (canonical case), or the default's
    SourcePos key_pos, pos;  // of the map key (none for a plain string) and of the text
};
struct WrittenText {
    SourcePos pos;  // of the value
    bool by_language = false;
    std::vector<Translation> translations;
};

// Names a text field in messages: "the say: of beat 2 in chapter 'bytes'", "the title of chapter
// 'bytes'", "the storyboard's title".
struct TextPlace {
    std::string field;    // "say:", "title"; outside chapters the whole name: "storyboard's title"
    std::string chapter;  // its chapter's id; empty outside chapters
    int beat = 0;         // its beat's number (1-based, as written); 0 outside beats
    std::string describe() const;
};

// The languages a storyboard is written in and the one a load resolves its text to.
class Languages {
  public:
    Languages() = default;
    // `listed` holds the default language first; `fallback` may be empty; `film` is listed.
    Languages(std::vector<std::string> listed, std::string fallback, std::string film);

    const std::string& film() const { return film_; }  // what this load resolves text to
    const std::string& default_language() const { return listed_.front(); }
    const std::vector<std::string>& listed() const { return listed_; }
    bool film_is_default() const { return film_ == default_language(); }
    bool contains(std::string_view lang) const;
    // What is wrong with `lang` (canonical) as a key of a map by language: not listed.
    std::optional<std::string> key_error(const std::string& lang) const;

    // The field's text in the film's language. Reports, as errors, a map key that is not a
    // language tag or not listed and a listed language the field lacks (without a fallback);
    // with a fallback, a warning when the film's language falls back. A plain string is the
    // default language's. Returns the text to use (empty after an error).
    Translation pick(const WrittenText& text, const TextPlace& place, const std::string& file,
                     Diagnostics& errors, std::vector<Diagnostic>& warnings) const;

  private:
    const Translation* find(const WrittenText& text, const std::string& lang) const;
    bool keys_valid(const WrittenText& text, const std::string& file, Diagnostics& errors) const;
    void missing(const WrittenText& text, const TextPlace& place, const std::string& file,
                 Diagnostics& errors) const;

    std::vector<std::string> listed_{"en"};
    std::string fallback_, film_ = "en";
};

// "languages: [en, de]", the list as messages quote it.
std::string quoted_languages(const std::vector<std::string>& listed);

// Prefixes every message with "in LANG: " (the diagnostics of one language's timing and voice).
void tag_language(Diagnostics& errors, std::vector<Diagnostic>& warnings, std::size_t first_warning,
                  const std::string& lang);

}  // namespace story

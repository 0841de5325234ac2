// The languages of a storyboard; see languages.hpp.
#include "story/storyboard/languages.hpp"

#include <algorithm>
#include <cctype>

#include "story/text/lang.hpp"

namespace story {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool all_of(std::string_view s, int (*is)(int)) {
    return !s.empty() && std::ranges::all_of(s, [is](char c) { return is(c) != 0; });
}
bool letters(std::string_view s) { return all_of(s, std::isalpha); }
bool digits(std::string_view s) { return all_of(s, std::isdigit); }
bool alnum(std::string_view s) { return all_of(s, std::isalnum); }

std::vector<std::string_view> subtags(std::string_view tag) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t dash = tag.find('-', start);
        out.push_back(tag.substr(start, dash - start));
        if (dash == std::string_view::npos) return out;
        start = dash + 1;
    }
}

const LanguageCode* find_code(std::string_view primary) {
    const std::string p = lower(primary);
    for (const LanguageCode& c : language_codes())
        if (p == c.iso639_1 || p == c.iso639_2) return &c;
    return nullptr;
}

// Script (Hant), region (AT, 419) and variants (1996, valencia) in their canonical case; false
// when a subtag is none of them or out of order.
bool canonical_rest(const std::vector<std::string_view>& parts, std::string& out) {
    int stage = 0;  // 1 after a script, 2 after a region
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string_view p = parts[i];
        std::string s = lower(p);
        if (stage < 1 && p.size() == 4 && letters(p)) {
            s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
            stage = 1;
        } else if (stage < 2 && ((p.size() == 2 && letters(p)) || (p.size() == 3 && digits(p)))) {
            for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            stage = 2;
        } else if (!((p.size() >= 5 && p.size() <= 8 && alnum(p)) ||
                     (p.size() == 4 && std::isdigit(static_cast<unsigned char>(p[0])) &&
                      alnum(p)))) {
            return false;
        } else {
            stage = 3;
        }
        out += "-" + s;
    }
    return true;
}

std::vector<std::string> two_letter_codes() {
    std::vector<std::string> out;
    for (const LanguageCode& c : language_codes()) out.push_back(c.iso639_1);
    return out;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

}  // namespace

TagCheck check_language_tag(std::string_view tag) {
    const std::vector<std::string_view> parts = subtags(tag);
    std::string out = lower(parts.front());
    if (parts.front().size() < 2 || parts.front().size() > 3 || !letters(parts.front()) ||
        !canonical_rest(parts, out))
        return {"", "'" + std::string(tag) +
                        "' is not a language tag (expected a BCP-47 tag such as en, de-AT, "
                        "zh-Hant or es-419)"};
    if (!find_code(parts.front())) {
        const std::string hint = closest_match(lower(parts.front()), two_letter_codes());
        return {"", "unknown language '" + std::string(tag) + "' (" +
                        (hint.empty() ? "" : "did you mean '" + hint + "'? ") +
                        "a tag starts with an ISO 639 code such as en, de, ar, ja or hi)"};
    }
    return {out, std::nullopt};
}

std::string primary_language(std::string_view tag) {
    std::string primary = parse_lang(tag).language;
    const LanguageCode* code = find_code(primary);
    return code ? code->iso639_1 : primary;
}

std::string iso639_2(std::string_view tag) {
    const LanguageCode* code = find_code(parse_lang(tag).language);
    return code ? code->iso639_2 : "und";
}

std::string language_name(std::string_view tag) {
    const LanguageCode* code = find_code(parse_lang(tag).language);
    return code ? code->name : std::string(tag);
}

bool voice_speaks(VoiceEngine engine, std::string_view voice, std::string_view lang) {
    const std::string want = primary_language(lang);
    switch (engine) {
        case VoiceEngine::festival:
            return want == "en";
        case VoiceEngine::open_jtalk:
            return want == "ja";
        case VoiceEngine::espeak: {
            // A voice file's name ("en-gb-x-rp", "gmw/en-US") starts with its language; espeak-ng
            // names Mandarin and Cantonese by their own codes.
            const std::string_view name = voice.substr(voice.rfind('/') + 1);
            const std::string first = lower(subtags(name.empty() ? "en" : name).front());
            const std::string spoken = first == "cmn" || first == "yue" ? "zh" : first;
            return primary_language(spoken) == want;
        }
        case VoiceEngine::off:
        case VoiceEngine::recorded:
            return true;
    }
    return false;
}

std::string default_voice_name(std::string_view lang) { return primary_language(lang); }

double reading_rate(std::string_view lang) { return primary_language(lang) == "ja" ? 4 : 15; }

double caption_reading_seconds(std::string_view text, std::string_view lang) {
    if (primary_language(lang) == "ja") {
        return static_cast<double>(code_points(text)) / reading_rate(lang);
    }
    double words = 0;
    bool in_word = false;
    for (char c : text) {
        const bool space = c == ' ' || c == '\n' || c == '\t';
        if (!space && !in_word) ++words;
        in_word = !space;
    }
    return words * 60 / kCaptionWordsPerMinute;
}

std::string TextPlace::describe() const {
    if (beat > 0)
        return "the " + field + " of beat " + std::to_string(beat) + " in chapter '" + chapter +
               "'";
    if (!chapter.empty()) return "the " + field + " of chapter '" + chapter + "'";
    return "the " + field;
}

Languages::Languages(std::vector<std::string> listed, std::string fallback, std::string film)
    : listed_(std::move(listed)), fallback_(std::move(fallback)), film_(std::move(film)) {}

bool Languages::contains(std::string_view lang) const {
    return std::ranges::find(listed_, lang) != listed_.end();
}

std::string quoted_languages(const std::vector<std::string>& listed) {
    return "languages: [" + joined(listed, ", ") + "]";
}

const Translation* Languages::find(const WrittenText& text, const std::string& lang) const {
    const auto it = std::ranges::find(text.translations, lang, &Translation::lang);
    return it == text.translations.end() ? nullptr : &*it;
}

std::optional<std::string> Languages::key_error(const std::string& lang) const {
    if (contains(lang)) return std::nullopt;
    return "translation '" + lang + "' is not in " + quoted_languages(listed_) + " (add " + lang +
           " to languages:, or drop this translation)";
}

bool Languages::keys_valid(const WrittenText& text, const std::string& file,
                           Diagnostics& errors) const {
    bool valid = true;
    for (const Translation& t : text.translations) {
        if (auto problem = key_error(t.lang)) {
            errors.error(file, t.key_pos, *problem);
            valid = false;
        }
    }
    return valid;
}

void Languages::missing(const WrittenText& text, const TextPlace& place, const std::string& file,
                        Diagnostics& errors) const {
    const bool can_fall_back = !fallback_.empty() && find(text, fallback_);
    std::vector<std::string> absent;
    for (const std::string& lang : listed_)
        if (!find(text, lang) && !can_fall_back) absent.push_back(lang);
    if (absent.empty()) return;
    const std::string fix = text.by_language
                                ? "add " + joined(absent, ": and ") + ": to it"
                                : "write it as a map by language, {" + default_language() +
                                      ": ..., " + absent.back() + ": ...}";
    const std::string fallback = find(text, default_language()) || text.translations.empty()
                                     ? default_language()
                                     : text.translations.front().lang;
    errors.error(file, text.pos,
                 "missing " + joined(absent, " and ") + " translation" +
                     (absent.size() > 1 ? "s" : "") + " of " + place.describe() + " (" + fix +
                     ", or set fallback: " + fallback + " to use the " + fallback + " text)");
}

Translation Languages::pick(const WrittenText& text, const TextPlace& place,
                            const std::string& file, Diagnostics& errors,
                            std::vector<Diagnostic>& warnings) const {
    const bool blank =
        !text.by_language && (text.translations.empty() || text.translations.front().text.empty());
    if (blank || !keys_valid(text, file, errors)) return {film_, "", {}, text.pos};
    missing(text, place, file, errors);
    if (const Translation* own = find(text, film_)) return *own;
    const Translation* other = fallback_.empty() ? nullptr : find(text, fallback_);
    if (!other) return {film_, "", {}, text.pos};
    warnings.push_back({file, text.pos,
                        place.describe() + " has no " + film_ + " translation: the " + fallback_ +
                            " text is used (fallback: " + fallback_ + ")",
                        Severity::warning});
    return *other;
}

void tag_language(Diagnostics& errors, std::vector<Diagnostic>& warnings, std::size_t first_warning,
                  const std::string& lang) {
    Diagnostics tagged;
    for (const Diagnostic& d : errors.list())
        tagged.error(d.file, d.pos, "in " + lang + ": " + d.message);
    errors = tagged;
    for (std::size_t i = first_warning; i < warnings.size(); ++i)
        warnings[i].message = "in " + lang + ": " + warnings[i].message;
}

}  // namespace story

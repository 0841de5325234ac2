// Language tags (issue 18): the subtags drawing needs, and which languages run right to left.
#include "story/text/lang.hpp"

#include "tests/catch.hpp"

using story::is_rtl;
using story::parse_lang;

TEST_CASE("a language tag's language, script and region subtags, lower-cased") {
    const story::LangTag tw = parse_lang("zh-Hant-TW");
    CHECK(tw.language == "zh");
    CHECK(tw.script == "hant");
    CHECK(tw.region == "tw");
    const story::LangTag br = parse_lang("pt_BR");
    CHECK(br.language == "pt");
    CHECK(br.script.empty());
    CHECK(br.region == "br");
    CHECK(parse_lang("es-419").region == "419");
    CHECK(parse_lang("DE").language == "de");
    const story::LangTag none = parse_lang("");
    CHECK(none.language.empty());
    CHECK(none.script.empty());
    CHECK(none.region.empty());
}

TEST_CASE("Arabic, Persian, Urdu and Hebrew run right to left, by language or script subtag") {
    for (const char* rtl : {"ar", "ar-EG", "AR", "fa", "ur", "he", "iw", "yi", "ps", "az-Arab"})
        CHECK(is_rtl(rtl));
    for (const char* ltr : {"", "en", "de", "ja", "hi", "zh-Hant", "ur-Latn", "arn", "hebrew"})
        CHECK_FALSE(is_rtl(ltr));
}

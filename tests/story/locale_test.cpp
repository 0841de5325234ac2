// Films in other languages (issue 18): numbers as each locale writes them (ICU), messages from
// the catalogues with their placeholders, and English where a catalogue has no translation.
#include "story/text/locale.hpp"

#include <string>

#include "story/text/catalogue.hpp"
#include "story/text/format.hpp"
#include "tests/catch.hpp"

using namespace story;

namespace {

// The thin space before a unit, the no-break space ICU puts before "%" and compact words.
const std::string kThin = "\u2009", kNbsp = "\u00a0";

}  // namespace

TEST_CASE("English numbers stay as they were: grouped with commas, a point before decimals",
          "[locale]") {
    const Locale& en = Locale::english();
    CHECK(format_bytes(1.12e12, en) == "1,120" + kThin + "GB");
    CHECK(format_bytes(0, en) == "0" + kThin + "B");
    CHECK(format_time(1.25, en) == "1.25" + kThin + "s");
    CHECK(format_time(0.9996, en) == "1" + kThin + "s");
    CHECK(format_percent(0.125, en) == "12.5%");
    CHECK(format_params(7e10, en) == "70B");
    CHECK(format_params(6.738e9, en) == "6.74B");
    CHECK(format_params(1.5e6, en) == "1.5M");
    CHECK(format_params(1234, en) == "1,230");
    CHECK(format_sig3(0.57, en) == "0.57");
    CHECK(format_int(1234567, en) == "1,234,567");
    CHECK(format_count(1024, en) == "1024");
    CHECK(fraction_text(7, 8, en) == "7/8");
    CHECK(format_bytes(1.12e12) == format_bytes(1.12e12, en));  // the default is English
}

TEST_CASE("German numbers: points group thousands, a comma before decimals, units stay SI",
          "[locale]") {
    const Locale de("de");
    CHECK(format_bytes(1.12e12, de) == "1.120" + kThin + "GB");
    CHECK(format_time(1.25, de) == "1,25" + kThin + "s");
    CHECK(format_bandwidth(4.5e11, de) == "450" + kThin + "GB/s");
    CHECK(format_percent(0.125, de) == "12,5" + kNbsp + "%");
    CHECK(format_params(7e10, de) == "70" + kNbsp + "Mrd.");
    CHECK(format_params(1.5e6, de) == "1,5" + kNbsp + "Mio.");
    CHECK(format_sig3(0.57, de) == "0,57");
    CHECK(format_int(1234567, de) == "1.234.567");
    CHECK(format_count(1024, de) == "1024");
}

TEST_CASE("Japanese numbers group like English, large counts in man and oku", "[locale]") {
    const Locale ja("ja");
    CHECK(format_bytes(1.12e12, ja) == "1,120" + kThin + "GB");
    CHECK(format_time(1.25, ja) == "1.25" + kThin + "s");
    CHECK(format_percent(0.125, ja) == "12.5%");
    CHECK(format_params(7e10, ja) == "700億");  // 700 x 10^8
    CHECK(format_params(7e9, ja) == "70億");
    CHECK(format_int(1234567, ja) == "1,234,567");
}

TEST_CASE("Hindi numbers use Indian grouping: lakh and crore", "[locale]") {
    const Locale hi("hi");
    CHECK(format_int(100000, hi) == "1,00,000");
    CHECK(format_int(1234567, hi) == "12,34,567");
    CHECK(format_bytes(1.12e14, hi) == "1,12,000" + kThin + "GB");
    CHECK(format_bytes(1.12e12, hi) == "1,120" + kThin + "GB");  // under a lakh: as in English
    CHECK(format_time(1.25, hi) == "1.25" + kThin + "s");
    CHECK(format_percent(0.125, hi) == "12.5%");
    CHECK(format_params(7e10, hi) == "70" + kNbsp + "अ॰");  // 70 arab (10^9)
}

// ICU 72 (Debian 12) gives ar the arab numbering system: Arabic-Indic digits, U+066C between
// groups, U+066B before decimals, U+066A for percent followed by the Arabic letter mark U+061C.
TEST_CASE("Arabic numbers are written in Arabic-Indic digits, ICU's default for ar", "[locale]") {
    const Locale ar("ar");
    CHECK(format_bytes(1.12e12, ar) == "١٬١٢٠" + kThin + "GB");
    CHECK(format_bytes(0, ar) == "٠" + kThin + "B");
    CHECK(format_time(1.25, ar) == "١٫٢٥" + kThin + "s");
    CHECK(format_percent(0.125, ar) == "١٢٫٥٪\u061c");
    CHECK(format_params(7e10, ar) == "٧٠" + kNbsp + "مليار");
    CHECK(format_int(1234567, ar) == "١٬٢٣٤٬٥٦٧");
    CHECK(format_count(1024, ar) == "١٠٢٤");
    CHECK(fraction_text(7, 8, ar) == "٧/٨");
}

TEST_CASE("a region follows its own conventions while the words come from its language",
          "[locale]") {
    const Locale swiss("de-CH");
    CHECK(format_int(1234567, swiss) == "1’234’567");
    CHECK(swiss.catalogue() == Locale("de").catalogue());
    CHECK(swiss.tr("Per card") == "Pro Karte");
}

// Counts (names, steps) are written digit by digit from the locale's numbering system, without a
// formatter: they must read exactly as ICU writes them.
TEST_CASE("counts read as ICU writes them, in every shipped language", "[locale]") {
    // fa and mr: Persian and Devanagari digits; jpan: an algorithmic system (no digits to map).
    for (const char* tag : {"en", "de", "ja", "hi", "ar", "fa", "mr", "ja-u-nu-jpan"}) {
        INFO(tag);
        const Locale l(tag);
        for (long long v = 0; v < 1000; ++v) REQUIRE(format_count(v, l) == format_int(v, l));
        CHECK(format_count(-12, l) == format_int(-12, l));
    }
    CHECK(format_count(1024, Locale("fa")) == "۱۰۲۴");
}

TEST_CASE("tr looks the English msgid up in the language's catalogue", "[locale]") {
    CHECK(Locale("de").tr("Per card") == "Pro Karte");
    CHECK(Locale("ja").tr("Bubble") == "バブル");
    CHECK(Locale("ar").tr("Weights") == "الأوزان");
    CHECK(Locale("hi").tr("Per card") == "प्रति कार्ड");
    CHECK(Locale::english().tr("Per card") == "Per card");
    CHECK(Locale::english().catalogue() == nullptr);
    REQUIRE(shipped_catalogue("de") != nullptr);
    CHECK(shipped_catalogue("de")->digest().size() == 32);
    CHECK(shipped_catalogue("en") == nullptr);
}

TEST_CASE("placeholders take text or whole numbers, in the locale's digits and word order",
          "[locale]") {
    const std::string rule =
        "Gradients go down after each of the {n} micro-batches; the updated weights come up "
        "once a step.";
    CHECK(Locale::english().tr(rule, {{"n", 8}}) ==
          "Gradients go down after each of the 8 micro-batches; the updated weights come up once "
          "a step.");
    CHECK(Locale("de").tr(rule, {{"n", 8}}) ==
          "Gradienten gehen nach jedem der 8 Micro-Batches hinunter; die aktualisierten Gewichte "
          "kommen einmal pro Schritt hoch.");
    // Japanese puts "each way" first: "片方向 {bandwidth} で {time}".
    CHECK(Locale("ja").tr("at {bandwidth} each way: {time}",
                          {{"bandwidth", "450 GB/s"}, {"time", "3 ms"}}) ==
          "片方向 450 GB/s で 3 ms");
    CHECK(Locale("ar").tr("GPU {n}", {{"n", 12}}) == "GPU ١٢");
    CHECK(Locale::english().tr("GPU {n}", {{"n", 1024}}) == "GPU 1024");  // as std::to_string
    // Every occurrence is replaced; a value is never read as a placeholder itself.
    CHECK(Locale::english().tr("{a} and {a} of {b}", {{"a", "{b}"}, {"b", "x"}}) ==
          "{b} and {b} of x");
    CHECK(Locale::english().tr("{unknown} stays", {{"n", 1}}) == "{unknown} stays");
}

TEST_CASE("a message the catalogue does not translate falls back to English", "[locale]") {
    CHECK(Locale("de").tr("A message no catalogue has") == "A message no catalogue has");
    CHECK(Locale("de").tr("{n} of a message no catalogue has", {{"n", 3}}) ==
          "3 of a message no catalogue has");
    CHECK(Locale("ar").tr("{n} untranslated", {{"n", 3}}) == "٣ untranslated");  // digits: ar
    CHECK(Locale("fr").catalogue() == nullptr);  // no catalogue shipped: English words
    CHECK(Locale("fr").tr("Per card") == "Per card");
    CHECK(format_bytes(1.12e12, Locale("fr")) ==
          "1" + std::string("\u202f") + "120" + kThin + "GB");  // French numbers all the same
}

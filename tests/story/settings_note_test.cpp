// The note under a chapter's title naming what it changes from the film ("Here: tp 8 · pp 16"):
// wrapped to any width, a line ends only after a separator, so no setting is parted from its
// value and no line begins with the dot (Hindi's note had read "16,384 GPU · tp" over "8 · pp 16").
#include "story/vocab/settings_note.hpp"

#include "engine/config.hpp"
#include "engine/presets.hpp"
#include "story/scene/layout.hpp"
#include "story/scene/text_metrics.hpp"
#include "tests/catch.hpp"

using namespace story;

TEST_CASE("a wrapped settings note ends its lines only after a separator") {
    const ApproxTextMetrics metrics;
    engine::Config film;
    engine::Config here = film;
    here.layout.gpus = 16384;
    here.layout.tp = 8;
    here.layout.pp = 16;
    here.layout.cp = 4;
    here.layout.zero = 1;
    for (const char* lang : {"en", "hi", "de", "ja", "ar"}) {
        const std::string note = settings_note(film, here, Locale(lang));
        INFO(lang << ": " << note);
        REQUIRE(note.find("tp\u00A0") != std::string::npos);  // 8 in the language's digits
        TextStyle style{14, Weight::regular, false, lang};
        for (double width = 100; width <= 400; width += 10) {
            const auto lines = wrap_text(metrics, note, style, width);
            for (const std::string& line : lines) {
                INFO(width << " px: '" << line << "'");
                CHECK(line.rfind("·", 0) != 0);
                // No line ends on a setting's name, its value on the next.
                const std::string end = line.substr(0, line.find_last_not_of(' ') + 1);
                for (const char* name : {" tp", " pp", " cp"}) CHECK_FALSE(end.ends_with(name));
            }
        }
    }
}

// A setting with a fractional value is written in the language's decimal sign, as a count is in
// its digits: a German note had read "capacity_factor 0.5" beside "46,7 Mrd.".
TEST_CASE("a settings note writes a fractional value as its language does") {
    engine::Config film;
    film.model = *engine::find_model("mixtral-8x7b");
    engine::Config here = film;
    here.training.capacity_factor = 0.5;
    CHECK(settings_note(film, here, Locale("en")) == "Here: capacity_factor\u00A00.5");
    CHECK(settings_note(film, here, Locale("de")) == "Hier: capacity_factor\u00A00,5");
}

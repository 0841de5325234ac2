// What the commands read: a storyboard in several languages is read and parsed once per render,
// every language (and, with --captions all, every other language's captions) resolved from it.
#include "render/inputs/storyboard_inputs.hpp"

#include <sstream>

#include "story/load/yaml_tree.hpp"
#include "tests/catch.hpp"

namespace {

const std::string kLanguages = SHARDREEL_SOURCE_DIR "/tests/storyboards/good/languages.yaml";

}  // namespace

TEST_CASE("a render of every language reads and parses the storyboard once") {
    std::ostringstream err;
    const std::size_t before = story::yaml::parse_count();
    render::LanguageChoice all;
    all.all = true;
    const auto films = render::load_films({kLanguages}, "", {}, err, all, true);
    INFO(err.str());
    REQUIRE(films);
    CHECK(story::yaml::parse_count() == before + 1);
    REQUIRE(films->size() == 3);
    std::vector<std::string> langs;
    for (const render::FilmJob& film : *films) {
        langs.push_back(film.board.video.lang);
        REQUIRE(film.caption_languages.size() == 2);
        for (const story::Storyboard& other : film.caption_languages)
            CHECK(other.video.lang != film.board.video.lang);
    }
    CHECK(langs == std::vector<std::string>{"en", "de", "ar"});
    CHECK((*films)[1].board.title == "Kurz");
    CHECK((*films)[0].caption_languages[1].title == "قصير");
}

TEST_CASE("the languages asked for and a single storyboard load parse once each") {
    std::ostringstream err;
    std::size_t before = story::yaml::parse_count();
    render::LanguageChoice two;
    two.tags = {"ar", "de"};
    const auto films = render::load_films({kLanguages}, "bytes", {}, err, two);
    INFO(err.str());
    REQUIRE(films);
    CHECK(story::yaml::parse_count() == before + 1);
    REQUIRE(films->size() == 2);
    CHECK((*films)[0].board.chapters.size() == 1);
    CHECK((*films)[0].caption_languages.empty());
    before = story::yaml::parse_count();
    CHECK(render::load_storyboard(kLanguages, err, "de"));
    CHECK(story::yaml::parse_count() == before + 1);
}

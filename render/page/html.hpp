// The article page's HTML: one self-contained index.html (styles, figures, variant data and a few
// lines of script, the caption and chapter tracks inline) beside the film and its poster. No
// external request, no framework; light and dark follow prefers-color-scheme, and
// prefers-reduced-motion keeps the film on its poster.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "render/page/facts.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

struct PageVariant {
    std::vector<std::size_t> index;
    std::vector<story::Setting> settings;
    std::string svg;  // empty for the written variant: its figure is the chapter's own
    std::string alt;
    Facts facts;
    std::string calculator;  // its configuration as the calculator's fragment ("--model=...&...")
};

// A beat that sets its own configuration (`set:`), as a link into the calculator.
struct BeatLink {
    int number = 0;          // the beat's place in its chapter, from 1
    std::string at;          // where its picture rests, its set: applied, as ID@FRAMEf
    std::string calculator;  // the configuration on screen then, as the calculator's fragment
};

struct PageChapter {
    std::string id, title, kind, alt, svg;  // svg: the figure, inline
    std::string at;                         // the figure's moment as ID@FRAMEf (still --at)
    double start = 0;                       // seconds into the film
    std::vector<std::string> transcript;    // the beats' say: lines in order
    Facts facts;
    std::vector<story::ExploreParam> explore;
    std::vector<std::size_t> written;  // the variant the figure shows
    std::vector<PageVariant> variants;
    std::string calculator;       // the figure's configuration as the calculator's fragment
    std::vector<BeatLink> beats;  // each beat with a set:, in order (as written, explore or not)
};

struct PageModel {
    std::string title;
    story::PageText text;
    std::vector<PageChapter> chapters;
    std::string glyphs, colours;  // FigureSheet's sheet and CSS
    std::string film, poster;     // file names beside index.html
    // The tracks' WebVTT, inline as data: URLs: a page opened from file:// may not load a track
    // from a file (Chromium treats every file: URL as its own origin); the files are beside too.
    std::string captions_vtt, chapters_vtt;
    int width = 0, height = 0;
    std::string lang = "en";  // the page's and its tracks' language (BCP-47)
    // The calculator's page beside index.html (shardreel page writes it; empty: none): shown in a
    // frame, each chapter's configuration a link into it, its outputs seeking the film.
    std::string calculator;
    // The storyboard's defaults: as the calculator's fragment: the configuration the frame opens
    // on, so that it starts on the film's model, not the calculator's own.
    std::string calculator_start;
};

// flags as a URL fragment's text, percent-encoded: "--model=llama-2-70b&--tp=8".
std::string calculator_fragment(const std::map<std::string, std::string>& flags);

std::string page_html(const PageModel& page);

// The chapters as a WebVTT chapters track: a cue per chapter, titled, from its first frame to
// the next chapter's.
std::string chapters_webvtt(const std::vector<PageChapter>& chapters, double film_seconds);

}  // namespace render

// `shardreel page`: a storyboard as an explorable article page in a directory: index.html (every
// chapter's figure inline, its transcript, its figures and formulas, the explore: variants
// pre-rendered), film.mp4 with its poster, captions (film.vtt) and chapters (chapters.vtt).
#pragma once
#include <string>

#include "render/draw/fonts.hpp"
#include "render/film/director.hpp"
#include "render/film/film_job.hpp"

namespace render {

struct PageReport {
    std::string page;  // DIR/index.html
    int figures = 0, figures_drawn = 0;
    long long page_bytes = 0;  // every file of the page but the film
    RenderReport film;
};

// Renders film.output (DIR/film.mp4, captions a track, not burned) through the segment cache,
// then the figures through <cache>/figures, then the page; each file is written beside its
// final name and renamed into place, the page last. calculator: the calculator's page already
// written beside it (DIR/calculator.html), which the page frames and links into; empty: none.
PageReport write_page(const FilmJob& film, const Fonts& fonts, const BatchOptions& batch,
                      const CancelToken& cancel, const std::string& calculator = "");

}  // namespace render

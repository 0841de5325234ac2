// What the studio's page draws its timeline from (`GET /film.json`): the film's chapters with
// their beats and captions on the film's clock, its size and the preview's, the reload version
// and the latest load's errors.
#pragma once
#include <nlohmann/json.hpp>

#include "render/studio/film_source.hpp"

namespace render {

nlohmann::ordered_json timeline_json(const FilmState& state, int preview_width, int preview_height);

// The latest load's errors, one diagnostic per entry (as `check` prints them).
nlohmann::ordered_json errors_json(const std::string& errors);

}  // namespace render

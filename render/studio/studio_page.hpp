// The studio's page: one HTML document with its style and script inline (no framework, no
// external request), drawn from /film.json, /frame.png, /numbers.json and /events.
#pragma once
#include <string>

namespace render {

const std::string& studio_page();

}  // namespace render

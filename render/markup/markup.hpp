// Escaping text for XML and HTML outputs (SVG text layer, contact sheet pages).
#pragma once
#include <string>

namespace render {

// &, <, > and " as entities; safe in element content and double-quoted attributes.
std::string xml_escape(const std::string& text);

}  // namespace render

// Escaping text for XML and HTML outputs (the SVG text layer, the contact sheet's and article
// pages) and for the SSML espeak-ng speaks.
#pragma once
#include <string>

namespace render {

// &, <, > and " as entities; safe in element content and double-quoted attributes.
std::string xml_escape(const std::string& text);

}  // namespace render

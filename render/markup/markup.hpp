// Escaping text for XML and HTML outputs (the SVG text layer, the contact sheet's, article and
// calculator pages) and for the SSML espeak-ng speaks.
#pragma once
#include <string>

namespace render {

// &, <, > and " as entities; safe in element content and double-quoted attributes.
std::string xml_escape(const std::string& text);

// JSON text as the content of a <script type="application/json"> element: "<" (only ever inside
// its strings) escaped as \u003c, so no "</script>" in it can end the element.
std::string script_json(const std::string& json);

}  // namespace render

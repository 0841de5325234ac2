// The calculator page (`shardreel calculator`, issue 34): one standalone HTML file that runs the
// cost model in the reader's browser from file://, with no server and no network request. The
// module (build/shardreel-calc.wasm) is embedded in base64, calc/calc.js and the page's own script
// and style (render/calc_page/calculator.*) are compiled in at build time, and the film's
// palette (story/scene/theme.cpp) is written as the page's colours, light and dark. Its words
// and numbers follow a language: the message catalogue's translations of the template's words,
// of the scripts' messages and of the settings' help, and the numbering system ICU writes that
// language's numbers in.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace render {

// The page's HTML around the module's bytes, in lang (a BCP-47 tag; std::invalid_argument if
// it is not one).
std::string calculator_page(std::string_view wasm, const std::string& lang = "en");
// The messages the page translates, each once, sorted: each tr("...") and N_("...") of its
// scripts, and the help of every setting it shows (the settings table's and the other flags').
std::vector<std::string> calculator_msgids();
// RFC 4648 base64, padded.
std::string base64(std::string_view bytes);

}  // namespace render

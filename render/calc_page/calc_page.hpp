// The calculator page (`shardreel calculator`, issue 34): one standalone HTML file that runs the
// cost model in the reader's browser from file://, with no server and no network request. The
// module (build/shardreel-calc.wasm) is embedded in base64, calc/calc.js and the page's own script
// and style (render/calc_page/calculator.*) are compiled in at build time, and the film's
// palette (story/scene/theme.cpp) is written as the page's colours, light and dark.
#pragma once
#include <string>
#include <string_view>

namespace render {

// The page's HTML around the module's bytes.
std::string calculator_page(std::string_view wasm);
// RFC 4648 base64, padded.
std::string base64(std::string_view bytes);

}  // namespace render

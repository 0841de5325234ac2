// See markup.hpp.
#include "render/markup/markup.hpp"

namespace render {

std::string xml_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string script_json(const std::string& json) {
    std::string safe;
    for (char ch : json) safe += ch == '<' ? std::string("\\u003c") : std::string(1, ch);
    return safe;
}

}  // namespace render

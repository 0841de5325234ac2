// {name} placeholders filled in a message: the engine's problems (problem.cpp) and the story's
// translated messages (story/text/locale.cpp) share the one walk.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace engine {

// text with each {name} replaced by value(name) (a std::optional<std::string>); a name value()
// does not know, or a '{' never closed, stays as written.
template <class Value>
std::string fill_placeholders(std::string_view text, Value&& value) {
    std::string out;
    std::size_t done = 0;
    for (std::size_t open = text.find('{'); open != std::string_view::npos;
         open = text.find('{', done)) {
        const std::size_t close = text.find('}', open);
        if (close == std::string_view::npos) break;
        const std::optional<std::string> v = value(text.substr(open + 1, close - open - 1));
        out.append(text.substr(done, open - done));
        out.append(v ? std::string_view(*v) : text.substr(open, close + 1 - open));
        done = close + 1;
    }
    return out.append(text.substr(done));
}

}  // namespace engine

// An enum's names as one table of {value, name} rows, so printing and parsing cannot disagree.
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace engine {

template <class E, std::size_t N>
using NameTable = std::pair<E, std::string_view>[N];

template <class E, std::size_t N>
constexpr std::string_view name_of(const NameTable<E, N>& names, E value) {
    for (const auto& [v, name] : names)
        if (v == value) return name;
    return names[0].second;
}

template <class E, std::size_t N>
constexpr std::optional<E> value_of(const NameTable<E, N>& names, std::string_view text) {
    for (const auto& [v, name] : names)
        if (name == text) return v;
    return std::nullopt;
}

}  // namespace engine

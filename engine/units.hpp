// Physical quantities as distinct types, so bytes never get added to seconds by accident.
#pragma once
#include <compare>

namespace engine {

template <class Tag>
struct Quantity {
    double value = 0;
    constexpr Quantity() = default;
    constexpr explicit Quantity(double v) : value(v) {}
    constexpr Quantity operator+(Quantity o) const { return Quantity(value + o.value); }
    constexpr Quantity operator-(Quantity o) const { return Quantity(value - o.value); }
    constexpr Quantity operator*(double k) const { return Quantity(value * k); }
    constexpr Quantity operator/(double k) const { return Quantity(value / k); }
    constexpr double operator/(Quantity o) const { return value / o.value; }
    constexpr Quantity& operator+=(Quantity o) {
        value += o.value;
        return *this;
    }
    constexpr auto operator<=>(const Quantity&) const = default;
};
template <class Tag>
constexpr Quantity<Tag> operator*(double k, Quantity<Tag> q) {
    return q * k;
}

using Bytes = Quantity<struct BytesTag>;
using Seconds = Quantity<struct SecondsTag>;
using BytesPerSecond = Quantity<struct BytesPerSecondTag>;
using Flops = Quantity<struct FlopsTag>;

constexpr Seconds operator/(Bytes b, BytesPerSecond r) { return Seconds(b.value / r.value); }

constexpr double kGB = 1e9;  // decimal gigabyte, as the ZeRO paper and the seeds count

}  // namespace engine

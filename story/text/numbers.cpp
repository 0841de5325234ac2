// ICU's number formatters for one locale; see numbers.hpp.
#include "story/text/numbers.hpp"

#include <unicode/numberformatter.h>
#include <unicode/numsys.h>

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>

#include "story/text/icu_locale.hpp"

namespace story {

namespace {

namespace num = icu::number;

// Three significant figures at most, never padded with zeros: the values arrive rounded.
num::LocalizedNumberFormatter sig3(const icu::Locale& locale) {
    return num::NumberFormatter::withLocale(locale).precision(
        num::Precision::maxSignificantDigits(3));
}

std::string utf8(const num::FormattedNumber& n) {
    UErrorCode status = U_ZERO_ERROR;
    std::string out;
    n.toTempString(status).toUTF8String(out);  // read in place, not copied
    if (U_FAILURE(status)) throw std::runtime_error(u_errorName(status));
    return out;
}

// The locale's ten digits, when its numbering system is positional in base 10 (latn, arab, deva,
// ...): a count without grouping is then its digits alone, written without a formatter (names
// and steps are the numbers a frame draws most). nullopt for an algorithmic system.
using Digits = std::array<std::string, 10>;
std::optional<Digits> decimal_digits(const icu::Locale& l) {
    UErrorCode status = U_ZERO_ERROR;
    const std::unique_ptr<icu::NumberingSystem> ns(icu::NumberingSystem::createInstance(l, status));
    if (U_FAILURE(status) || ns->isAlgorithmic() || ns->getRadix() != 10) return std::nullopt;
    const icu::UnicodeString description = ns->getDescription();
    if (description.countChar32() != 10) return std::nullopt;
    Digits digits;
    for (int i = 0, at = 0; i < 10; ++i, at = description.moveIndex32(at, 1))
        icu::UnicodeString(description.char32At(at)).toUTF8String(digits[i]);
    return digits;
}

}  // namespace

struct NumberFormat::Impl {
    explicit Impl(const icu::Locale& l)
        : digits(decimal_digits(l)),
          decimal(sig3(l)),
          grouped(num::NumberFormatter::withLocale(l).grouping(UNUM_GROUPING_AUTO)),
          plain(num::NumberFormatter::withLocale(l).grouping(UNUM_GROUPING_OFF)),
          percent(sig3(l).unit(icu::MeasureUnit::getPercent())),
          compact(sig3(l).notation(num::Notation::compactShort())) {}

    // -0 draws as 0.
    static std::string format(const num::LocalizedNumberFormatter& f, double v) {
        UErrorCode status = U_ZERO_ERROR;
        return utf8(f.formatDouble(v == 0 ? 0.0 : v, status));
    }
    static std::string format(const num::LocalizedNumberFormatter& f, long long v) {
        UErrorCode status = U_ZERO_ERROR;
        return utf8(f.formatInt(v, status));
    }

    // v >= 0 in the locale's digits, most significant first.
    std::string count(long long v) const {
        std::string out;
        do {
            out.insert(0, (*digits)[v % 10]);
            v /= 10;
        } while (v > 0);
        return out;
    }

    const std::optional<Digits> digits;
    const num::LocalizedNumberFormatter decimal, grouped, plain, percent, compact;
};

NumberFormat::NumberFormat(std::string_view tag)
    : impl_(std::make_unique<const Impl>(number_locale(tag))) {}

NumberFormat::~NumberFormat() = default;

std::string NumberFormat::decimal(double v) const { return Impl::format(impl_->decimal, v); }

std::string NumberFormat::integer(long long v, bool grouped) const {
    if (!grouped && v >= 0 && impl_->digits) return impl_->count(v);
    return Impl::format(grouped ? impl_->grouped : impl_->plain, v);
}

std::string NumberFormat::percent(double percent) const {
    return Impl::format(impl_->percent, percent);
}

std::string NumberFormat::compact(double v) const { return Impl::format(impl_->compact, v); }

}  // namespace story

// ICU's number formatters for one locale; see numbers.hpp.
#include "story/numbers.hpp"

#include <unicode/numberformatter.h>

#include <stdexcept>

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
    n.toString(status).toUTF8String(out);
    if (U_FAILURE(status)) throw std::runtime_error(u_errorName(status));
    return out;
}

}  // namespace

struct NumberFormat::Impl {
    explicit Impl(const icu::Locale& l)
        : decimal(sig3(l)),
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

    const num::LocalizedNumberFormatter decimal, grouped, plain, percent, compact;
};

NumberFormat::NumberFormat(std::string_view tag) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Locale locale =
        icu::Locale::forLanguageTag(icu::StringPiece(tag.data(), tag.size()), status);
    if (U_FAILURE(status))
        throw std::invalid_argument("not a BCP-47 language tag: " + std::string(tag));
    impl_ = std::make_unique<const Impl>(locale);
}

NumberFormat::~NumberFormat() = default;

std::string NumberFormat::decimal(double v) const { return Impl::format(impl_->decimal, v); }

std::string NumberFormat::integer(long long v, bool grouped) const {
    return Impl::format(grouped ? impl_->grouped : impl_->plain, v);
}

std::string NumberFormat::percent(double percent) const {
    return Impl::format(impl_->percent, percent);
}

std::string NumberFormat::compact(double v) const { return Impl::format(impl_->compact, v); }

}  // namespace story

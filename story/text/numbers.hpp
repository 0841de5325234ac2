// A locale's number formats, by ICU (icu::number::LocalizedNumberFormatter): its digits, decimal
// and grouping separators, percent sign and compact forms. Built once per Locale and immutable
// (ICU's formatters are thread-safe), so the per-frame path formats without building anything.
// story/text/format.hpp chooses units and rounds; this only writes the number.
#pragma once
#include <memory>
#include <string>
#include <string_view>

namespace story {

class NumberFormat {
  public:
    explicit NumberFormat(std::string_view tag);  // BCP-47: "en", "de", "ar", "hi-IN"
    ~NumberFormat();
    NumberFormat(const NumberFormat&) = delete;
    NumberFormat& operator=(const NumberFormat&) = delete;

    // v already rounded to 3 significant figures (format_sig3): en "1,120", de "1.120", "1,25".
    std::string decimal(double v) const;
    // A whole number, grouped as the locale groups (en "1,024", hi "1,00,000") or not ("1024").
    std::string integer(long long v, bool grouped) const;
    // percent already rounded to 3 significant figures: en "12.5%", de "12,5 %".
    std::string percent(double percent) const;
    // v already rounded to 3 significant figures, in the locale's short compact form: en "70B",
    // de "70 Mrd.", ja "700億".
    std::string compact(double v) const;

  private:
    struct Impl;
    std::unique_ptr<const Impl> impl_;
};

}  // namespace story

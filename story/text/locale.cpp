// Words and numbers of one language; see locale.hpp.
#include "story/text/locale.hpp"

#include <algorithm>

#include "engine/placeholders.hpp"
#include "story/text/format.hpp"
#include "story/text/lang.hpp"

namespace story {

std::string Locale::value_text(const MessageArg& arg) const {
    if (const auto* n = std::get_if<long long>(&arg.value)) return format_count(*n, *this);
    return std::get<std::string>(arg.value);
}

Locale::Locale(std::string_view tag)
    : impl_(std::make_shared<const Impl>(std::string(tag),
                                         shipped_catalogue(parse_lang(tag).language))) {}

const Locale& Locale::english() {
    static const Locale en("en");
    return en;
}

std::string Locale::tr(std::string_view msgid) const {
    const std::optional<std::string_view> text =
        impl_->catalogue ? impl_->catalogue->find(msgid) : std::nullopt;
    return std::string(text.value_or(msgid));
}

std::string Locale::tr(std::string_view msgid, std::initializer_list<MessageArg> args) const {
    return engine::fill_placeholders(
        tr(msgid), [&](std::string_view name) -> std::optional<std::string> {
            const auto arg = std::ranges::find(args, name, &MessageArg::name);
            if (arg == args.end()) return std::nullopt;
            return value_text(*arg);
        });
}

}  // namespace story

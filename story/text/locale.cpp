// Words and numbers of one language; see locale.hpp.
#include "story/text/locale.hpp"

#include <algorithm>

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
    const std::string text = tr(msgid);
    std::string out;
    std::size_t done = 0;
    for (std::size_t open = text.find('{'); open != std::string::npos;
         open = text.find('{', done)) {
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        const std::string_view name(text.data() + open + 1, close - open - 1);
        const auto arg = std::ranges::find(args, name, &MessageArg::name);
        out.append(text, done, open - done);
        out += arg == args.end() ? text.substr(open, close + 1 - open) : value_text(*arg);
        done = close + 1;
    }
    return out.append(text, done);
}

}  // namespace story

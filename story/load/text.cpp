// Languages and text fields; see text.hpp.
#include "story/load/text.hpp"

#include <algorithm>

namespace story::load {

std::optional<std::string> language_tag(Context& ctx, const Entry& e) {
    auto s = scalar(ctx, e);
    if (!s) return std::nullopt;
    TagCheck tag = check_language_tag(*s);
    if (tag.error) ctx.error(*e.value, *tag.error);
    return tag.error ? std::nullopt : std::optional(tag.tag);
}

namespace {

// `languages: [en, de, ar]`, the default language first (wherever it is written).
std::vector<std::string> language_list(Context& ctx, const Entry& e, const std::string& own) {
    std::vector<std::string> listed{own};
    if (!e.value->is_sequence() || e.value->size() == 0) {
        ctx.error(*e.value,
                  "expected a list of language tags for 'languages' (e.g. [en, de, ar]), got " +
                      describe(*e.value));
        return listed;
    }
    bool has_own = false;
    for (const yaml::Node* item : e.value->items) {
        auto tag = language_tag(ctx, Entry{e.key, item});
        if (!tag) continue;
        if (*tag == own && !has_own) {
            has_own = true;
        } else if (std::ranges::count(listed, *tag)) {
            ctx.error(*item, "duplicate language '" + *tag + "' in languages:");
        } else {
            listed.push_back(*tag);
        }
    }
    if (!has_own)
        ctx.error(*e.value, "languages: lacks " + own +
                                ", the storyboard's own language (video: lang, default en): "
                                "add it, or set video: lang to one of them");
    return listed;
}

std::string fallback_language(Context& ctx, const Entry& e,
                              const std::vector<std::string>& listed) {
    auto tag = language_tag(ctx, e);
    if (!tag) return "";
    if (std::ranges::count(listed, *tag)) return *tag;
    ctx.error(*e.value, "fallback: " + *tag + " is not in " + quoted_languages(listed) +
                            " (fall back to one of them)");
    return "";
}

}  // namespace

// `video: lang` (the default language), `languages:` (every language the text is in, the
// default among them) and `fallback:`.
Languages read_languages(Context& ctx, const Entries& top, const std::optional<Entries>& video,
                         const yaml::Node& root, const std::string& requested) {
    const Entry* lang = video ? find(*video, "lang") : nullptr;
    const std::string own = lang ? language_tag(ctx, *lang).value_or("en") : "en";
    std::vector<std::string> listed{own};
    const Entry* list = find(top, "languages");
    if (list) listed = language_list(ctx, *list, own);
    std::string fallback;
    if (const Entry* f = find(top, "fallback")) fallback = fallback_language(ctx, *f, listed);
    std::string film = requested.empty() ? own : requested;
    if (std::ranges::count(listed, film) == 0) {
        const yaml::Node& at = list ? *list->key : lang ? *lang->value : root;
        ctx.error(at, "this storyboard has no " + film + " text (it is in " +
                          quoted_languages(listed) + "): add " + film +
                          " to languages: with its translations, or ask for one of them");
        film = own;
    }
    return Languages(listed, fallback, film);
}

void each_language(Context& ctx, const Entry& e,
                   const std::function<void(const std::string&, const Entry&)>& each) {
    for (const Entry& item : e.value->entries) {
        auto lang = language_tag(ctx, Entry{e.key, item.key});
        if (!lang) continue;
        if (auto problem = ctx.langs.key_error(*lang)) {
            ctx.error(*item.key, *problem);
            continue;
        }
        each(*lang, item);
    }
}

WrittenText written(Context& ctx, const Entry& e) {
    WrittenText w{e.value->pos, e.value->is_map(), {}};
    if (!w.by_language) {
        w.translations.push_back(
            {ctx.langs.default_language(), text(ctx, e).value_or(""), {}, w.pos});
        return w;
    }
    for (const Entry& item : e.value->entries) {
        auto lang = language_tag(ctx, Entry{e.key, item.key});
        if (!lang) continue;
        if (std::ranges::count(w.translations, *lang, &Translation::lang))
            ctx.error(*item.key, "duplicate translation '" + *lang + "'");
        else
            w.translations.push_back(
                {*lang, text(ctx, item).value_or(""), item.key->pos, item.value->pos});
    }
    return w;
}

std::string localized(Context& ctx, const Entry& e, const TextPlace& place) {
    return ctx.langs.pick(written(ctx, e), place, ctx.file, ctx.diags, ctx.warnings).text;
}

}  // namespace story::load

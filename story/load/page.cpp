// page:; see page.hpp.
#include "story/load/page.hpp"

#include "story/load/text.hpp"

namespace story::load {
namespace {

// Item i's `key` (q, a, term, means) of a page list.
std::string required_text(Context& ctx, const Entries& item, const std::string& key,
                          const Entry& list, std::size_t i) {
    const Entry* f = find(item, key);
    if (!f) {
        const yaml::Node& at = item.empty() ? *list.value : *item.begin()->second.key;
        ctx.error(at, "missing required key '" + key + "' in '" + list.key->text + "'");
        return "";
    }
    return localized(ctx, *f,
                     {key + " of page " + list.key->text + " item " + std::to_string(i + 1)});
}

}  // namespace

PageText read_page(Context& ctx, const Entry& e) {
    PageText p;
    auto fields = map_of(ctx, e, kPageKeys, "in page");
    if (!fields) return p;
    if (const Entry* f = find(*fields, "lede")) p.lede = localized(ctx, *f, {"page's lede"});
    if (const Entry* f = find(*fields, "questions")) {
        const std::vector<Entries> list = items(ctx, *f, kQuestionKeys, "in a question");
        for (std::size_t i = 0; i < list.size(); ++i)
            p.questions.push_back(
                {required_text(ctx, list[i], "q", *f, i), required_text(ctx, list[i], "a", *f, i)});
    }
    if (const Entry* f = find(*fields, "glossary")) {
        const std::vector<Entries> list = items(ctx, *f, kTermKeys, "in a glossary entry");
        for (std::size_t i = 0; i < list.size(); ++i)
            p.glossary.push_back({required_text(ctx, list[i], "term", *f, i),
                                  required_text(ctx, list[i], "means", *f, i)});
    }
    return p;
}

}  // namespace story::load

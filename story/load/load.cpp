// Storyboard loading (schema version 1): the text parsed once into a plain tree
// (load/yaml_tree, the only file that includes yaml-cpp), read by one parser per part of the
// file (story/load/), then configured (load/configure: the planner runs after parsing).
#include "story/load/load.hpp"

#include "story/load/chapters.hpp"
#include "story/load/config.hpp"
#include "story/load/configure.hpp"
#include "story/load/fields.hpp"
#include "story/load/page.hpp"
#include "story/load/text.hpp"
#include "story/load/video.hpp"
#include "story/load/yaml_tree.hpp"

namespace story {
namespace {

using namespace load;

void version(Context& ctx, const Entries& top, const yaml::Node& root) {
    const Entry* e = find(top, "shardreel");
    if (!e) {
        ctx.error(root, "missing required key 'shardreel' (the schema version: shardreel: 1)");
        return;
    }
    if (auto v = scalar(ctx, *e); v && *v != "1")
        ctx.error(*e->value, "unsupported schema version '" + *v + "' (this shardreel reads 1)");
}

// The storyboard in `lang` (empty: its own language); the film's language is known before any
// text is read, and the configurations once every part is.
Storyboard read_storyboard(Context& ctx, const yaml::Node& root, const std::string& lang) {
    Storyboard sb;
    sb.file = ctx.file;
    if (!root.is_map()) {
        ctx.error(SourcePos{1, 1}, root.is_null()
                                       ? "the storyboard is empty (expected 'shardreel: 1')"
                                       : "expected a map at the top level, got " + describe(root));
        return sb;
    }
    const Entries top = entries(ctx, root, kTopKeys, "");
    version(ctx, top, root);
    std::optional<Entries> video_fields;
    if (const Entry* e = find(top, "video")) video_fields = map_of(ctx, *e, kVideoKeys, "in video");
    ctx.langs = read_languages(ctx, top, video_fields, root, lang);
    sb.languages = ctx.langs.listed();
    if (const Entry* e = find(top, "title")) sb.title = localized(ctx, *e, {"storyboard's title"});
    if (video_fields) sb.video = read_video(ctx, *video_fields);
    sb.video.lang = ctx.langs.film();
    ConfigLayer defaults;
    if (const Entry* e = find(top, "defaults")) defaults = read_defaults(ctx, *e);
    std::vector<ChapterDraft> chapters;
    if (const Entry* e = find(top, "chapters"))
        chapters = read_chapters(ctx, *e, sb.video);
    else
        ctx.error(root, "missing required key 'chapters'");
    if (const Entry* e = find(top, "page")) sb.page = read_page(ctx, *e);
    configure(ctx, sb, defaults, std::move(chapters));
    return sb;
}

}  // namespace

ParsedStoryboard parse_storyboard_text(const std::string& text, const std::string& file) {
    ParsedStoryboard parsed{file, nullptr, {}};
    parsed.tree = yaml::parse(text, file, parsed.errors);
    return parsed;
}

std::optional<Storyboard> resolve_storyboard(const ParsedStoryboard& parsed, Diagnostics& diags,
                                             std::vector<Diagnostic>& warnings,
                                             const std::string& lang) {
    Diagnostics found = parsed.errors;
    std::optional<Storyboard> sb;
    if (parsed.tree) {
        Context ctx{parsed.file, found, warnings, {}};
        sb = read_storyboard(ctx, parsed.tree->root(), lang);
    }
    diags.append(found);
    if (!found.empty()) return std::nullopt;
    return sb;
}

std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags) {
    std::vector<Diagnostic> warnings;
    return parse_storyboard(text, file, diags, warnings, "");
}

std::optional<Storyboard> parse_storyboard(const std::string& text, const std::string& file,
                                           Diagnostics& diags, std::vector<Diagnostic>& warnings,
                                           const std::string& lang) {
    return resolve_storyboard(parse_storyboard_text(text, file), diags, warnings, lang);
}

}  // namespace story

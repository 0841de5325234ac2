// Loading and selecting storyboards for the commands; see storyboard_inputs.hpp.
#include "render/inputs/storyboard_inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "render/sys/files.hpp"
#include "render/voice/speech.hpp"
#include "story/load/load.hpp"
#include "story/load/timed.hpp"
#include "story/storyboard/languages.hpp"
#include "story/storyboard/limits.hpp"
#include "story/storyboard/units.hpp"

namespace render {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split_ids(const std::string& csv) {
    std::vector<std::string> ids;
    std::size_t start = 0;
    while (start <= csv.size()) {
        const std::size_t comma = std::min(csv.find(',', start), csv.size());
        if (comma > start) ids.push_back(csv.substr(start, comma - start));
        start = comma + 1;
    }
    return ids;
}

}  // namespace

std::string& speech_cache() {
    static std::string dir = "out/cache";
    return dir;
}

void use_scratch_speech_cache(std::optional<TempDir>& scratch) {
    scratch.emplace((std::filesystem::temp_directory_path() / "shardreel-speech").string());
    speech_cache() = scratch->path();
}

// Where the voice plugs in: gives every beat a voice speaks (narration not off) its Speech, from
// the speech cache or synthesis, adding an error for a line it cannot speak.
void fill_voice_speech(story::Storyboard& board, story::Diagnostics& errors) {
    fill_speech(board, speech_cache(), errors);
}

std::optional<story::Storyboard> timed_storyboard(const story::ParsedStoryboard& parsed,
                                                  story::Diagnostics& errors,
                                                  std::vector<story::Diagnostic>& warnings,
                                                  const std::string& lang) {
    return story::load_timed(parsed, errors, warnings, fill_voice_speech, lang);
}

namespace {

std::optional<std::string> read_storyboard_text(const std::string& path, std::ostream& err) {
    std::string error;
    auto text = read_file(path, error);
    if (!text) err << path << ": error: cannot read: " << error << "\n";
    return text;
}

// The storyboard at `path` read and parsed, once for every language loaded from it; nullopt,
// the error printed, when it cannot be read.
std::optional<story::ParsedStoryboard> read_parsed(const std::string& path, std::ostream& err) {
    const auto text = read_storyboard_text(path, err);
    if (!text) return std::nullopt;
    return story::parse_storyboard_text(*text, path);
}

// The storyboard timed in `lang` with only the chapters in `only`, chosen before any line is
// spoken (a chapter's timing is its own lines'); `selected` is false when `only` names an
// unknown chapter.
std::optional<story::Storyboard> load_selected(const story::ParsedStoryboard& parsed,
                                               const std::string& only, std::ostream& err,
                                               bool& selected, const std::string& lang) {
    story::Diagnostics errors;
    std::vector<story::Diagnostic> warnings;
    auto board = story::load_timed(
        parsed, errors, warnings,
        [&](story::Storyboard& sb, story::Diagnostics& diags) {
            selected = select_chapters(sb, only, err);
            fill_voice_speech(sb, diags);
        },
        lang);
    err << story::format_diagnostics(errors, warnings);
    return board;
}

// The languages to load `parsed` in: the storyboard's own (""), the tags asked for, or all it
// lists (a storyboard that does not resolve is loaded once, to report why).
std::vector<std::string> languages_to_load(const story::ParsedStoryboard& parsed,
                                           const LanguageChoice& langs) {
    if (!langs.all) return langs.given() ? langs.tags : std::vector<std::string>{""};
    story::Diagnostics ignored;
    std::vector<story::Diagnostic> warnings;
    const auto board = story::resolve_storyboard(parsed, ignored, warnings);
    return board ? board->languages : std::vector<std::string>{""};
}

// The film of `parsed` in `lang`, its chapters selected and its video resolved, added to films
// (with the other languages' captions when `captions_all`); false after printing an error.
bool load_film(const story::ParsedStoryboard& parsed, const std::string& lang,
               const std::string& only, const VideoOverrides& overrides, bool captions_all,
               std::ostream& err, std::vector<FilmJob>& films) {
    bool selected = true;
    auto board = load_selected(parsed, only, err, selected, lang);
    if (!board) return false;
    bool ok = selected;
    story::Video video;
    if (auto problem = resolve_video(board->video, overrides, video)) {
        err << "shardreel: error: " << *problem << "\n";
        ok = false;
    } else {
        ok = chapters_hold_frames(*board, video.fps, err) && ok;
    }
    std::vector<story::Storyboard> captions;
    if (captions_all) {
        auto others = other_languages(parsed, *board, err);
        ok = others && ok;
        if (others) captions = std::move(*others);
    }
    films.push_back({std::move(*board), video, "", std::nullopt, std::move(captions)});
    return ok;
}

}  // namespace

std::optional<LanguageChoice> parse_languages(const std::string& value, bool single,
                                              std::ostream& err) {
    LanguageChoice out;
    if (value == "all" && !single) {
        out.all = true;
        return out;
    }
    for (const std::string& tag : split_ids(value)) {
        const story::TagCheck check = story::check_language_tag(tag);
        if (check.error) {
            err << "shardreel: error: --lang: " << *check.error << "\n";
            return std::nullopt;
        }
        if (std::ranges::count(out.tags, check.tag) == 0) out.tags.push_back(check.tag);
    }
    if (single && out.tags.size() > 1) {
        err << "shardreel: error: --lang takes one language here, got '" << value << "'\n";
        return std::nullopt;
    }
    return out;
}

std::string single_language(const LanguageChoice& langs) {
    return langs.tags.empty() ? "" : langs.tags.front();
}

std::string output_stem(const std::string& storyboard, const LanguageChoice& langs,
                        const std::string& lang) {
    return "out/" + fs::path(storyboard).stem().string() + (langs.given() ? "." + lang : "");
}

std::optional<story::Storyboard> load_storyboard(const std::string& path, std::ostream& err,
                                                 const std::string& lang) {
    const auto parsed = read_parsed(path, err);
    if (!parsed) return std::nullopt;
    bool selected = true;
    return load_selected(*parsed, "", err, selected, lang);
}

std::optional<std::vector<story::Storyboard>> other_languages(const story::ParsedStoryboard& parsed,
                                                              const story::Storyboard& film,
                                                              std::ostream& err) {
    std::vector<story::Storyboard> out;
    for (const std::string& lang : film.languages) {
        if (lang == film.video.lang) continue;
        story::Diagnostics errors;
        std::vector<story::Diagnostic> warnings;
        auto board = story::resolve_storyboard(parsed, errors, warnings, lang);
        err << story::format_diagnostics(errors, warnings);
        if (!board) return std::nullopt;
        out.push_back(std::move(*board));
    }
    return out;
}

std::optional<std::vector<std::string>> expand_storyboards(const std::vector<std::string>& args,
                                                           std::ostream& err) {
    std::vector<std::string> out;
    for (const std::string& arg : args) {
        std::error_code ec;
        if (!fs::is_directory(arg, ec)) {
            out.push_back(arg);
            continue;
        }
        std::vector<std::string> found;
        for (const fs::directory_entry& e : fs::directory_iterator(arg, ec))
            if (e.path().extension() == ".yaml") found.push_back(e.path().string());
        if (found.empty()) {
            err << arg << ": error: directory has no *.yaml storyboards\n";
            return std::nullopt;
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

bool chapters_hold_frames(const story::Storyboard& board, int fps, std::ostream& err) {
    bool ok = true;
    for (const story::ChapterSpec& c : board.chapters) {
        if (auto problem = story::limits::frame_length_error(c.duration, fps)) {
            err << story::Diagnostic{board.file, c.pos,
                                     "chapter '" + c.id + "' " + *problem +
                                         "; lengthen it or raise --fps"}
                       .format()
                << "\n";
            ok = false;
        }
    }
    return ok;
}

std::optional<std::vector<FilmJob>> load_films(const std::vector<std::string>& storyboards,
                                               const std::string& only,
                                               const VideoOverrides& overrides, std::ostream& err,
                                               const LanguageChoice& langs, bool captions_all) {
    const auto paths = expand_storyboards(storyboards, err);
    if (!paths) return std::nullopt;
    std::vector<FilmJob> films;
    bool ok = true;
    for (const std::string& path : *paths) {
        const auto parsed = read_parsed(path, err);
        ok = parsed && ok;
        if (!parsed) continue;
        for (const std::string& lang : languages_to_load(*parsed, langs))
            ok = load_film(*parsed, lang, only, overrides, captions_all, err, films) && ok;
    }
    if (!ok) return std::nullopt;
    return films;
}

bool select_chapters(story::Storyboard& board, const std::string& only, std::ostream& err) {
    if (only.empty()) return true;
    std::vector<std::string> known;
    for (const auto& c : board.chapters) known.push_back(c.id);
    const auto ids = split_ids(only);
    bool ok = true;
    for (const std::string& id : ids) {
        if (std::find(known.begin(), known.end(), id) != known.end()) continue;
        const std::string near = story::closest_match(id, known);
        err << "shardreel: error: no chapter '" << id << "' in " << board.file
            << (near.empty() ? "" : " (did you mean '" + near + "'?)") << "\n";
        ok = false;
    }
    std::erase_if(board.chapters, [&](const story::ChapterSpec& c) {
        return std::find(ids.begin(), ids.end(), c.id) == ids.end();
    });
    return ok;
}

}  // namespace render

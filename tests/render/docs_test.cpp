// README.md and docs/ against what they document: every relative link reaches its file and
// anchor, every `--flag` exists (on the command the mention names, or on some command, or in the
// scripts that pass it to another tool), every storyboard key exists in the schema; and the
// tables written from the code: README's packages from scripts/deps.sh, the shared flags from
// render/cli/media_flags.cpp and the binary's --help. SHARDREEL_REGEN_DOCS=1 rewrites the tables:
// `SHARDREEL_REGEN_DOCS=1 build/test_render '[docs]'`.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "render/cli/media_flags.hpp"
#include "render/inputs/storyboard_inputs.hpp"
#include "story/load/schema.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/cli_help.hpp"
#include "tests/story/regen.hpp"

namespace fs = std::filesystem;
using namespace render_test;

namespace {

const fs::path kSource = SHARDREEL_SOURCE_DIR;

// Flags of other tools that the docs name beside the tool and no script of ours passes.
const std::map<std::string, std::string> kOtherTools = {{"--variant", "debootstrap"},
                                                        {"--mount", "unshare"}};

// README.md and every Markdown file under docs/, relative to the source tree.
std::vector<fs::path> documents() {
    std::vector<fs::path> out = {"README.md"};
    for (const auto& e : fs::recursive_directory_iterator(kSource / "docs"))
        if (e.path().extension() == ".md") out.push_back(fs::relative(e.path(), kSource));
    std::ranges::sort(out);
    return out;
}

struct DocLine {
    std::string text;
    bool code = false;  // a fence, or inside a fenced block
    std::string block;  // the info string of that block ("yaml"); empty outside one
};

std::vector<DocLine> doc_lines(const fs::path& doc) {
    std::vector<DocLine> out;
    std::optional<std::string> block;
    for (const std::string& line : lines_of(regen::slurp(kSource / doc))) {
        const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
        if (line.compare(indent, 3, "```") == 0) {
            block = block ? std::nullopt : std::optional(line.substr(indent + 3));
            out.push_back({line, true, ""});
        } else {
            out.push_back({line, block.has_value(), block.value_or("")});
        }
    }
    return out;
}

// GitHub's anchor of a heading: lower case, punctuation but '-' and '_' dropped, spaces as '-'.
std::string anchor(const std::string& heading) {
    std::string out;
    for (const char c : heading) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || u >= 0x80)
            out += static_cast<char>(std::tolower(u));
        else if (c == ' ')
            out += '-';
    }
    return out;
}

// The anchors of a document's headings, a repeated one numbered as GitHub numbers it.
std::set<std::string> anchors(const fs::path& doc) {
    std::set<std::string> out;
    std::map<std::string, int> seen;
    static const std::regex heading("^#+ (.*)$");
    for (const DocLine& line : doc_lines(doc)) {
        std::smatch m;
        if (line.code || !std::regex_match(line.text, m, heading)) continue;
        const std::string a = anchor(m[1]);
        const int n = seen[a]++;
        out.insert(n == 0 ? a : a + "-" + std::to_string(n));
    }
    return out;
}

// Why a relative link from doc does not resolve; empty when it does.
std::string broken(const fs::path& doc, const std::string& link) {
    const std::size_t hash = link.find('#');
    const std::string file = link.substr(0, hash);
    const fs::path target = file.empty() ? doc : (doc.parent_path() / file).lexically_normal();
    if (!fs::exists(kSource / target)) return "no file " + target.string();
    if (hash == std::string::npos || target.extension() != ".md") return "";
    if (!anchors(target).count(link.substr(hash + 1))) return "no heading " + link;
    return "";
}

}  // namespace

TEST_CASE("every relative link in README.md and docs/ reaches its file and heading", "[docs]") {
    static const std::regex link(R"(\]\(([^)\s]+)\)|src="([^"]+)\")");
    int links = 0;
    for (const fs::path& doc : documents())
        for (const DocLine& line : doc_lines(doc)) {
            if (line.code) continue;
            for (std::sregex_iterator m(line.text.begin(), line.text.end(), link), end; m != end;
                 ++m) {
                const std::string target = (*m)[1].matched ? (*m)[1] : (*m)[2];
                if (target.find("://") != std::string::npos || target.starts_with("mailto:"))
                    continue;
                ++links;
                INFO(doc.string() << ": " << line.text);
                CHECK(broken(doc, target) == "");
            }
        }
    CHECK(links > 50);
}

namespace {

// Each command's options by name (the binary's --help; the top level's --help and --version
// count for every command), and every option of any command.
struct Options {
    std::vector<std::string> commands;
    std::map<std::string, std::set<std::string>> by_command;
    std::set<std::string> any;
};

const Options& options() {
    static const Options o = [] {
        Options out;
        out.commands = help_commands();
        std::set<std::string> top;
        for (const auto& [name, help] : help_options("")) top.insert(name);
        for (const std::string& c : out.commands) {
            out.by_command[c] = top;
            for (const auto& [name, help] : help_options(c)) out.by_command[c].insert(name);
            out.any.insert(out.by_command[c].begin(), out.by_command[c].end());
        }
        return out;
    }();
    return o;
}

// The text of the repository's scripts and benchmarks and of the job scripts `jobs` writes:
// where a flag of another tool (sbatch, ninja) is passed.
const std::string& scripts_text() {
    static const std::string text = [] {
        std::string out = regen::slurp(kSource / "render/cli/video/job_scripts.cpp");
        for (const char* dir : {"scripts", "bench"})
            for (const auto& e : fs::directory_iterator(kSource / dir))
                if (e.is_regular_file()) out += regen::slurp(e.path());
        return out;
    }();
    return text;
}

bool in_scripts(const std::string& flag) {
    const std::string& text = scripts_text();
    for (std::size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1)) {
        const std::size_t end = at + flag.size();
        if (end == text.size() ||
            !(std::islower(static_cast<unsigned char>(text[end])) ||
              std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '-'))
            return true;
    }
    return false;
}

// A line's pieces: the whole line in a fenced block; otherwise prose and code spans by turns.
std::vector<std::pair<std::string, bool>> pieces(const DocLine& line) {
    if (line.code) return {{line.text, true}};
    std::vector<std::pair<std::string, bool>> out;
    std::size_t start = 0;
    for (bool code = false; start <= line.text.size(); code = !code) {
        const std::size_t tick = std::min(line.text.find('`', start), line.text.size());
        out.emplace_back(line.text.substr(start, tick - start), code);
        start = tick + 1;
    }
    return out;
}

// Why a flag mentioned in a piece does not exist; empty when it does. In code, the command
// named before it (`shardreel page ... --json`, or a span that starts `page --json`) must take
// it; otherwise some command, or a script passing it to another tool.
std::string unknown_flag(const std::string& before, bool code, const std::string& flag) {
    static const std::regex named = [] {
        std::string names;
        for (const std::string& c : options().commands) names += (names.empty() ? "" : "|") + c;
        return std::regex("(^|[\\s/(])shardreel\\s+(" + names + ")\\b|^(" + names + ")\\s");
    }();
    std::string command;
    for (std::sregex_iterator m(before.begin(), before.end(), named), end; code && m != end; ++m)
        command = (*m)[2].matched ? (*m)[2] : (*m)[3];
    if (!command.empty())
        return options().by_command.at(command).count(flag) ? "" : "not an option of " + command;
    if (options().any.count(flag) || in_scripts(flag) || kOtherTools.count(flag)) return "";
    return "no command, script or listed tool takes it";
}

}  // namespace

TEST_CASE("every --flag in README.md and docs/ exists where the mention puts it", "[docs]") {
    static const std::regex flag("(^|[^\\w-])(--[a-z][a-z0-9-]*)");
    int mentions = 0;
    for (const fs::path& doc : documents())
        for (const DocLine& line : doc_lines(doc))
            for (const auto& [text, code] : pieces(line))
                for (std::sregex_iterator m(text.begin(), text.end(), flag), end; m != end; ++m) {
                    ++mentions;
                    INFO(doc.string() << ": " << line.text);
                    const auto at = static_cast<std::size_t>(m->position(2));
                    CHECK(unknown_flag(text.substr(0, at), code, (*m)[2]) == "");
                }
    CHECK(mentions > 300);
    // The check itself: a flag no command takes, and one the named command does not take.
    CHECK(unknown_flag("", false, "--no-such-flag") != "");
    CHECK(unknown_flag("shardreel still x.yaml ", true, "--fps") == "not an option of still");
    CHECK(unknown_flag("shardreel render x.yaml ", true, "--fps") == "");
}

namespace {

// Every key the storyboard schema names.
const std::set<std::string>& schema_keys() {
    static const std::set<std::string> keys = [] {
        std::set<std::string> out;
        std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& node) {
            if (!node.is_structured()) return;
            for (const auto& [name, value] : node.items()) {
                if (name == "properties" && value.is_object())
                    for (const auto& [key, unused] : value.items()) out.insert(key);
                walk(value);
            }
        };
        walk(nlohmann::json::parse(story::storyboard_schema()));
        return out;
    }();
    return keys;
}

// Words written `word:` that are not storyboard keys: URL schemes (`file:`, `data:`), the
// studio's server-sent `event:` field and the fuzz dictionary's placeholder `key:`.
const std::set<std::string> kNotKeys = {"data", "file", "event", "key"};

// Whether key is a storyboard key, or a language tag (a text's translations are keyed by them).
bool known_key(const std::string& key) {
    std::ostringstream ignored;
    return schema_keys().count(key) || render::parse_languages(key, true, ignored).has_value();
}

// The keys of a YAML line: words before ": " or a final ':', outside quotes and comments.
std::vector<std::string> yaml_keys(std::string line) {
    line = std::regex_replace(line, std::regex("\"[^\"]*\"|(^|\\s)#.*"), "");
    static const std::regex key("([A-Za-z_][\\w-]*):(?=\\s|$)");
    std::vector<std::string> out;
    for (std::sregex_iterator m(line.begin(), line.end(), key), end; m != end; ++m)
        out.push_back((*m)[1]);
    return out;
}

}  // namespace

TEST_CASE("every storyboard key in README.md and docs/ is one the schema has", "[docs]") {
    static const std::regex span_key("^([a-z_][a-z0-9_]*):(\\s.*)?$");
    int keys = 0;
    for (const fs::path& doc : documents())
        for (const DocLine& line : doc_lines(doc)) {
            std::vector<std::string> found;
            if (line.block.starts_with("yaml")) found = yaml_keys(line.text);
            for (const auto& [text, code] : pieces(line)) {
                std::smatch m;
                if (code && !line.code && std::regex_match(text, m, span_key) &&
                    !kNotKeys.count(m[1]))
                    found.push_back(m[1]);
            }
            for (const std::string& key : found) {
                ++keys;
                INFO(doc.string() << ": " << line.text);
                CHECK(known_key(key));
            }
        }
    CHECK(keys > 200);
    CHECK_FALSE(known_key("microbatches"));
}

TEST_CASE("the storyboard of README's tour is valid as written", "[docs]") {
    std::vector<std::string> boards;
    std::size_t indent = 0;  // the block's, in the list item
    for (const DocLine& line : doc_lines("README.md")) {
        if (!line.block.starts_with("yaml")) continue;
        if (line.text.ends_with("shardreel: 1")) {
            boards.emplace_back();
            indent = line.text.find('s');
        }
        if (!boards.empty()) boards.back() += line.text.substr(indent) + "\n";
    }
    REQUIRE(boards.size() == 1);
    TempDir dir;
    write_text(dir.path / "tour.yaml", boards.front());
    const CliRun run = run_cli("check " + q(dir.path / "tour.yaml"));
    CHECK(run.exit_code == 0);
    CHECK(run.err == "");
}

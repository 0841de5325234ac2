// The documentation tables written from the code: README's package table from the lists of
// scripts/deps.sh, and docs/commands/README.md's shared flags from render/cli/media_flags.cpp
// with the commands that take each as the binary's --help says. SHARDREEL_REGEN_DOCS=1 rewrites
// them: `SHARDREEL_REGEN_DOCS=1 build/test_render '[docs]'`.
#include <algorithm>
#include <iterator>
#include <map>
#include <regex>

#include "render/cli/media_flags.hpp"
#include "tests/catch.hpp"
#include "tests/render/cli.hpp"
#include "tests/render/cli_help.hpp"
#include "tests/story/regen.hpp"

namespace fs = std::filesystem;
using namespace render_test;

namespace {

const fs::path kSource = SHARDREEL_SOURCE_DIR;

// What each list of scripts/deps.sh is for, in the table's words.
const std::map<std::string, std::string> kPurpose = {
    {"build_pkgs", "building and rendering"},
    {"contrib_pkgs", "building and rendering, from Debian's contrib (fetched alone)"},
    {"test_pkgs", "tests, in addition"},
    {"fuzz_pkgs", "`scripts/fuzz.sh`, in addition"},
    {"bench_pkgs", "`bench/run.sh`, in addition"},
    {"cluster_pkgs", "`scripts/cluster-test.sh`, in addition"},
};

struct PackageList {
    std::string name, packages;
};

// deps.sh's lists in the order they are first named, each list's packages in order ($llvm
// written N); an addition made only under a condition (`command -v node || test_pkgs+=(...)`)
// says so.
std::vector<PackageList> package_lists(const std::string& script) {
    static const std::regex list("(^|\\n)([^\\n]*?)(\\w+_pkgs)\\+?=\\(([^)]*)\\)");
    std::vector<PackageList> out;
    for (std::sregex_iterator m(script.begin(), script.end(), list), end; m != end; ++m) {
        std::string words = std::regex_replace((*m)[4].str(), std::regex("\\s+"), " ");
        words = std::regex_replace(words, std::regex("\\$llvm"), "N");
        std::string condition = (*m)[2];
        if (condition.ends_with("|| "))
            words += " (where `" + condition.substr(0, condition.size() - 4) + "` fails)";
        auto it = std::ranges::find(out, (*m)[3].str(), &PackageList::name);
        if (it == out.end()) {
            out.push_back(PackageList{(*m)[3].str(), ""});
            it = std::prev(out.end());
        }
        it->packages += (it->packages.empty() ? "" : " ") + words;
    }
    return out;
}

std::string package_table() {
    std::string out = "| for | Debian packages (`scripts/deps.sh`) |\n|---|---|\n";
    for (const PackageList& l : package_lists(regen::slurp(kSource / "scripts/deps.sh"))) {
        INFO(l.name << " has no purpose in kPurpose");
        REQUIRE(kPurpose.count(l.name));
        out += "| " + kPurpose.at(l.name) + " | " + l.packages + " |\n";
    }
    return out;
}

// The media commands, in the table's order.
const std::vector<std::string> kMediaCommands = {"render", "page",   "still",     "sheet",
                                                 "jobs",   "studio", "calculator"};

std::string shared_flags_table() {
    std::string out = "| flag | meaning |", rule = "|---|---|";
    std::vector<std::map<std::string, std::string>> takes;
    for (const std::string& c : kMediaCommands) {
        out += " " + c + " |";
        rule += "---|";
        takes.push_back(help_options(c));
    }
    out += "\n" + rule + "\n";
    for (const render::SharedFlag& f : render::shared_flags()) {
        const std::string names = std::regex_replace(f.names, std::regex(","), ", ");
        out += "| `" + names + (f.value.empty() ? "" : " " + f.value) + "` | " + f.help +
               (f.many.empty() ? "" : "; on render and jobs: " + f.many) + " |";
        for (const auto& options : takes)
            out += options.count(f.names.substr(f.names.find("--"))) ? " yes |" : " |";
        out += "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("README's package table is scripts/deps.sh's lists", "[docs]") {
    const fs::path readme = kSource / "README.md";
    const std::string table = package_table();
    regen::check_or_write(readme,
                          regen::with_block(regen::slurp(readme), "| for | Debian packages", table),
                          "render");
    // The packages the table once left out are there.
    for (const char* p : {"open-jtalk", "open-jtalk-mecab-naist-jdic",
                          "hts-voice-nitech-jp-atr503-m001", "libc++-N-dev-wasm32"})
        CHECK(std::regex_search(
            table, std::regex("[ |]" + std::regex_replace(p, std::regex("\\+"), "\\+") + "[ |]")));
}

TEST_CASE("docs/commands/README.md's shared flags are media_flags.cpp's", "[docs]") {
    const fs::path doc = kSource / "docs/commands/README.md";
    const std::string table = shared_flags_table();
    regen::check_or_write(doc, regen::with_block(regen::slurp(doc), "| flag | meaning |", table),
                          "render");
    CHECK(lines_of(table).size() == render::shared_flags().size() + 2);
}

// scripts/include-check.sh, the include direction ctest checks on this tree: it passes a copy of
// render/ and fails it once one include goes against the graph (upwards, the studio-to-cli half
// of the cycle that was, from story/ into render/, from a folder the graph lacks), naming that
// file and line alone; and it refuses a graph with a cycle.
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using render_test::q;
using render_test::TempDir;
using render_test::write_text;

namespace {

const fs::path kSource = SHARDREEL_SOURCE_DIR;

render_test::CliRun check(const fs::path& root, const fs::path& script) {
    return render_test::run_shell(q(script) + " " + q(root));
}

// A copy of render/ and of the script, with empty engine/ and story/ beside them.
struct Tree {
    TempDir dir;
    fs::path script = dir.path / "scripts/include-check.sh";
    Tree() {
        fs::copy(kSource / "render", dir.path / "render", fs::copy_options::recursive);
        fs::create_directories(dir.path / "engine");
        fs::create_directories(dir.path / "story");
        fs::create_directories(script.parent_path());
        fs::copy_file(kSource / "scripts/include-check.sh", script);
    }
    // What the check says with `file` written holding `include` on its third line.
    render_test::CliRun check_with(const std::string& file, const std::string& include) {
        fs::create_directories((dir.path / file).parent_path());
        write_text(dir.path / file,
                   "// An include against the graph.\n\n#include \"" + include + "\"\n");
        const render_test::CliRun r = check(dir.path, script);
        fs::remove(dir.path / file);
        return r;
    }
};

}  // namespace

TEST_CASE("the include check fails an include against the graph, naming its file and line",
          "[architecture]") {
    Tree tree;
    render_test::CliRun r = check(tree.dir.path, tree.script);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);  // the copy as it is passes

    // The file written, its include, and all the check prints.
    const std::vector<std::array<std::string, 3>> cases{
        {"render/sys/up.cpp", "render/film/plan.hpp",
         "render/sys/up.cpp:3: render/sys may not include render/film/plan.hpp (render/film is "
         "not in its line of the graph, scripts/include-check.sh)\n"},
        {"render/studio/back.cpp", "render/cli/commands.hpp",
         "render/studio/back.cpp:3: render/studio may not include render/cli/commands.hpp "
         "(render/cli is not in its line of the graph, scripts/include-check.sh)\n"},
        {"story/drawn.cpp", "render/draw/painter.hpp",
         "story/drawn.cpp:3: story/drawn.cpp is outside render/ and includes "
         "render/draw/painter.hpp\n"},
        {"render/extra/new.cpp", "render/sys/files.hpp",
         "render/extra/new.cpp:3: render/extra is not in the graph (scripts/include-check.sh)\n"},
    };
    for (const auto& [file, include, printed] : cases) {
        INFO(file);
        r = tree.check_with(file, include);
        CHECK(r.exit_code == 1);
        CHECK(r.out == printed);
    }
}

TEST_CASE("the include check refuses a graph with a cycle", "[architecture]") {
    Tree tree;
    // sys may include film, which includes sys.
    REQUIRE(render_test::run_shell("sed -i 's/^sys:$/sys: film/' " + q(tree.script)).exit_code ==
            0);
    const render_test::CliRun r = check(tree.dir.path, tree.script);
    CHECK(r.exit_code == 1);
    CHECK(render_test::lines_of(r.err).at(0) == "scripts/include-check.sh: the graph has a cycle:");
    CHECK(r.out.empty());
}

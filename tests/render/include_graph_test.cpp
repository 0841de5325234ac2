// scripts/include-graph.py over scripts/render.graph, the include direction ctest checks on this
// tree: it passes a copy of render/ and fails it once one include goes against the graph
// (upwards, the studio-to-cli half of the cycle that was, from story/ into render/, from a folder
// the graph lacks), naming that file, line and edge alone; and it refuses a graph with a cycle.
#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/catch.hpp"
#include "tests/render/cli.hpp"

namespace fs = std::filesystem;
using render_test::q;
using render_test::TempDir;
using render_test::write_text;

namespace {

const fs::path kSource = SHARDREEL_SOURCE_DIR;

render_test::CliRun check(const fs::path& root, const fs::path& graph) {
    return render_test::run_shell("/usr/bin/python3 " + q(kSource / "scripts/include-graph.py") +
                                  " " + q(graph) + " " + q(root));
}

// A copy of render/ and of its graph, with empty engine/ and story/ beside them.
struct Tree {
    TempDir dir;
    fs::path script = dir.path / "scripts/render.graph";
    Tree() {
        fs::copy(kSource / "render", dir.path / "render", fs::copy_options::recursive);
        fs::create_directories(dir.path / "engine");
        fs::create_directories(dir.path / "story");
        fs::create_directories(script.parent_path());
        fs::copy_file(kSource / "scripts/render.graph", script);
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

    // The file written, its include, and how all the check prints begins (the rest of the line
    // lists what the folder may use).
    const std::vector<std::array<std::string, 3>> cases{
        {"render/sys/up.cpp", "render/film/plan.hpp",
         "render/sys/up.cpp:3: includes render/film/plan.hpp, but render/sys may not use "
         "render/film ("},
        {"render/studio/back.cpp", "render/cli/commands.hpp",
         "render/studio/back.cpp:3: includes render/cli/commands.hpp, but render/studio may not "
         "use render/cli ("},
        {"story/drawn.cpp", "render/draw/painter.hpp",
         "story/drawn.cpp:3: includes render/draw/painter.hpp, but story uses nothing of render "
         "(scripts/render.graph)"},
        {"render/extra/new.cpp", "render/sys/files.hpp",
         "render/extra is not in the graph (scripts/render.graph)"},
    };
    for (const auto& [file, include, printed] : cases) {
        INFO(file);
        r = tree.check_with(file, include);
        CHECK(r.exit_code == 1);
        const auto lines = render_test::lines_of(r.out);
        REQUIRE(lines.size() == 1);
        CHECK(lines[0].substr(0, printed.size()) == printed);
        CHECK(lines[0].back() == ')');
    }
}

TEST_CASE("the include check refuses a graph with a cycle", "[architecture]") {
    Tree tree;
    // sys may use film, which uses sys.
    REQUIRE(render_test::run_shell("sed -i 's/^sys:$/sys: film/' " + q(tree.script)).exit_code ==
            0);
    const render_test::CliRun r = check(tree.dir.path, tree.script);
    CHECK(r.exit_code == 1);
    const auto lines = render_test::lines_of(r.out);
    REQUIRE(lines.size() == 1);
    const std::string cycle = "scripts/render.graph: the graph has a cycle: ";
    CHECK(lines[0].substr(0, cycle.size()) == cycle);
    // The cycle as printed, folder by folder: it closes, and goes from sys to film.
    std::vector<std::string> path;
    for (std::size_t at = cycle.size(), next; at != std::string::npos;
         at = next == std::string::npos ? next : next + 4) {
        next = lines[0].find(" -> ", at);
        path.push_back(lines[0].substr(at, next - at));
    }
    REQUIRE(path.size() >= 3);
    CHECK(path.front() == path.back());
    const auto sys = std::find(path.begin(), path.end(), "sys");
    REQUIRE(sys != path.end());
    CHECK(*(sys + 1) == "film");
}

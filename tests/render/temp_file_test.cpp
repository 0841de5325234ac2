// Write-then-rename: the temporary name, commit, and removal when not committed.
#include "render/sys/temp_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "tests/catch.hpp"
#include "tests/render/test_scene.hpp"

namespace fs = std::filesystem;

TEST_CASE("temp file is a hidden sibling, renamed on commit", "[temp]") {
    const std::string dir = render_test::scratch_path("temp-commit");
    fs::create_directories(dir);
    render::TempFile temp(dir + "/out.png");
    const std::string prefix = dir + "/.out.png.tmp-" + std::to_string(::getpid()) + "-";
    CHECK(temp.path().rfind(prefix, 0) == 0);
    CHECK(temp.final_path() == dir + "/out.png");
    std::ofstream(temp.path()) << "pixels";
    temp.commit();
    CHECK_FALSE(fs::exists(temp.path()));
    std::ifstream in(dir + "/out.png");
    std::string content;
    in >> content;
    CHECK(content == "pixels");
}

TEST_CASE("temp files never collide and vanish unless committed", "[temp]") {
    const std::string dir = render_test::scratch_path("temp-drop");
    fs::create_directories(dir);
    std::string kept_path;
    {
        render::TempFile a(dir + "/x.mp4"), b(dir + "/x.mp4");
        CHECK(a.path() != b.path());
        std::ofstream(a.path()) << "partial";
        kept_path = a.path();
        CHECK(fs::exists(kept_path));
    }
    CHECK_FALSE(fs::exists(kept_path));
    CHECK(fs::is_empty(dir));
}

TEST_CASE("committing a temp file that was never written fails with strerror", "[temp]") {
    const std::string dir = render_test::scratch_path("temp-empty");
    fs::create_directories(dir);
    render::TempFile temp(dir + "/y.svg");
    CHECK_THROWS_MATCHES(temp.commit(), render::SystemError,
                         Catch::Matchers::Message("cannot rename " + temp.path() + " to " + dir +
                                                  "/y.svg: No such file or directory"));
}

TEST_CASE("read_file returns every byte: at the file's size, past it, and for /proc", "[temp]") {
    const std::string dir = render_test::scratch_path("read-file");
    fs::create_directories(dir);
    std::string bytes(200'003, '\0');  // more than one 64 KiB block, zeros included
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7919 % 251);
    std::ofstream(dir + "/blob", std::ios::binary) << bytes;
    std::ofstream(dir + "/empty", std::ios::binary).flush();
    std::string error;
    CHECK(render::read_file(dir + "/blob", error) == bytes);
    CHECK(render::read_file(dir + "/empty", error) == "");
    const auto status = render::read_file("/proc/self/status", error);  // sized 0, yet not empty
    REQUIRE(status);
    CHECK(status->rfind("Name:", 0) == 0);
    CHECK_FALSE(render::read_file(dir + "/missing", error));
    CHECK(error == std::strerror(ENOENT));
    CHECK_FALSE(render::read_file(dir, error));
    CHECK(error == std::strerror(EISDIR));
}

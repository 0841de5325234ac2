// Child processes (render/sys/children): replies in any order, failures, workers that serve one
// index after another and are replaced when they die, and each child's own offsets in the files
// it inherited open for reading.
#include "render/sys/children.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "tests/catch.hpp"
#include "tests/render/test_scene.hpp"

namespace {

std::map<std::size_t, std::string> run(std::size_t count, int workers,
                                       const std::function<std::string(std::size_t)>& work,
                                       render::Reuse reuse = render::Reuse::serve_many) {
    std::map<std::size_t, std::string> replies;
    render::run_children(
        count, workers, work, [] { return true; },
        [&](std::size_t i, const std::string& reply) {
            replies[i] = reply;
            return true;
        },
        reuse);
    return replies;
}

}  // namespace

TEST_CASE("each child's reply reaches done(), a throw as a failure reply", "[children]") {
    const auto replies = run(5, 2, [](std::size_t i) -> std::string {
        if (i == 3) throw std::runtime_error("no line three");
        return std::string(1, '\0') + std::to_string(i * i);
    });
    REQUIRE(replies.size() == 5);
    CHECK(replies.at(2) == std::string(1, '\0') + "4");
    CHECK(replies.at(3) == render::failure_reply("no line three"));
}

// Festival's lexicons stay open in the speaker; its lines' children seek and read them at once.
TEST_CASE("children read inherited files at offsets of their own", "[children]") {
    const std::string path = render_test::scratch_path("children-offsets.txt");
    std::ofstream(path) << "0123456789";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    char first[2];
    REQUIRE(read(fd, first, 2) == 2);
    // Child 0 seeks to 5 and reads after child 1 has sought to 8 in the file they inherited.
    const auto replies = run(2, 2, [fd](std::size_t i) {
        const off_t to = i == 0 ? 5 : 8;
        if (lseek(fd, to, SEEK_SET) != to) return render::failure_reply("lseek");
        if (i == 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
        char c = '?';
        if (read(fd, &c, 1) != 1) return render::failure_reply("read");
        return std::string(1, '\0') + c;
    });
    CHECK(replies.at(0) == std::string(1, '\0') + "5");
    CHECK(replies.at(1) == std::string(1, '\0') + "8");
    CHECK(lseek(fd, 0, SEEK_CUR) == 2);  // the parent's offset, where it left it
    CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
    close(fd);
}

TEST_CASE("a worker serves index after index, and one that dies fails its own index only",
          "[children]") {
    const auto replies = run(8, 2, [](std::size_t i) -> std::string {
        if (i == 3) _exit(7);
        return std::string(1, '\0') + std::to_string(getpid());
    });
    REQUIRE(replies.size() == 8);
    CHECK(replies.at(3) == render::failure_reply("the child process exited with status 7 before "
                                                 "its reply was whole"));
    std::set<std::string> workers;
    for (const auto& [i, reply] : replies) {
        if (i != 3) workers.insert(reply);
    }
    // Two workers and the one started in place of the one that died, not a child per index.
    CHECK(workers.size() <= 3);
    CHECK(workers.count(std::string(1, '\0') + std::to_string(getpid())) == 0);
}

TEST_CASE("fresh_per_index gives every index a child of its own", "[children]") {
    const auto replies = run(
        5, 2, [](std::size_t) { return std::string(1, '\0') + std::to_string(getpid()); },
        render::Reuse::fresh_per_index);
    std::set<std::string> children;
    for (const auto& [i, reply] : replies) children.insert(reply);
    CHECK(replies.size() == 5);
    CHECK(children.size() == 5);
}

namespace {

// True once pid has exited (gone, or a zombie nobody reaped yet), waiting up to 5 s.
bool exits(pid_t pid) {
    for (int i = 0; i < 500; ++i) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!std::getline(stat, line)) return true;
        const auto state = line.find(") ");
        if (state != std::string::npos && line[state + 2] == 'Z') return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

}  // namespace

TEST_CASE("a child goes when the process that started it is killed", "[children]") {
    int pipe_fds[2];
    REQUIRE(pipe(pipe_fds) == 0);
    const pid_t parent = fork();
    REQUIRE(parent >= 0);
    if (parent == 0) {  // stands for `render`, speaking
        close(pipe_fds[0]);
        run(1, 1, [&](std::size_t) -> std::string {
            const pid_t me = getpid();
            if (write(pipe_fds[1], &me, sizeof me) != sizeof me) _exit(3);
            std::this_thread::sleep_for(std::chrono::seconds(30));
            return std::string(1, '\0');
        });
        _exit(0);
    }
    close(pipe_fds[1]);
    pid_t child = 0;
    REQUIRE(read(pipe_fds[0], &child, sizeof child) == sizeof child);
    close(pipe_fds[0]);
    kill(parent, SIGKILL);  // a SIGTERM nobody handles ends it alike
    int status = 0;
    waitpid(parent, &status, 0);
    CHECK(exits(child));
}

// Children forked one after another from one thread, their pipes read with poll(); see child.hpp.
#include "render/sys/children.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace render {

namespace {

bool write_all(int fd, const std::string& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

// Gives this process an open file description of its own, at the same offset, for every file
// it has open for reading. A forked child shares its parent's: two children seeking and reading
// one file at once read at each other's offsets (the speaker keeps Festival's lexicons open, and
// its lines' children read words that were not theirs, about one line in 200).
void own_file_offsets() {
    std::vector<int> fds;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
        fds.push_back(std::stoi(entry.path().filename().string()));
    for (const int fd : fds) {
        struct stat st {};
        const int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) != O_RDONLY || fstat(fd, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;  // the directory listing's own, pipes, sockets, files open for writing
        const off_t at = lseek(fd, 0, SEEK_CUR);
        const int fresh = open(("/proc/self/fd/" + std::to_string(fd)).c_str(), flags);
        if (fresh < 0 || lseek(fresh, at, SEEK_SET) != at ||
            dup3(fresh, fd, (fcntl(fd, F_GETFD) & FD_CLOEXEC) ? O_CLOEXEC : 0) < 0)
            throw std::system_error(errno, std::generic_category(),
                                    "cannot reopen file descriptor " + std::to_string(fd));
        close(fresh);
    }
}

[[noreturn]] void run_child(int fd, const ChildWork& work) {
    std::string reply;
    try {
        own_file_offsets();
        reply = work();
    } catch (const std::exception& e) {
        reply = failure_reply(e.what());
    }
    _exit(write_all(fd, reply) ? 0 : 1);  // no atexit handlers, no flushing the parent's buffers
}

int reap(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// How a child that gave no whole reply ended.
std::string ending(int status) {
    if (WIFSIGNALED(status))
        return "the child process was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    return "the child process exited with status " + std::to_string(WEXITSTATUS(status)) +
           " before its reply was whole";
}

struct Child {
    std::size_t index;
    pid_t pid;
    int fd;
    std::string reply;
};

// The children running; those left when it goes (a stop, an exception) are killed and reaped.
class Children {
  public:
    Children() = default;
    Children(const Children&) = delete;
    Children& operator=(const Children&) = delete;
    ~Children() {
        for (const Child& c : running_) {
            kill(c.pid, SIGKILL);
            close(c.fd);
            reap(c.pid);
        }
    }

    std::size_t size() const { return running_.size(); }

    void start(std::size_t index, const ChildWork& work) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0)
            throw std::system_error(errno, std::generic_category(), "cannot make a pipe");
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            run_child(fds[1], work);
        }
        const int fork_error = errno;
        close(fds[1]);  // the child's end: its exit is our EOF
        if (pid < 0) {
            close(fds[0]);
            throw std::system_error(fork_error, std::generic_category(),
                                    "cannot start a child process");
        }
        running_.push_back({index, pid, fds[0], {}});
    }

    // Reads what is there within timeout_ms; returns the children that finished, reaped.
    std::vector<Child> collect(int timeout_ms) {
        std::vector<pollfd> polls;
        for (const Child& c : running_) polls.push_back({c.fd, POLLIN, 0});
        if (poll(polls.data(), polls.size(), timeout_ms) < 0 && errno != EINTR)
            throw std::system_error(errno, std::generic_category(),
                                    "cannot wait for a child process");
        std::vector<Child> finished;
        std::vector<Child> still;
        for (std::size_t i = 0; i < running_.size(); ++i) {
            Child& c = running_[i];
            if (polls[i].revents == 0 || read_some(c)) {
                still.push_back(std::move(c));
                continue;
            }
            close(c.fd);
            const int status = reap(c.pid);
            const bool whole = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !c.reply.empty();
            if (!whole) c.reply = failure_reply(ending(status));
            finished.push_back(std::move(c));
        }
        running_ = std::move(still);
        return finished;
    }

  private:
    // Appends one read's worth of what poll found; false at the pipe's end.
    static bool read_some(Child& c) {
        char buffer[1 << 16];
        ssize_t n;
        while ((n = read(c.fd, buffer, sizeof buffer)) < 0 && errno == EINTR) {
        }
        if (n <= 0) return false;
        c.reply.append(buffer, static_cast<std::size_t>(n));
        return true;
    }

    std::vector<Child> running_;
};

}  // namespace

std::string failure_reply(const std::string& message) { return std::string(1, '\1') + message; }

void run_children(std::size_t count, int workers,
                  const std::function<ChildWork(std::size_t)>& prepare,
                  const std::function<bool()>& keep_going,
                  const std::function<bool(std::size_t, const std::string&)>& done) {
    Children children;
    const std::size_t most = workers > 0 ? static_cast<std::size_t>(workers) : 1;
    for (std::size_t next = 0; next < count || children.size() > 0;) {
        if (!keep_going()) return;
        for (; next < count && children.size() < most; ++next) children.start(next, prepare(next));
        for (const Child& c : children.collect(100)) {
            if (!done(c.index, c.reply)) return;
        }
    }
}

}  // namespace render

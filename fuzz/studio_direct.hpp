// The studio's pages without a socket, for fuzz_studio and its regression test: a request's bytes
// go through cpp-httplib's own parsing (Server::process_request, over a stream in memory) to the
// routes Studio::routes registers, and the reply's bytes come back.
#pragma once
#include <httplib.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace fuzz {

// A connection in memory: reads the request, keeps what is written. Like a client that goes away
// after the first chunk of a stream, it stops being writable once the headers and one chunk are
// written (an event stream would otherwise wait 15 s for the next event).
class MemoryStream final : public httplib::Stream {
  public:
    explicit MemoryStream(std::string request) : in_(std::move(request)) {}
    bool is_readable() const override { return true; }
    bool is_writable() const override { return writes_ < 2; }
    ssize_t read(char* ptr, std::size_t size) override {
        const std::size_t n = std::min(size, in_.size() - at_);
        std::memcpy(ptr, in_.data() + at_, n);
        at_ += n;
        return static_cast<ssize_t>(n);
    }
    ssize_t write(const char* ptr, std::size_t size) override {
        out_.append(ptr, size);
        ++writes_;
        return static_cast<ssize_t>(size);
    }
    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        ip = "127.0.0.1";
        port = 50000;
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        ip = "127.0.0.1";
        port = 8640;
    }
    socket_t socket() const override { return INVALID_SOCKET; }
    const std::string& written() const { return out_; }

  private:
    std::string in_, out_;
    std::size_t at_ = 0;
    int writes_ = 0;
};

// An httplib server whose requests come from memory, one per call.
class DirectServer final : public httplib::Server {
  public:
    // The reply's bytes (status line, headers, body) to one request's bytes; empty when httplib
    // answers nothing (a request line too long to read).
    std::string answer(std::string request) {
        MemoryStream stream(std::move(request));
        bool closed = false;
        process(*this, stream, closed);
        return stream.written();
    }

  private:
    // cpp-httplib 0.11 (Debian 12) takes the stream alone; 0.18 (Debian 13) the addresses too.
    template <class Self>
    static void process(Self& self, MemoryStream& stream, bool& closed) {
        const auto setup = [](httplib::Request&) {};
        if constexpr (requires { self.process_request(stream, true, closed, setup); })
            self.process_request(stream, true, closed, setup);
        else
            self.process_request(stream, "127.0.0.1", 0, "127.0.0.1", 0, true, closed, setup);
    }
};

}  // namespace fuzz

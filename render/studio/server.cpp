// The studio's server; see server.hpp. cpp-httplib (Debian's libcpp-httplib) parses HTTP and runs
// each connection on a pool thread; a watcher thread reloads the storyboard when it changes and
// wakes the event streams.
#include "render/studio/server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <iostream>
#include <thread>

#include "render/inputs/storyboard_inputs.hpp"
#include "render/studio/studio.hpp"
#include "render/sys/cancel.hpp"

namespace render {
namespace {

constexpr int kPool = 32;  // connections served at once (event streams hold one)

bool loopback(const std::string& host) {
    return host == "127.0.0.1" || host == "localhost" || host == "::1";
}

}  // namespace

int run_studio(const StudioOptions& options, std::ostream& out, std::ostream& err) {
    if (!options.size.empty()) {
        story::Video v;
        if (auto bad = resolve_video({}, {"", options.size, 0}, v)) {
            err << "shardreel: error: --size: " << *bad << "\n";
            return 2;
        }
    }
    if (!options.cache.empty()) speech_cache() = options.cache;
    const Fonts fonts(default_font_dir());
    Studio studio(options, fonts);
    if (!studio.load()) err << studio.source().state().errors;  // served, not fatal: fix, save

    httplib::Server svr;
    svr.new_task_queue = [] { return new httplib::ThreadPool(kPool); };
    // httplib's default also sets SO_REUSEPORT, which lets a second studio bind the same port
    // and take half its connections: only SO_REUSEADDR (a restart may reuse the port at once).
    svr.set_socket_options([](socket_t sock) {
        const int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    svr.set_tcp_nodelay(true);  // small replies and events go out at once, not after 40 ms
    // A pool thread holds an idle keep-alive connection this long: a short wait frees threads
    // for new clients and lets Ctrl-C end the server within a second.
    svr.set_keep_alive_timeout(1);
    studio.routes(svr);
    const int port = options.port == 0
                         ? svr.bind_to_any_port(options.host)
                         : (svr.bind_to_port(options.host, options.port) ? options.port : -1);
    if (port < 0) {
        err << "shardreel: error: cannot listen on " << options.host << ":" << options.port
            << " (in use, or not an address of this machine); try --port 0 for any free port\n";
        return 1;
    }
    studio.answer_hosts(HostCheck(options.host, port, options.allowed_hosts));
    if (!loopback(options.host))
        err << "shardreel: warning: listening on " << options.host
            << ": anyone who can reach this machine can read the storyboard's film (requests "
               "are answered for its own addresses and --allow-host names only)\n";
    const std::string host =
        options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
    out << "shardreel studio: http://" << host << ":" << port << "/ (Ctrl-C stops)" << std::endl;

    install_interrupt_handlers();
    std::thread watcher([&] { studio.watch(process_token(), svr); });
    svr.listen_after_bind();
    process_token().cancel(StopReason::failure);  // listen ended on its own: stop the watcher
    watcher.join();
    err << "\nshardreel: studio stopped\n";
    return process_token().reason() == StopReason::signal ? 130 : 1;
}

}  // namespace render

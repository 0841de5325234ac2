// Which requests the studio answers, by their Host header. A web page the author visits can
// reach a server on 127.0.0.1 through DNS rebinding: its own name re-pointed at 127.0.0.1, the
// page is same-origin with the studio and reads its film, frames and sound. So, as Vite's
// allowedHosts, webpack-dev-server and Jupyter do, only a Host naming the studio's own address
// and port is answered: 127.0.0.1, localhost or [::1]; with --host H, H too (and, for 0.0.0.0 or
// ::, the machine's own addresses); and each --allow-host name. Anything else, or no Host, gets
// a 403 with the reason.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace render {

class HostCheck {
  public:
    // The studio listening on host:port, with the names --allow-host adds.
    HostCheck(const std::string& host, int port, const std::vector<std::string>& allowed);

    // nullopt: answer the request whose Host header is `header` (`present` false: it has
    // none); else why not, one line.
    std::optional<std::string> refuse(bool present, const std::string& header) const;

  private:
    std::vector<std::string> names_;  // lower case, IPv6 addresses in brackets
    int port_;
};

// The machine's own addresses (IPv4 and IPv6, as getifaddrs lists them, without a zone).
std::vector<std::string> own_addresses();

}  // namespace render

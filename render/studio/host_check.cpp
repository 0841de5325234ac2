// Which Host headers the studio answers; see host_check.hpp.
#include "render/studio/host_check.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <algorithm>
#include <cctype>

namespace render {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A name as a Host header writes it: IPv6 addresses in brackets.
std::string bracketed(const std::string& name) {
    return name.find(':') != std::string::npos && name.front() != '[' ? "[" + name + "]" : name;
}

bool any_address(const std::string& host) { return host == "0.0.0.0" || host == "::"; }

}  // namespace

HostCheck::HostCheck(const std::string& host, int port, const std::vector<std::string>& allowed)
    : port_(port) {
    names_ = {"127.0.0.1", "localhost", "[::1]"};
    if (any_address(host)) {
        for (const std::string& a : own_addresses()) names_.push_back(bracketed(a));
    } else {
        names_.push_back(bracketed(lower(host)));
    }
    for (const std::string& a : allowed) names_.push_back(bracketed(lower(a)));
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
}

std::optional<std::string> HostCheck::refuse(bool present, const std::string& header) const {
    if (!present) return "the request has no Host header";
    const std::string host = lower(header);
    // name:port, the name an IPv6 address in brackets; no port is HTTP's 80.
    const std::size_t colon = host.rfind(':');
    const bool has_port = colon != std::string::npos && host.find(']', colon) == std::string::npos;
    const std::string name = has_port ? host.substr(0, colon) : host;
    const std::string port = has_port ? host.substr(colon + 1) : "80";
    const bool known = std::find(names_.begin(), names_.end(), name) != names_.end();
    if (known && port == std::to_string(port_)) return std::nullopt;
    return "the studio answers only requests for its own address (Host " + header +
           " is not one of " + std::to_string(names_.size()) + " names on port " +
           std::to_string(port_) + "; --allow-host NAME adds one)";
}

std::vector<std::string> own_addresses() {
    std::vector<std::string> out;
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return out;
    for (const ifaddrs* a = list; a; a = a->ifa_next) {
        if (!a->ifa_addr) continue;
        char text[INET6_ADDRSTRLEN] = {};
        const int family = a->ifa_addr->sa_family;
        const void* bytes =
            family == AF_INET ? static_cast<const void*>(
                                    &reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr)
            : family == AF_INET6
                ? static_cast<const void*>(
                      &reinterpret_cast<const sockaddr_in6*>(a->ifa_addr)->sin6_addr)
                : nullptr;
        if (bytes && inet_ntop(family, bytes, text, sizeof text)) out.push_back(text);
    }
    freeifaddrs(list);
    return out;
}

}  // namespace render

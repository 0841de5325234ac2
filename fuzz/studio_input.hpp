// What fuzz_studio does with its bytes, shared with its regression test: a studio of
// tests/storyboards/good/explore.yaml (three chapters, one explored, no sound), its routes on a
// server answered from memory. Bytes that start with '/' are a request target ("/frame.png?at=
// bubble@2s&size=320x180"), sent as a GET with the studio's own Host; anything else is sent as
// the whole request, headers and all.
#pragma once
#include <string>

#include "fuzz/studio_direct.hpp"
#include "render/draw/fonts.hpp"
#include "render/studio/studio.hpp"

namespace fuzz {

class StudioInput {
  public:
    StudioInput()
        : fonts_(render::default_font_dir()),
          studio_({SHARDREEL_SOURCE_DIR "/tests/storyboards/good/explore.yaml"}, fonts_) {
        if (!studio_.load()) __builtin_trap();
        studio_.answer_hosts(render::HostCheck("127.0.0.1", 8640, {}));
        studio_.routes(server_);
    }

    // The reply's bytes.
    std::string answer(const std::string& bytes) {
        if (bytes.empty() || bytes[0] != '/') return server_.answer(bytes);
        return server_.answer("GET " + bytes + " HTTP/1.1\r\nHost: 127.0.0.1:8640\r\n\r\n");
    }

    // A reply's status, 0 when it has no status line.
    static int status(const std::string& reply) {
        if (reply.size() < 12 || reply.compare(0, 9, "HTTP/1.1 ") != 0) return 0;
        return std::stoi(reply.substr(9, 3));
    }

  private:
    render::Fonts fonts_;
    render::Studio studio_;
    DirectServer server_;
};

}  // namespace fuzz

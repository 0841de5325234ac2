// `shardreel studio`: a local web server with a live preview of one storyboard. It serves its own
// page, the frame at any moment (the PNG `still` writes), the timeline as JSON, the cost model's
// figures of a moment, full-size stills to save, and a Server-Sent Events stream that announces
// every reload of the storyboard. It serves no file from disk.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "render/inputs/video_options.hpp"

namespace render {

struct StudioOptions {
    std::string storyboard;
    std::string host = "127.0.0.1";
    int port = 8640;    // 0: any free port (the URL printed says which)
    std::string size;   // preview WxH; empty: the film's size fitted into 960x540
    std::string cache;  // spoken lines and sound segments; empty: out/cache
    std::string lang;   // the film's language (a canonical tag); empty: the storyboard's own
    std::vector<std::string> allowed_hosts;  // --allow-host: Host names answered besides its own
};

// Serves until SIGINT/SIGTERM: 130 then, 1 if the address cannot be bound, 2 for bad options.
// Prints the URL on out once listening, warnings and errors on err.
int run_studio(const StudioOptions& options, std::ostream& out, std::ostream& err);

}  // namespace render

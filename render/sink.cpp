// Picks the sink for an output path by its extension.
#include "render/sink.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "render/error.hpp"
#include "render/sinks/mp4_sink.hpp"
#include "render/sinks/still_sinks.hpp"

namespace render {

std::unique_ptr<FrameSink> make_sink(const std::string& path, const Fonts& fonts) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".png") return std::make_unique<PngSink>(fonts);
    if (ext == ".svg") return std::make_unique<SvgSink>(fonts);
    if (ext == ".pdf") return std::make_unique<PdfSink>(fonts);
    if (ext == ".mp4") return std::make_unique<Mp4Sink>(fonts);
    throw SystemError("unsupported output " + path + ": use .mp4, .png, .svg or .pdf");
}

}  // namespace render

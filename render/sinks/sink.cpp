// Picks the sink for an output path by its extension.
#include "render/sinks/sink.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "render/av/gif_sink.hpp"
#include "render/av/mp4_sink.hpp"
#include "render/av/webm_sink.hpp"
#include "render/sinks/png_sequence_sink.hpp"
#include "render/sinks/still_sinks.hpp"
#include "render/sys/error.hpp"

namespace render {

std::unique_ptr<FrameSink> make_sink(const std::string& path, const Fonts& fonts) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const bool sequence =
        std::filesystem::path(path).filename().string().find('%') != std::string::npos;
    if (ext == ".png" && sequence) return std::make_unique<PngSequenceSink>(fonts);
    if (ext == ".png") return std::make_unique<PngSink>(fonts);
    if (ext == ".svg") return std::make_unique<SvgSink>(fonts);
    if (ext == ".pdf") return std::make_unique<PdfSink>(fonts);
    if (ext == ".mp4") return std::make_unique<Mp4Sink>(fonts);
    if (ext == ".webm") return std::make_unique<WebmSink>(fonts);
    if (ext == ".gif") return std::make_unique<GifSink>(fonts);
    throw SystemError("unsupported output " + path +
                      ": use .mp4, .webm, .gif, .png, a PNG sequence such as frames/%05d.png, .svg "
                      "or .pdf");
}

}  // namespace render

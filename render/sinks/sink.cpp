// Picks the still or image-sequence sink for an output path by its extension (no libav here:
// video sinks are render/sinks/video/make_sink).
#include "render/sinks/sink.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "render/sinks/png_sequence_sink.hpp"
#include "render/sinks/still_sinks.hpp"

namespace render {

std::string lowercase_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::unique_ptr<FrameSink> make_still_sink(const std::string& path, const Fonts& fonts) {
    const std::string ext = lowercase_extension(path);
    const bool sequence =
        std::filesystem::path(path).filename().string().find('%') != std::string::npos;
    if (ext == ".png" && sequence) return std::make_unique<PngSequenceSink>(fonts);
    if (ext == ".png") return std::make_unique<PngSink>(fonts);
    if (ext == ".svg") return std::make_unique<SvgSink>(fonts);
    if (ext == ".pdf") return std::make_unique<PdfSink>(fonts);
    return nullptr;
}

}  // namespace render

// PngSequenceSink: each frame through a PngSink into the temporary directory; see the header.
#include "render/sinks/png_sequence_sink.hpp"

#include <cstdio>
#include <filesystem>
#include <regex>

#include "render/sinks/still_sinks.hpp"
#include "render/sys/error.hpp"
#include "render/sys/temp_dir.hpp"

namespace render {
namespace fs = std::filesystem;

std::optional<FramePattern> parse_frame_pattern(const std::string& path) {
    static const std::regex shape(R"(([^%]*)%(0[1-9])?d([^%]*\.[pP][nN][gG]))");
    const fs::path p(path);
    std::smatch m;
    const std::string file = p.filename().string();
    if (p.parent_path().string().find('%') != std::string::npos) return std::nullopt;
    if (!std::regex_match(file, m, shape)) return std::nullopt;
    // The directory is replaced as a whole, so it must be named (never the working directory).
    const fs::path dir = p.parent_path().lexically_normal();
    if (dir.empty() || dir == "." || dir == ".." || dir == dir.root_path()) return std::nullopt;
    FramePattern pattern{dir.string(), m.str(1), m.str(3), 0};
    if (m[2].matched) pattern.width = std::stoi(m.str(2));
    return pattern;
}

std::string FramePattern::name(long long frame) const {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%0*lld", width, frame);
    return prefix + digits + suffix;
}

std::string FramePattern::text() const {
    return prefix + (width > 0 ? "%0" + std::to_string(width) + "d" : std::string("%d")) + suffix;
}

bool FramePattern::matches(const std::string& file_name) const {
    if (file_name.size() <= prefix.size() + suffix.size()) return false;
    if (file_name.compare(0, prefix.size(), prefix) != 0) return false;
    if (!file_name.ends_with(suffix)) return false;
    const std::string digits =
        file_name.substr(prefix.size(), file_name.size() - prefix.size() - suffix.size());
    return digits.find_first_not_of("0123456789") == std::string::npos;
}

namespace {

// What a directory of an earlier render may hold besides frames: captions written beside it.
bool replaceable(const FramePattern& pattern, const fs::directory_entry& entry) {
    const std::string name = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    return entry.is_regular_file() && (pattern.matches(name) || ext == ".vtt" || ext == ".srt");
}

void check_replaceable(const FramePattern& pattern) {
    std::error_code ec;
    if (!fs::exists(pattern.dir, ec)) return;
    if (!fs::is_directory(pattern.dir, ec))
        throw SystemError("cannot write frames into " + pattern.dir + ": not a directory");
    for (const auto& entry : fs::directory_iterator(pattern.dir, ec)) {
        if (!replaceable(pattern, entry))
            throw SystemError("refusing to replace " + pattern.dir + ": it holds " +
                              entry.path().filename().string() + ", which is not a frame of " +
                              pattern.text() + " (choose an empty or new directory)");
    }
    if (ec) throw SystemError("cannot read " + pattern.dir + ": " + ec.message());
}

}  // namespace

struct PngSequenceSink::Sequence {
    OutputSpec spec;
    FramePattern pattern;
    TempDir temp;
    PngSink png;  // after temp, so it is gone (no file of temp open) before temp is removed
    long long next = 0;

    Sequence(const OutputSpec& s, const FramePattern& p, const Fonts& fonts)
        : spec(s), pattern(p), temp(p.dir), png(fonts) {}

    void write(const story::Scene& scene) {
        OutputSpec frame = spec;
        frame.path = (fs::path(temp.path()) / pattern.name(next++)).string();
        png.begin(frame);
        png.write(scene);
        png.finish();
    }

    void finish() { temp.commit(); }
};

PngSequenceSink::PngSequenceSink(const Fonts& fonts)
    : fonts_(fonts), sequence_("PngSequenceSink") {}

PngSequenceSink::~PngSequenceSink() { abort(); }

void PngSequenceSink::begin(const OutputSpec& spec) {
    abort();
    auto pattern = parse_frame_pattern(spec.path);
    if (!pattern)
        throw SystemError(
            "cannot write a PNG sequence to " + spec.path +
            ": expected a directory and a frame number pattern, such as out/frames/%05d.png");
    check_replaceable(*pattern);
    sequence_.open(spec, *pattern, fonts_);
}

void PngSequenceSink::write(const story::Scene& scene) { sequence_.get("write").write(scene); }

void PngSequenceSink::finish() { sequence_.finish(); }

void PngSequenceSink::abort() noexcept { sequence_.abort(); }

}  // namespace render

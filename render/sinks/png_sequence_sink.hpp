// A PNG image sequence: `-o out/frames/%05d.png` writes frame 0 of the film as
// out/frames/00000.png, frame 1 as 00001.png, ... The directory holds the sequence alone: it is
// filled as a hidden temporary directory and replaces out/frames/ on finish.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "render/draw/fonts.hpp"
#include "render/sinks/sink.hpp"
#include "render/sinks/sink_output.hpp"

namespace render {

// The parts of "DIR/PREFIX%0Nd.png" (one %d or %0Nd, no other '%'), or nullopt.
struct FramePattern {
    std::string dir, prefix, suffix;
    int width = 0;                            // zero padding; 0 for plain %d
    std::string name(long long frame) const;  // "PREFIX00042.png"
    std::string text() const;                 // "PREFIX%05d.png", for messages
    bool matches(const std::string& file_name) const;
};
std::optional<FramePattern> parse_frame_pattern(const std::string& path);

class PngSequenceSink final : public FrameSink {
  public:
    explicit PngSequenceSink(const Fonts& fonts);
    ~PngSequenceSink() override;

    // Throws SystemError when the directory exists and holds anything but an earlier sequence
    // of the same pattern (or its .vtt/.srt captions): it is never replaced by surprise.
    void begin(const OutputSpec& spec) override;
    void write(const story::Scene& scene) override;
    void finish() override;
    void abort() noexcept override;

  private:
    struct Sequence;  // the temporary directory and the frames written into it
    const Fonts& fonts_;
    SinkOutput<Sequence> sequence_;
};

}  // namespace render

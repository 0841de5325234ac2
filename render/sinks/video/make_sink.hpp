// Any output's sink by extension, videos included: the one factory of the video module (the
// still-only commands use sinks/sink.hpp's make_still_sink and never load libav).
#pragma once
#include <memory>
#include <string>

#include "render/sinks/sink.hpp"
#include "render/sound/audio_mix.hpp"

namespace render {

// .mp4, .webm, .gif, or what make_still_sink takes (.png, .svg, .pdf, a PNG sequence such as
// out/frames/%05d.png). Throws SystemError for an unknown extension. A WebM carries `sound` (if
// given; it must outlive the sink) as Opus; the other formats have no sound.
std::unique_ptr<FrameSink> make_sink(const std::string& path, const Fonts& fonts,
                                     const FilmAudio* sound = nullptr);

}  // namespace render

// Sound files: a MixWindow through an AudioEncoder into a bit-exact one-stream muxer.
#include "render/sound/sound_file.hpp"

#include <new>

namespace render {

void encode_sound(const FilmAudio& audio, std::int64_t from, std::int64_t to,
                  const AudioCodecSetup& setup, const char* muxer, const TempFile& file,
                  const std::function<bool(AVPacket*)>& keep, const CancelToken* cancel) {
    OutputContextPtr output = open_output(file, muxer);
    AVStream* stream = nullptr;
    const bool global_header = output->oformat->flags & AVFMT_GLOBALHEADER;
    AudioEncoder encoder(setup, global_header, [&](AVPacket* packet) {
        if (!keep(packet)) return;
        av_packet_rescale_ts(packet, AVRational{1, kAudioRate}, stream->time_base);
        packet->stream_index = stream->index;
        write_packet(output.get(), packet, file);
    });
    stream = avformat_new_stream(output.get(), nullptr);
    if (!stream) throw std::bad_alloc();
    av_check(avcodec_parameters_from_context(stream->codecpar, &encoder.context()),
             "cannot copy the " + setup.encoder + " parameters");
    stream->codecpar->initial_padding = 0;  // a film's edit list cuts the priming, once
    stream->time_base = AVRational{1, kAudioRate};
    write_header(output.get(), file, std::string(muxer) == "mp4" ? kMp4Options : MuxerOptions{});
    MixWindow(audio, from, to)
        .drain([&](const float* pcm, std::size_t frames) { encoder.push(pcm, frames); }, cancel);
    encoder.finish();
    finish_output(output, file);
}

void write_wav(const FilmAudio& audio, const TempFile& file, const CancelToken* cancel) {
    encode_sound(
        audio, 0, audio.samples(), wav_setup(), "wav", file, [](AVPacket*) { return true; },
        cancel);
}

}  // namespace render

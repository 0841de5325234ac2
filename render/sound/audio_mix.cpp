// MixWindow: the two stems built a block at a time on the film's sample clock (clips summed into
// the voice stem, the music read, levelled and faded), then one libavfilter graph ducks, sums and
// limits them; the warm-up before the window is mixed and dropped.
#include "render/sound/audio_mix.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <sstream>

extern "C" {
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
}

#include "render/av/av.hpp"
#include "render/sys/cancel.hpp"
#include "render/sys/error.hpp"

namespace render {

std::int64_t film_sample(std::int64_t frame, int fps) {
    return (2 * frame * kAudioRate + fps) / (2 * static_cast<std::int64_t>(fps));
}

namespace {

// Ducking: voice at -16 LUFS sits about 15 dB over the threshold, so the music drops by about
// 12 dB within 5 ms of a word and comes back over about a second after the last one.
struct MixSettings {
    double duck_threshold = 0.02, duck_ratio = 6, duck_attack_ms = 5, duck_release_ms = 400;
    double limit = 0.7943;  // -2 dBFS
    double limit_attack_ms = 5, limit_release_ms = 50;
    double fade_in_seconds = 1, fade_out_seconds = 2;
    double warmup_seconds = 2;  // five of the compressor's release times
};
constexpr MixSettings kMix;

constexpr std::size_t kBlock = 4096;  // frames handed to the graph at a time

std::string graph_description() {
    std::ostringstream g;
    g << "[voice]asplit=2[v][sc];"
      << "[music][sc]sidechaincompress=threshold=" << kMix.duck_threshold
      << ":ratio=" << kMix.duck_ratio << ":attack=" << kMix.duck_attack_ms
      << ":release=" << kMix.duck_release_ms << ":link=maximum[ducked];"
      << "[v][ducked]amix=inputs=2:normalize=0:duration=longest,"
      << "alimiter=limit=" << kMix.limit << ":attack=" << kMix.limit_attack_ms
      << ":release=" << kMix.limit_release_ms << ":level=0:latency=1,"
      << "aformat=sample_fmts=flt:channel_layouts=stereo[out]";
    return g.str();
}

struct GraphDeleter {
    void operator()(AVFilterGraph* g) const { avfilter_graph_free(&g); }
};

// The filter graph: two stereo float sources (voice, music) in, the mix out, one thread.
class MixGraph {
  public:
    MixGraph() : graph_(avfilter_graph_alloc()) {
        if (!graph_) throw std::bad_alloc();
        graph_->nb_threads = 1;
        voice_ = source("voice");
        music_ = source("music");
        av_check(avfilter_graph_create_filter(&sink_, avfilter_get_by_name("abuffersink"), "out",
                                              nullptr, nullptr, graph_.get()),
                 "cannot create the mixer's output");
        AVFilterInOut* outputs = link("voice", voice_, link("music", music_, nullptr));
        AVFilterInOut* inputs = link("out", sink_, nullptr);
        const int ret = avfilter_graph_parse_ptr(graph_.get(), graph_description().c_str(), &inputs,
                                                 &outputs, nullptr);
        avfilter_inout_free(&inputs);
        avfilter_inout_free(&outputs);
        av_check(ret, "cannot build the mixer");
        av_check(avfilter_graph_config(graph_.get(), nullptr), "cannot configure the mixer");
    }

    void push(const float* voice, const float* music, std::size_t frames, std::int64_t pts) {
        add(voice_, voice, frames, pts);
        add(music_, music, frames, pts);
    }
    void finish() {
        av_check(av_buffersrc_add_frame(voice_, nullptr), "cannot end the mix");
        av_check(av_buffersrc_add_frame(music_, nullptr), "cannot end the mix");
    }
    // Appends what the graph has produced to out; false once it has produced everything.
    bool pull(std::vector<float>& out) {
        for (;;) {
            const int ret = av_buffersink_get_frame(sink_, frame_.get());
            if (ret == AVERROR(EAGAIN)) return true;
            if (ret == AVERROR_EOF) return false;
            av_check(ret, "cannot mix");
            const auto* data = reinterpret_cast<const float*>(frame_->data[0]);
            out.insert(out.end(), data, data + 2 * static_cast<std::size_t>(frame_->nb_samples));
            av_frame_unref(frame_.get());
        }
    }

  private:
    AVFilterContext* source(const char* name) {
        AVFilterContext* ctx = nullptr;
        const std::string args = "time_base=1/" + std::to_string(kAudioRate) +
                                 ":sample_rate=" + std::to_string(kAudioRate) +
                                 ":sample_fmt=flt:channel_layout=stereo";
        av_check(avfilter_graph_create_filter(&ctx, avfilter_get_by_name("abuffer"), name,
                                              args.c_str(), nullptr, graph_.get()),
                 "cannot create the mixer's input");
        return ctx;
    }
    static AVFilterInOut* link(const char* name, AVFilterContext* ctx, AVFilterInOut* next) {
        AVFilterInOut* io = avfilter_inout_alloc();
        if (!io) throw std::bad_alloc();
        io->name = av_strdup(name);
        io->filter_ctx = ctx;
        io->pad_idx = 0;
        io->next = next;
        return io;
    }
    void add(AVFilterContext* src, const float* pcm, std::size_t frames, std::int64_t pts) {
        AvFramePtr f = make_frame();
        f->format = AV_SAMPLE_FMT_FLT;
        f->sample_rate = kAudioRate;
        f->nb_samples = static_cast<int>(frames);
        const AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
        av_check(av_channel_layout_copy(&f->ch_layout, &stereo), "cannot mix");
        av_check(av_frame_get_buffer(f.get(), 0), "cannot allocate a mixer frame");
        std::memcpy(f->data[0], pcm, frames * 2 * sizeof(float));
        f->pts = pts;
        av_check(av_buffersrc_add_frame(src, f.get()), "cannot mix");
    }

    std::unique_ptr<AVFilterGraph, GraphDeleter> graph_;
    AVFilterContext *voice_ = nullptr, *music_ = nullptr, *sink_ = nullptr;
    AvFramePtr frame_ = make_frame();
};

// A clip being played: its reader already at the block's first sample.
struct Playing {
    const AudioClip* clip;
    std::unique_ptr<AudioReader> reader;
};

}  // namespace

std::string mix_settings() {
    std::ostringstream s;
    s << graph_description() << " fade_in=" << kMix.fade_in_seconds
      << " fade_out=" << kMix.fade_out_seconds << " warmup=" << kMix.warmup_seconds;
    return s.str();
}

std::int64_t fade_out_start(std::int64_t film_samples) {
    return film_samples - static_cast<std::int64_t>(kMix.fade_out_seconds * kAudioRate);
}

std::int64_t window_warmup(std::int64_t from) {
    return std::max<std::int64_t>(
        0, from - static_cast<std::int64_t>(kMix.warmup_seconds * kAudioRate));
}

struct MixWindow::Impl {
    std::int64_t film_samples, next, to;
    std::vector<AudioClip> clips;  // those sounding in [warm-up, to), by start
    std::size_t next_clip = 0;
    std::vector<Playing> playing;
    std::optional<AudioReader> music;
    double music_gain;
    MixGraph graph;
    std::vector<float> voice, bed, scratch, out;
    std::size_t out_pos = 0;
    std::int64_t drop, left;  // output frames still to drop (warm-up), to deliver
    bool ended = false, drained = false;

    Impl(const FilmAudio& audio, std::int64_t from, std::int64_t to_)
        : film_samples(audio.samples()),
          next(window_warmup(from)),
          to(to_),
          music_gain(std::pow(10.0, audio.music.level_db / 20)),
          voice(2 * kBlock),
          bed(2 * kBlock),
          scratch(2 * kBlock),
          drop(from - next),
          left(to_ - from) {
        for (const AudioClip& c : audio.clips)
            if (c.frames > 0 && c.start < to && c.start + c.frames > next) clips.push_back(c);
        std::stable_sort(clips.begin(), clips.end(),
                         [](const AudioClip& a, const AudioClip& b) { return a.start < b.start; });
        if (!audio.music.path.empty()) {
            music.emplace(audio.music.path, 2);
            music->skip(next);
        }
    }

    // The fades' gain at film sample s: linear ramps on the film's clock, so every window that
    // holds a sample gives it the same gain.
    double fade(std::int64_t s) const {
        const double in = static_cast<double>(s) / (kMix.fade_in_seconds * kAudioRate);
        const double out =
            static_cast<double>(film_samples - s) / (kMix.fade_out_seconds * kAudioRate);
        return std::clamp(std::min(in, out), 0.0, 1.0);
    }

    void fill_voice(std::int64_t t, std::size_t n) {
        std::fill(voice.begin(), voice.end(), 0.0f);
        const std::int64_t end = t + static_cast<std::int64_t>(n);
        for (; next_clip < clips.size() && clips[next_clip].start < end; ++next_clip) {
            const AudioClip& c = clips[next_clip];
            Playing p{&c, std::make_unique<AudioReader>(c.path, 2)};
            if (c.start < t) p.reader->skip(t - c.start);
            playing.push_back(std::move(p));
        }
        std::erase_if(playing, [&](Playing& p) {
            const std::int64_t s = std::max(t, p.clip->start);
            const std::int64_t e = std::min(end, p.clip->start + p.clip->frames);
            const auto frames = static_cast<std::size_t>(e - s);
            const std::size_t got = p.reader->read(scratch.data(), frames);
            float* dst = voice.data() + 2 * (s - t);
            for (std::size_t i = 0; i < 2 * got; ++i) dst[i] += scratch[i];
            return e == p.clip->start + p.clip->frames || got < frames;
        });
    }

    void fill_music(std::int64_t t, std::size_t n) {
        std::fill(bed.begin(), bed.end(), 0.0f);
        if (!music) return;
        const std::size_t got = music->read(bed.data(), n);
        for (std::size_t i = 0; i < got; ++i) {
            const auto g = static_cast<float>(music_gain * fade(t + static_cast<std::int64_t>(i)));
            bed[2 * i] *= g;
            bed[2 * i + 1] *= g;
        }
    }

    // Feeds the next block (or the end) and collects what the graph gives back.
    void step() {
        if (next < to) {
            const auto n = static_cast<std::size_t>(
                std::min<std::int64_t>(static_cast<std::int64_t>(kBlock), to - next));
            fill_voice(next, n);
            fill_music(next, n);
            graph.push(voice.data(), bed.data(), n, next);
            next += static_cast<std::int64_t>(n);
        } else if (!ended) {
            graph.finish();
            ended = true;
        }
        if (out_pos == out.size()) {
            out.clear();
            out_pos = 0;
        }
        drained = !graph.pull(out);
        const auto dropped = static_cast<std::size_t>(
            std::min<std::int64_t>(drop, static_cast<std::int64_t>((out.size() - out_pos) / 2)));
        out_pos += 2 * dropped;
        drop -= static_cast<std::int64_t>(dropped);
    }
};

MixWindow::MixWindow(const FilmAudio& audio, std::int64_t from, std::int64_t to)
    : impl_(std::make_unique<Impl>(audio, from, to)) {}

MixWindow::~MixWindow() = default;

std::size_t MixWindow::read(float* out, std::size_t frames) {
    Impl& m = *impl_;
    std::size_t done = 0;
    while (done < frames && m.left > 0) {
        if (m.out_pos == m.out.size()) {
            if (m.drained) throw SystemError("the mixer ended before its window did");
            m.step();
            continue;
        }
        const std::size_t n = std::min(
            {frames - done, (m.out.size() - m.out_pos) / 2, static_cast<std::size_t>(m.left)});
        std::memcpy(out + 2 * done, m.out.data() + m.out_pos, n * 2 * sizeof(float));
        m.out_pos += 2 * n;
        m.left -= static_cast<std::int64_t>(n);
        done += n;
    }
    return done;
}

void MixWindow::drain(const std::function<void(const float*, std::size_t)>& sink,
                      const CancelToken* cancel) {
    std::vector<float> block(2 * kBlock);
    while (const std::size_t got = read(block.data(), kBlock)) {
        if (cancel) cancel->check();
        sink(block.data(), got);
    }
}

}  // namespace render

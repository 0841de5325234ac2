// espeak-ng's synchronous API: PCM and mark events arrive through one callback, in a child
// process per line; see espeak_voice.hpp.
#include "render/voice/module/espeak_voice.hpp"

#include <espeak-ng/speak_lib.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <system_error>

namespace render::voice {

namespace {

// Every name espeak_SetVoiceByName takes without a variant: file names ("en-us", "cmn") and
// languages ("en-gb", "zh").
std::vector<std::string> list_voices() {
    std::vector<std::string> names;
    for (const espeak_VOICE** v = espeak_ListVoices(nullptr); *v; ++v) {
        std::string id = (*v)->identifier;
        id = id.substr(id.rfind('/') + 1);
        std::transform(id.begin(), id.end(), id.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        names.push_back(id);
        // languages: a priority byte, a name, its terminating zero; an empty name ends the list
        for (const char* l = (*v)->languages; *l; l += std::char_traits<char>::length(l + 1) + 2)
            names.emplace_back(l + 1);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

void append_escaped(std::string& out, const std::string& text, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
        switch (text[i]) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            default: out += text[i];
        }
    }
}

// The text as SSML with <mark name="N"/> before the word at each offset (N: the mark's index).
std::string with_marks(const std::string& text, const std::vector<std::size_t>& marks) {
    std::vector<std::size_t> order(marks.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return marks[a] < marks[b]; });
    std::string ssml = "<speak>";
    std::size_t at = 0;
    for (std::size_t i : order) {
        const std::size_t offset = std::min(marks[i], text.size());
        append_escaped(ssml, text, at, offset);
        ssml += "<mark name=\"" + std::to_string(i) + "\"/>";
        at = offset;
    }
    append_escaped(ssml, text, at, text.size());
    return ssml + "</speak>";
}

// The synthesis callback: samples as they come, each mark's audio position.
int collect(short* wav, int count, espeak_EVENT* events) {
    auto* out = static_cast<RawSpeech*>(events->user_data);
    if (wav) {
        for (int i = 0; i < count; ++i) out->pcm.push_back(static_cast<float>(wav[i]) / 32768);
    }
    for (; events->type != espeakEVENT_LIST_TERMINATED; ++events) {
        if (events->type != espeakEVENT_MARK) continue;
        const auto index = static_cast<std::size_t>(std::strtoul(events->id.name, nullptr, 10));
        if (index < out->marks.size()) out->marks[index] = events->audio_position / 1000.0;
    }
    return 0;
}

// The child's reply: 0, the sample count, the samples and the marks; or 1 and a message.
std::string encode(const RawSpeech& speech) {
    const std::uint64_t n = speech.pcm.size();
    std::string out(1, '\0');
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(reinterpret_cast<const char*>(speech.pcm.data()), n * sizeof(float));
    out.append(reinterpret_cast<const char*>(speech.marks.data()),
               speech.marks.size() * sizeof(double));
    return out;
}

RawSpeech decode(const std::string& reply, std::size_t marks) {
    if (reply.empty()) throw std::runtime_error("espeak-ng stopped without speaking the line");
    if (reply[0] != '\0') throw std::runtime_error(reply.substr(1));
    std::uint64_t n = 0;
    if (reply.size() < 1 + sizeof n) throw std::runtime_error("espeak-ng's reply is cut short");
    std::memcpy(&n, reply.data() + 1, sizeof n);
    const std::size_t pcm_at = 1 + sizeof n, marks_at = pcm_at + n * sizeof(float);
    if (reply.size() != marks_at + marks * sizeof(double))
        throw std::runtime_error("espeak-ng's reply is cut short");
    RawSpeech out;
    out.pcm.resize(n);
    std::memcpy(out.pcm.data(), reply.data() + pcm_at, n * sizeof(float));
    out.marks.resize(marks);
    std::memcpy(out.marks.data(), reply.data() + marks_at, marks * sizeof(double));
    return out;
}

bool write_all(int fd, const std::string& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += static_cast<std::size_t>(n);
    }
    return true;
}

std::string read_all(int fd) {
    std::string out;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return out;
        out.append(buffer, static_cast<std::size_t>(n));
    }
}

}  // namespace

Espeak::Espeak() {
    rate_ = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nullptr, espeakINITIALIZE_DONT_EXIT);
    if (rate_ <= 0) throw std::runtime_error("espeak-ng did not start (is espeak-ng-data installed?)");
    espeak_SetSynthCallback(collect);
    voices_ = list_voices();
}

// Runs in the child: the line, or why not, encoded for the pipe.
std::string Espeak::speak_here(const std::string& voice, int wpm, const std::string& text,
                               const std::vector<std::size_t>& marks) const {
    if (espeak_SetVoiceByName(voice.c_str()) != EE_OK)
        return "\1espeak-ng cannot load its voice " + voice;
    espeak_SetParameter(espeakRATE, wpm > 0 ? wpm : espeakRATE_NORMAL, 0);
    RawSpeech out;
    out.marks.assign(marks.size(), std::numeric_limits<double>::quiet_NaN());
    const std::string ssml = with_marks(text, marks);
    std::srand(1);  // should a voice draw noise from rand(), the same noise for every line
    if (espeak_Synth(ssml.c_str(), ssml.size() + 1, 0, POS_CHARACTER, 0,
                     espeakCHARS_UTF8 | espeakSSML, nullptr, &out) != EE_OK ||
        espeak_Synchronize() != EE_OK)
        return "\1espeak-ng could not speak the line";
    return encode(out);
}

RawSpeech Espeak::speak(const std::string& voice, int wpm, const std::string& text,
                        const std::vector<std::size_t>& marks) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category());
    const pid_t child = fork();
    if (child == 0) {
        close(pipe_fds[0]);
        const std::string reply = speak_here(voice, wpm, text, marks);
        _exit(write_all(pipe_fds[1], reply) ? 0 : 1);  // no atexit handlers, no destructors
    }
    close(pipe_fds[1]);
    if (child < 0) {
        close(pipe_fds[0]);
        throw std::system_error(errno, std::generic_category(), "cannot start espeak-ng");
    }
    const std::string reply = read_all(pipe_fds[0]);
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    RawSpeech out = decode(reply, marks.size());
    out.rate = rate_;
    return out;
}

}  // namespace render::voice

// espeak-ng's synchronous API: PCM and mark events arrive through one callback; see
// espeak_voice.hpp.
#include "render/voice/module/espeak_voice.hpp"

#include <espeak-ng/speak_lib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "render/markup/markup.hpp"

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
        ssml += xml_escape(text.substr(at, offset - at));
        ssml += "<mark name=\"" + std::to_string(i) + "\"/>";
        at = offset;
    }
    ssml += xml_escape(text.substr(at));
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

}  // namespace

Espeak::Espeak() {
    rate_ = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nullptr, espeakINITIALIZE_DONT_EXIT);
    if (rate_ <= 0)
        throw std::runtime_error("espeak-ng did not start (is espeak-ng-data installed?)");
    espeak_SetSynthCallback(collect);
    voices_ = list_voices();
}

RawSpeech Espeak::speak(const std::string& voice, int wpm, const std::string& text,
                        const std::vector<std::size_t>& marks) const {
    if (espeak_SetVoiceByName(voice.c_str()) != EE_OK)
        throw std::runtime_error("espeak-ng cannot load its voice " + voice);
    espeak_SetParameter(espeakRATE, wpm > 0 ? wpm : espeakRATE_NORMAL, 0);
    RawSpeech out;
    out.rate = rate_;
    out.marks.assign(marks.size(), std::numeric_limits<double>::quiet_NaN());
    const std::string ssml = with_marks(text, marks);
    std::srand(1);  // should a voice draw noise from rand(), the same noise for every line
    if (espeak_Synth(ssml.c_str(), ssml.size() + 1, 0, POS_CHARACTER, 0,
                     espeakCHARS_UTF8 | espeakSSML, nullptr, &out) != EE_OK ||
        espeak_Synchronize() != EE_OK)
        throw std::runtime_error("espeak-ng could not speak the line");
    return out;
}

}  // namespace render::voice

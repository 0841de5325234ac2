// Where Debian installs Open JTalk, its dictionary and its voices: read by the core (the speech
// cache key holds a digest of the voice's file) and by the voice module (which runs the program).
#pragma once
#include <map>
#include <string>

namespace render::voice {

inline constexpr const char* kOpenJtalkProgram = "/usr/bin/open_jtalk";  // open-jtalk
// open-jtalk-mecab-naist-jdic
inline constexpr const char* kOpenJtalkDictionary = "/var/lib/mecab/dic/open-jtalk/naist-jdic";
// hts-voice-nitech-jp-atr503-m001 (Debian contrib) and any voice copied in alike
inline constexpr const char* kHtsVoiceFolder = "/usr/share/hts-voice";

// The installed voices, each by name, with its .htsvoice file: a file in a folder of
// kHtsVoiceFolder is named by the folder ("nitech-jp-atr503-m001") when it is the only one
// there, else by the folder and its stem ("mei/mei_happy").
std::map<std::string, std::string> open_jtalk_voices();

}  // namespace render::voice

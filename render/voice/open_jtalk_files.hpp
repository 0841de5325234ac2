// Where Debian installs Open JTalk, its dictionary and its voices, and the text it is given: read
// by the core (the speech cache key holds a digest of the voice's file; a line too long for it is
// refused at its say:) and by the voice module (which runs the program).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
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

// The text as open_jtalk should read it, on one line (it speaks its file's first line only).
// Japanese puts spaces around Latin words and numbers ("16 バイト", "bf16 の") for the eye, and
// Open JTalk reads each as a pause: the default film's lines on 16 and 2 bytes took 16.5 s with
// their ten spaces, 11.4 s without. A space stays only between two Latin letters ("mixed
// precision"), where it parts words.
std::string open_jtalk_text(const std::string& say);

// open_jtalk reads its text with one fgets of 1,023 bytes: 1,022 and the terminating zero. More
// would be cut off unspoken (measured: 400 kana were spoken as their first 340).
inline constexpr std::size_t kOpenJtalkMaxBytes = 1022;
// Why open_jtalk cannot speak `say` whole, or nullopt.
std::optional<std::string> open_jtalk_line_error(const std::string& say);

}  // namespace render::voice

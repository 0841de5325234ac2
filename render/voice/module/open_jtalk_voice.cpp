// Open JTalk's program run once per line; see open_jtalk_voice.hpp.
//
// Bookmarks: the line is spoken whole, and the text before each bookmark is run through
// open_jtalk again for its label trace only. The bookmark falls where the line's phones after as
// many as that text has begin (pauses and silence not counted). Speaking the line in pieces split
// at the bookmarks and joining them would time the marks exactly, but each piece is then read as
// a sentence of its own: a falling end and a pause wherever a bookmark is, so the line would
// sound different for being bookmarked (one line of the default film's: 4.20 s of speech whole,
// 3.82 s in two pieces before the pause between them). The trace keeps the line's own reading.
#include "render/voice/module/open_jtalk_voice.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "render/sound/decode/audio_decode.hpp"
#include "render/voice/open_jtalk_files.hpp"

extern char** environ;

namespace render::voice {

namespace fs = std::filesystem;

namespace {

struct Phone {
    std::string name;           // "a", "ts", "N"; "U" and "I" for unvoiced vowels
    double start = 0, end = 0;  // seconds
};

std::string temp_folder() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The core refused a line longer than open_jtalk reads (open_jtalk_line_error).
void write_line(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << open_jtalk_text(text) << '\n';
    if (!out.flush()) throw std::runtime_error("cannot write Open JTalk's text to " + path);
}

std::string how_it_ended(int status) {
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    return "exit " + std::to_string(WEXITSTATUS(status));
}

// Runs the command and waits for it, its output and errors into `log`; throws with them when it
// fails.
void run(const std::vector<std::string>& command, const std::string& log) {
    std::vector<char*> argv;
    for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    if (error != 0)
        throw std::runtime_error(command[0] + " did not start: " + std::strerror(error));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            throw std::runtime_error("lost " + command[0] + ": " + std::strerror(errno));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    std::string said = read_all(log);
    while (!said.empty() && std::isspace(static_cast<unsigned char>(said.back()))) said.pop_back();
    throw std::runtime_error(command[0] + " failed (" + how_it_ended(status) + ")" +
                             (said.empty() ? "" : ": " + said));
}

// The phones of a trace's [Output label] section, silence and pauses left out: "START END LABEL"
// a line, times in 100 ns, the phone between the full-context label's '-' and '+'.
std::vector<Phone> spoken_phones(const std::string& trace) {
    std::istringstream in(trace);
    std::string line;
    while (std::getline(in, line) && line != "[Output label]") {
    }
    std::vector<Phone> phones;
    long long start = 0, end = 0;
    std::string label;
    while (std::getline(in, line) && std::istringstream(line) >> start >> end >> label) {
        const std::size_t minus = label.find('-'), plus = label.find('+', minus);
        if (minus == std::string::npos || plus == std::string::npos) break;
        Phone phone{label.substr(minus + 1, plus - minus - 1), start / 1e7, end / 1e7};
        if (phone.name != "sil" && phone.name != "pau") phones.push_back(std::move(phone));
    }
    return phones;
}

// Runs open_jtalk on text: its spoken phones, and with `wav` the sound in scratch's line.wav.
std::vector<Phone> synthesize(std::vector<std::string> command, const TempFolder& scratch,
                              const std::string& text, bool wav) {
    if (text.empty()) return {};
    write_line(scratch.file("text.txt"), text);
    if (wav) command.insert(command.end(), {"-ow", scratch.file("line.wav")});
    command.insert(command.end(), {"-ot", scratch.file("trace.txt"), scratch.file("text.txt")});
    run(command, scratch.file("log.txt"));
    return spoken_phones(read_all(scratch.file("trace.txt")));
}

// Case aside: a vowel at the end of the text before a bookmark may be unvoiced ("U") where the
// whole line voices it ("u").
bool same_phone(const Phone& a, const Phone& b) {
    return a.name.size() == b.name.size() &&
           std::equal(a.name.begin(), a.name.end(), b.name.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// When the line's phones after the `before` ones begin (the end of its last, when `before` are
// all); NaN when `before` do not begin the line's (a bookmark inside a word, which changes how
// the word is read), so the mark is placed by its share of the text instead.
double mark_time(const std::vector<Phone>& line, const std::vector<Phone>& before) {
    const double none = std::numeric_limits<double>::quiet_NaN();
    if (line.empty() || before.size() > line.size()) return none;
    if (!std::equal(before.begin(), before.end(), line.begin(), same_phone)) return none;
    return before.size() < line.size() ? line[before.size()].start : line.back().end;
}

// -r, the speed ratio, as open_jtalk's atof reads it whatever the locale.
std::string speed_argument(int wpm) {
    char digits[32];
    const auto result = std::to_chars(digits, digits + sizeof digits, speed_ratio(wpm));
    return std::string(digits, result.ptr);
}

}  // namespace

TempFolder::TempFolder(std::string pattern) : path_(std::move(pattern)) {
    if (!mkdtemp(path_.data()))
        throw std::runtime_error("cannot create a folder for Open JTalk's files (" + path_ +
                                 "): " + std::strerror(errno));
}

TempFolder::~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

OpenJtalk::OpenJtalk()
    : files_(open_jtalk_voices()), folder_(temp_folder() + "/shardreel-open-jtalk-XXXXXX") {
    if (access(kOpenJtalkProgram, X_OK) != 0)
        throw std::runtime_error(std::string("Open JTalk is not installed (no ") +
                                 kOpenJtalkProgram + "): install the Debian package open-jtalk");
    if (!fs::exists(fs::path(kOpenJtalkDictionary) / "sys.dic"))
        throw std::runtime_error(
            std::string("Open JTalk's dictionary is not installed (no ") + kOpenJtalkDictionary +
            "/sys.dic): install the Debian package open-jtalk-mecab-naist-jdic");
    if (files_.empty())
        throw std::runtime_error(std::string("no Open JTalk voice is installed (no .htsvoice in ") +
                                 kHtsVoiceFolder +
                                 "/*/): install the Debian package hts-voice-nitech-jp-atr503-m001 "
                                 "(in contrib; scripts/deps.sh fetches it)");
    for (const auto& [name, file] : files_) voices_.push_back(name);
}

RawSpeech OpenJtalk::speak(const std::string& voice, int wpm, const std::string& text,
                           const std::vector<std::size_t>& marks) const {
    const auto file = files_.find(voice);
    if (file == files_.end()) throw std::runtime_error("no Open JTalk voice '" + voice + "'");
    const std::vector<std::string> command = {kOpenJtalkProgram, "-x", kOpenJtalkDictionary, "-m",
                                              file->second,      "-r", speed_argument(wpm)};
    const TempFolder scratch(folder_.path() + "/line-XXXXXX");
    RawSpeech out;
    const std::vector<Phone> line = synthesize(command, scratch, text, /*wav=*/true);
    out.pcm = decode_audio(scratch.file("line.wav"), 1).samples;
    out.rate = kAudioRate;
    for (std::size_t offset : marks) {
        const std::string before = text.substr(0, std::min(offset, text.size()));
        out.marks.push_back(mark_time(line, synthesize(command, scratch, before, /*wav=*/false)));
    }
    return out;
}

}  // namespace render::voice

// The Open JTalk voices installed; see open_jtalk_files.hpp.
#include "render/voice/open_jtalk_files.hpp"

#include <filesystem>
#include <vector>

namespace render::voice {

namespace fs = std::filesystem;

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_latin_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::vector<fs::path> htsvoice_files(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (entry.path().extension() == ".htsvoice") files.push_back(entry.path());
    }
    return files;
}

}  // namespace

std::map<std::string, std::string> open_jtalk_voices() {
    std::map<std::string, std::string> voices;
    std::error_code ec;
    for (const auto& folder : fs::directory_iterator(kHtsVoiceFolder, ec)) {
        const std::vector<fs::path> files = htsvoice_files(folder.path());
        const std::string name = folder.path().filename().string();
        for (const fs::path& file : files) {
            voices[files.size() == 1 ? name : name + "/" + file.stem().string()] = file.string();
        }
    }
    return voices;
}

std::string open_jtalk_text(const std::string& say) {
    std::string out;
    for (std::size_t i = 0; i < say.size(); ++i) {
        if (!is_space(say[i])) {
            out += say[i];
            continue;
        }
        std::size_t next = i;
        while (next < say.size() && is_space(say[next])) ++next;
        if (!out.empty() && next < say.size() && is_latin_letter(out.back()) &&
            is_latin_letter(say[next]))
            out += ' ';
        i = next - 1;
    }
    return out;
}

std::optional<std::string> open_jtalk_line_error(const std::string& say) {
    const std::size_t bytes = open_jtalk_text(say).size();
    if (bytes <= kOpenJtalkMaxBytes) return std::nullopt;
    return "Open JTalk reads at most " + std::to_string(kOpenJtalkMaxBytes) +
           " bytes of a line, and this one has " + std::to_string(bytes) +
           " (spaces left out): split it over two beats";
}

}  // namespace render::voice

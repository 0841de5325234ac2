// The Open JTalk voices installed; see open_jtalk_files.hpp.
#include "render/voice/open_jtalk_files.hpp"

#include <filesystem>
#include <vector>

namespace render::voice {

namespace fs = std::filesystem;

namespace {

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

}  // namespace render::voice

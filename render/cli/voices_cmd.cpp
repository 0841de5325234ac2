// `shardreel voices [ENGINE]`: every voice a storyboard's `narration:` may name, one a line as
// it is written there (espeak-ng:en-us, festival:cmu_us_slt_arctic_hts,
// open-jtalk:nitech-jp-atr503-m001). Loads the voice module.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

#include "render/cli/commands.hpp"
#include "render/sys/error.hpp"
#include "render/voice/voice_module.hpp"
#include "story/storyboard/diagnostics.hpp"

namespace render {

namespace {

int list_voices(const std::string& only) {
    const std::vector<story::VoiceEngine> engines = {
        story::VoiceEngine::espeak, story::VoiceEngine::festival, story::VoiceEngine::open_jtalk};
    std::vector<std::string> names;
    for (story::VoiceEngine e : engines) names.emplace_back(voice::engine_name(e));
    if (!only.empty() && std::find(names.begin(), names.end(), only) == names.end()) {
        std::cerr << "shardreel: error: " << story::unknown_name("engine", only, names) << "\n";
        return 2;
    }
    voice::Synthesizer& synthesizer = voice_synthesizer();
    for (story::VoiceEngine e : engines) {
        const std::string engine = voice::engine_name(e);
        if (!only.empty() && engine != only) continue;
        std::vector<std::string> voices;
        const voice::Outcome outcome = synthesizer.voices(e, voices);
        const std::string missing = engine + " voices are not available: " + outcome.message;
        // Open JTalk is a program of its own, which a machine may lack: the others are listed.
        if (outcome.kind != voice::Outcome::Kind::ok && only.empty() &&
            e == story::VoiceEngine::open_jtalk) {
            std::cerr << "shardreel: warning: " << missing << "\n";
            continue;
        }
        if (outcome.kind != voice::Outcome::Kind::ok) throw SystemError(missing);
        for (const std::string& v : voices) std::cout << engine << ':' << v << '\n';
    }
    return std::cout.flush() ? 0 : 1;
}

}  // namespace

void add_voices_command(CLI::App& app, int& exit_code) {
    CLI::App* cmd = app.add_subcommand(
        "voices",
        "List the narration voices (espeak-ng's, Festival's and Open JTalk's) as `narration:` "
        "names them");
    auto only = std::make_shared<std::string>();
    cmd->add_option("engine", *only, "Only this engine's: espeak-ng, festival or open-jtalk");
    cmd->callback(
        [&exit_code, only] { exit_code = run_guarded([&] { return list_voices(*only); }); });
}

}  // namespace render

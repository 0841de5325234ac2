// The narration script as Markdown (for people) and CSV (for spreadsheets and session tools).
#include "story/uses/script.hpp"

#include <cstdio>

#include "story/text/format.hpp"

namespace story {
namespace {

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", s);
    return buf;
}

// A Markdown table cell: pipes escaped, line breaks flattened.
std::string md_cell(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c == '\n' ? ' ' : c);
    return out;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string voice_name(const Narration& n) {
    switch (n.engine) {
        case VoiceEngine::off:
            return "none (captions only)";
        case VoiceEngine::espeak:
            return "espeak-ng:" + n.voice;
        case VoiceEngine::festival:
            return "festival:" + n.voice;
        case VoiceEngine::open_jtalk:
            return "open-jtalk:" + n.voice;
        case VoiceEngine::recorded:
            return "recorded takes";
    }
    return "";
}

}  // namespace

std::string take_name(const ChapterSpec& chapter, const Beat& beat) {
    if (!beat.take.empty()) return beat.take;
    return chapter.id + "-" + std::to_string(beat.number) + ".wav";
}

std::vector<ScriptLine> script_lines(const Storyboard& timed, const FilmTime& time) {
    std::vector<ScriptLine> lines;
    for (std::size_t c = 0; c < timed.chapters.size(); ++c) {
        const ChapterSpec& spec = timed.chapters[c];
        for (std::size_t b = 0; b < spec.beats.size(); ++b) {
            const Beat& beat = spec.beats[b];
            if (beat.say.empty()) continue;
            const BeatTime& at = time.chapter(c).beats[b];
            lines.push_back({c, beat.number, time.seconds(at.film_frame), time.seconds(at.frame),
                             beat.speech ? beat.speech->seconds : 0, beat.say,
                             take_name(spec, beat)});
        }
    }
    return lines;
}

std::string script_markdown(const Storyboard& timed, const std::vector<ScriptLine>& lines) {
    double speech = 0;
    for (const ScriptLine& l : lines) speech += l.speech_seconds;
    std::string out = "# Narration script: " + md_cell(timed.title) + "\n\n";
    out += "Storyboard `" + timed.file + "`, " + std::to_string(lines.size()) + " lines, " +
           seconds_text(speech) + " s of speech.\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const ScriptLine& l = lines[i];
        if (i == 0 || lines[i - 1].chapter != l.chapter) {
            const ChapterSpec& spec = timed.chapters[l.chapter];
            out += "\n## " + md_cell(spec.id) + ": " + md_cell(spec.title) +
                   "\n\nVoice: " + voice_name(spec.narration) +
                   "\n\n| beat | film time | in chapter | length s | take | text |\n"
                   "|---:|---|---|---:|---|---|\n";
        }
        out += "| " + std::to_string(l.number) + " | " + format_timecode(l.film_seconds, '.') +
               " | " + format_timecode(l.chapter_seconds, '.') + " | " +
               seconds_text(l.speech_seconds) + " | " + md_cell(l.take) + " | " + md_cell(l.text) +
               " |\n";
    }
    return out;
}

std::string script_csv(const Storyboard& timed, const std::vector<ScriptLine>& lines) {
    std::string out = "chapter,beat,timecode,chapter_time,speech_seconds,take,text\r\n";
    for (const ScriptLine& l : lines)
        out += csv_field(timed.chapters[l.chapter].id) + "," + std::to_string(l.number) + "," +
               format_timecode(l.film_seconds, '.') + "," +
               format_timecode(l.chapter_seconds, '.') + "," + seconds_text(l.speech_seconds) +
               "," + csv_field(l.take) + "," + csv_field(l.text) + "\r\n";
    return out;
}

}  // namespace story

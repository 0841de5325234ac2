// Stable text of what a chapter's pixels depend on (its resolved spec, the engine's numbers and
// schedules it draws), so a segment cache can key on it: same text, same frames.
#pragma once
#include <concepts>
#include <cstdio>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>

#include "engine/comm.hpp"
#include "engine/fsdp.hpp"
#include "engine/interconnect.hpp"
#include "engine/layout3d.hpp"
#include "engine/pipeline.hpp"
#include "engine/recompute.hpp"
#include "engine/report.hpp"
#include "engine/strategies.hpp"
#include "engine/tensor_parallel.hpp"
#include "story/storyboard.hpp"

namespace story {

class Fingerprint;

// Every field of each struct, in declaration order (source positions excluded: moving a
// chapter in its file does not change its pixels).
void describe(Fingerprint& f, const engine::ModelSpec& m);
void describe(Fingerprint& f, const engine::GpuSpec& g);
void describe(Fingerprint& f, const engine::Config& c);
void describe(Fingerprint& f, const engine::Report& r);
void describe(Fingerprint& f, const engine::PerGpu& g);
void describe(Fingerprint& f, const engine::ChunkTransfer& x);
void describe(Fingerprint& f, const engine::RingSchedule& r);
void describe(Fingerprint& f, const engine::FsdpEvent& e);
void describe(Fingerprint& f, const engine::FsdpPlan& p);
void describe(Fingerprint& f, const engine::PipelineSlot& s);
void describe(Fingerprint& f, const engine::PipelineSchedule& p);
void describe(Fingerprint& f, const engine::RankPlace& r);
void describe(Fingerprint& f, const engine::Layout3D& l);
void describe(Fingerprint& f, const engine::LinkTiming& l);
void describe(Fingerprint& f, const engine::LinkTimings& l);
void describe(Fingerprint& f, const engine::StrategyConfig& s);
void describe(Fingerprint& f, const engine::TpLinkTimes& t);
void describe(Fingerprint& f, const engine::ActivationCoefficients& a);
void describe(Fingerprint& f, const engine::ComputeUnits& u);
void describe(Fingerprint& f, const Beat& b);
void describe(Fingerprint& f, const ChapterSpec& c);

template <class T>
concept Describable = requires(Fingerprint& f, const T& v) {
    describe(f, v);
};

// `name=value` items separated by spaces, `name{...}` for structs and `name[...]` for lists;
// numbers print exactly (%.17g), so any change in a figure changes the text.
class Fingerprint {
  public:
    void add(std::string_view name, double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        item(name, buf);
    }
    template <std::integral T>
    void add(std::string_view name, T v) {
        item(name, std::to_string(static_cast<long long>(v)));
    }
    template <class E>
    requires std::is_enum_v<E>
    void add(std::string_view name, E v) { add(name, static_cast<long long>(v)); }
    template <class Tag>
    void add(std::string_view name, engine::Quantity<Tag> q) {
        add(name, q.value);
    }
    void add(std::string_view name, std::string_view text);
    void add(std::string_view name, const std::string& text) { add(name, std::string_view(text)); }
    template <Describable T>
    void add(std::string_view name, const T& v) {
        open(name, '{');
        describe(*this, v);
        close('}');
    }
    template <std::ranges::range R>
    requires(!std::convertible_to<R, std::string_view>) void add(std::string_view name,
                                                                 const R& items) {
        open(name, '[');
        for (const auto& v : items) add("", v);
        close(']');
    }

    // A hand-written struct or list: open(name, '{' or '['), add its items, close('}' or ']').
    void open(std::string_view name, char bracket);
    void close(char bracket);
    const std::string& text() const { return text_; }

  private:
    void item(std::string_view name, std::string_view value);
    std::string text_;
};

// The spec's fingerprint text on its own: what the storyboard says about one chapter.
std::string spec_fingerprint(const ChapterSpec& spec);

}  // namespace story

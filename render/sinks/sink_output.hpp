// What a sink holds between begin() and finish() (an encoder and its temporary file, the scenes
// of a GIF, a temporary folder of PNGs) and the lifecycle every such sink shares: begin() opens a
// new one, dropping any left open; finish() finishes it and leaves the sink closed whatever
// happens, so a failed finish leaves no file; abort() drops it, which removes what it wrote.
#pragma once
#include <memory>
#include <string>
#include <utility>

#include "render/sys/error.hpp"

namespace render {

// Output is the sink's own type, made by open() and committed by its finish(); it may be
// incomplete where the sink is declared, as long as the sink's constructor (which constructs this)
// and destructor are defined where it is complete.
template <class Output>
class SinkOutput {
  public:
    // `sink` names the sink's class in errors: "Mp4Sink::write before begin()".
    explicit SinkOutput(const char* sink) : sink_(sink) {}

    template <class... Args>
    Output& open(Args&&... args) {
        output_.reset();
        output_ = std::make_unique<Output>(std::forward<Args>(args)...);
        return *output_;
    }

    // The open output; throws SystemError("<sink>::<call> before begin()") when there is none.
    Output& get(const char* call) const {
        if (!output_) throw SystemError(std::string(sink_) + "::" + call + " before begin()");
        return *output_;
    }

    void finish() {
        get("finish");
        const std::unique_ptr<Output> output = std::move(output_);
        output->finish();
    }

    void abort() noexcept { output_.reset(); }

  private:
    const char* sink_;
    std::unique_ptr<Output> output_;
};

}  // namespace render

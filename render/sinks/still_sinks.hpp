// Stills: one scene drawn by the painter onto a Cairo surface and streamed to a temporary
// file beside the output, renamed into place on finish(). PNG is raster; SVG and PDF are
// vector, with the Inter faces embedded (PDF text stays selectable).
#pragma once
#include <cairo.h>

#include <cstdio>
#include <optional>
#include <string>

#include "render/sinks/sink.hpp"
#include "render/sys/temp_file.hpp"

namespace render {

class StillSink : public FrameSink {
  public:
    explicit StillSink(const Fonts& fonts) : fonts_(fonts) {}
    ~StillSink() override;

    void begin(const OutputSpec& spec) final;
    // PNG and SVG show the last scene written; PDF adds a page per scene.
    void write(const story::Scene& scene) final;
    void finish() final;
    void abort() noexcept final;

  protected:
    // Surfaces that stream (SVG, PDF) write through stream_to_file with `this` as closure.
    virtual cairo_surface_t* create_surface(const OutputSpec& spec) = 0;
    virtual void begin_page(cairo_t*) const {}
    virtual void end_page(cairo_t*) const {}
    // Runs after the painter drew a scene, for sinks that add to what Cairo produces.
    virtual void drew(const story::Scene&, const OutputSpec&, const Fonts&) {}
    // Runs before cairo_surface_finish (which frees an image surface's pixels).
    virtual cairo_status_t save(cairo_surface_t*) { return CAIRO_STATUS_SUCCESS; }
    // Runs after cairo_surface_finish, for sinks that rewrite what Cairo produced.
    virtual cairo_status_t finished() { return CAIRO_STATUS_SUCCESS; }

    static cairo_status_t stream_to_file(void* closure, const unsigned char* data, unsigned length);

  private:
    [[noreturn]] void fail(const std::string& what, cairo_status_t status);

    const Fonts& fonts_;
    OutputSpec spec_;
    std::optional<TempFile> temp_;
    std::FILE* file_ = nullptr;
    cairo_surface_t* surface_ = nullptr;
    int write_errno_ = 0;
};

class PngSink final : public StillSink {
  public:
    using StillSink::StillSink;

  private:
    cairo_surface_t* create_surface(const OutputSpec& spec) override;
    cairo_status_t save(cairo_surface_t* surface) override;
};

// Buffers the document: Cairo names groups after process-wide surface ids, which finished()
// renumbers so the same scene gives the same bytes however many stills the process drew.
// Cairo draws text as glyph outlines (<symbol>s shared by <use>), never <text>; finished() adds
// a layer of transparent <text> elements over them, so the text can be searched and selected.
class SvgSink final : public StillSink {
  public:
    using StillSink::StillSink;

  private:
    cairo_surface_t* create_surface(const OutputSpec& spec) override;
    void drew(const story::Scene& scene, const OutputSpec& spec, const Fonts& fonts) override;
    cairo_status_t finished() override;
    static cairo_status_t append(void* closure, const unsigned char* data, unsigned length);

    std::string svg_;
    std::string text_layer_;  // invisible <text> over the glyphs of the last scene drawn
};

class PdfSink final : public StillSink {
  public:
    using StillSink::StillSink;

  private:
    cairo_surface_t* create_surface(const OutputSpec& spec) override;
    void begin_page(cairo_t* cr) const override;
    void end_page(cairo_t* cr) const override;
};

}  // namespace render

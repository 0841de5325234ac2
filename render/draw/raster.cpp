// Scene -> pixels in a caller-owned buffer, wrapped by a Cairo image surface (one per call for
// rasterize(), one per animation for FrameRaster).
#include "render/draw/raster.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "render/draw/painter.hpp"
#include "render/sys/error.hpp"

namespace render {
namespace {

void size_frame(Frame& frame) {
    frame.stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, frame.width);
    if (frame.stride <= 0 || frame.height <= 0) {
        throw SystemError("cannot draw a frame of " + std::to_string(frame.width) + "x" +
                          std::to_string(frame.height) + " px");
    }
    frame.data.resize(static_cast<std::size_t>(frame.stride) * frame.height);
}

// How many leading items two scenes share (none when their canvas differs).
std::size_t shared_items(const story::Scene& a, const story::Scene& b) {
    if (a.width != b.width || a.height != b.height || !(a.background == b.background)) return 0;
    const auto [ia, ib] =
        std::mismatch(a.items.begin(), a.items.end(), b.items.begin(), b.items.end());
    return static_cast<std::size_t>(ia - a.items.begin());
}

}  // namespace

// A Cairo context drawing straight into a Frame's pixels; check() flushes and reports failures.
class RasterCanvas {
  public:
    explicit RasterCanvas(Frame& frame)
        : surface_(cairo_image_surface_create_for_data(frame.data.data(), CAIRO_FORMAT_ARGB32,
                                                       frame.width, frame.height, frame.stride),
                   cairo_surface_destroy),
          cr_(cairo_create(surface_.get()), cairo_destroy) {}
    cairo_t* cr() const { return cr_.get(); }
    // After the pixels were written behind Cairo's back.
    void mark_dirty() const { cairo_surface_mark_dirty(surface_.get()); }
    void check() const {
        cairo_surface_flush(surface_.get());
        if (const cairo_status_t status = cairo_status(cr_.get()); status != CAIRO_STATUS_SUCCESS) {
            throw SystemError(std::string("cannot draw frame: ") + cairo_status_to_string(status));
        }
    }

  private:
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface_;
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr_;
};

void rasterize(const story::Scene& scene, const Fonts& fonts, Frame& frame) {
    size_frame(frame);
    const RasterCanvas canvas(frame);
    paint(canvas.cr(), scene, fonts, frame.width, frame.height);
    canvas.check();
}

FrameRaster::FrameRaster(const Fonts& fonts, int width, int height) : fonts_(fonts) {
    frame_.width = width;
    frame_.height = height;
    size_frame(frame_);
    canvas_ = std::make_unique<RasterCanvas>(frame_);  // frame_.data is never resized again
}

FrameRaster::~FrameRaster() = default;

bool FrameRaster::draw(const story::Scene& scene) {
    if (previous_ && scene == *previous_) return false;
    const std::size_t shared = previous_ ? shared_items(*previous_, scene) : 0;
    if (base_items_ > shared) base_items_ = 0;  // a kept layer changed: start again
    const RasterCanvas& canvas = *canvas_;
    if (base_items_ > 0) {
        std::copy(base_.begin(), base_.end(), frame_.data.begin());
        canvas.mark_dirty();
    } else {
        paint_background(canvas.cr(), scene);
    }
    if (shared > base_items_) {  // more leading items held still: keep them too
        paint_items(canvas.cr(), scene, fonts_, frame_.width, frame_.height, base_items_, shared);
        canvas.check();
        base_ = frame_.data;
        base_items_ = shared;
    }
    paint_items(canvas.cr(), scene, fonts_, frame_.width, frame_.height, base_items_,
                scene.items.size());
    canvas.check();
    previous_ = scene;
    return true;
}

}  // namespace render

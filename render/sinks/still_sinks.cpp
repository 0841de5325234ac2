// The lifecycle shared by PNG, SVG and PDF stills: temp file, Cairo surface, paint, rename.
#include "render/sinks/still_sinks.hpp"

#include <cerrno>
#include <cstring>

#include "render/draw/painter.hpp"
#include "render/sys/error.hpp"

namespace render {

StillSink::~StillSink() { abort(); }

void StillSink::begin(const OutputSpec& spec) {
    abort();
    spec_ = spec;
    temp_.emplace(spec.path);
    file_ = std::fopen(temp_->path().c_str(), "wb");
    if (!file_) {
        const std::string reason = std::strerror(errno);
        abort();
        throw SystemError("cannot write " + spec.path + ": " + reason);
    }
    surface_ = create_surface(spec);
    if (const cairo_status_t status = cairo_surface_status(surface_)) fail("cannot create", status);
}

void StillSink::write(const story::Scene& scene) {
    cairo_t* cr = cairo_create(surface_);
    begin_page(cr);
    paint(cr, scene, fonts_, spec_.width, spec_.height);
    end_page(cr);
    const cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    if (status) fail("cannot draw", status);
    drew(scene, spec_, fonts_);
}

void StillSink::finish() {
    if (const cairo_status_t status = save(surface_)) fail("cannot write", status);
    cairo_surface_finish(surface_);
    if (const cairo_status_t status = cairo_surface_status(surface_)) fail("cannot write", status);
    if (const cairo_status_t status = finished()) fail("cannot write", status);
    cairo_surface_destroy(surface_);
    surface_ = nullptr;
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0) {
        write_errno_ = errno;
        fail("cannot write", CAIRO_STATUS_WRITE_ERROR);
    }
    temp_->commit();
    temp_.reset();
}

void StillSink::abort() noexcept {
    cairo_surface_destroy(surface_);  // accepts nullptr
    surface_ = nullptr;
    if (file_) std::fclose(file_);
    file_ = nullptr;
    temp_.reset();
    write_errno_ = 0;
}

// A failed write says why in the system's words (disk full), not just Cairo's WRITE_ERROR.
void StillSink::fail(const std::string& what, cairo_status_t status) {
    const std::string reason =
        write_errno_ ? std::strerror(write_errno_) : cairo_status_to_string(status);
    abort();
    throw SystemError(what + " " + spec_.path + ": " + reason);
}

cairo_status_t StillSink::stream_to_file(void* closure, const unsigned char* data,
                                         unsigned length) {
    auto* self = static_cast<StillSink*>(closure);
    if (std::fwrite(data, 1, length, self->file_) == length) return CAIRO_STATUS_SUCCESS;
    self->write_errno_ = errno;
    return CAIRO_STATUS_WRITE_ERROR;
}

}  // namespace render

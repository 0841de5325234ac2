// PDF stills, one page per scene. Pages are sized in points at 96 px per inch (1 px = 0.75 pt,
// the CSS convention), so a 1920x1080 still is a 20 x 11.25 inch page that prints as on screen.
#include <cairo-pdf.h>

#include "render/sinks/still_sinks.hpp"

namespace render {
namespace {

constexpr double points_per_px = 0.75;
// A fixed date: identical scenes must give identical bytes (cache keys, reproducible builds).
constexpr const char* fixed_date = "2000-01-01T00:00:00Z";

}  // namespace

cairo_surface_t* PdfSink::create_surface(const OutputSpec& spec) {
    cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(
        stream_to_file, this, spec.width * points_per_px, spec.height * points_per_px);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, fixed_date);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, fixed_date);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "shardreel");
    return surface;
}

void PdfSink::begin_page(cairo_t* cr) const { cairo_scale(cr, points_per_px, points_per_px); }

void PdfSink::end_page(cairo_t* cr) const { cairo_show_page(cr); }

}  // namespace render

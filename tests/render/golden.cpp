// Golden PNGs are read with Cairo and compared pixel by pixel; diffs go through the PNG writer.
#include "tests/render/golden.hpp"

#include <cairo.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "render/sinks/png_writer.hpp"
#include "tests/catch.hpp"

namespace render_test {
namespace {

constexpr int channel_tolerance = 2;
constexpr double max_mismatch_ratio = 1e-4;

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

Surface load_png(const std::string& path) {
    Surface s(cairo_image_surface_create_from_png(path.c_str()), cairo_surface_destroy);
    if (cairo_surface_status(s.get()) != CAIRO_STATUS_SUCCESS) {
        return Surface(nullptr, cairo_surface_destroy);
    }
    cairo_surface_flush(s.get());
    return s;
}

struct Image {
    int width, height, stride;
    const unsigned char* data;
    explicit Image(cairo_surface_t* s)
        : width(cairo_image_surface_get_width(s)),
          height(cairo_image_surface_get_height(s)),
          stride(cairo_image_surface_get_stride(s)),
          data(cairo_image_surface_get_data(s)) {}
    const unsigned char* pixel(int x, int y) const { return data + y * stride + x * 4; }
};

bool pixels_match(const unsigned char* a, const unsigned char* b) {
    for (int c = 0; c < 4; ++c) {
        if (std::abs(a[c] - b[c]) > channel_tolerance) return false;
    }
    return true;
}

// Mismatches in opaque red over a quarter-intensity copy of the golden, to see where at a glance.
void write_diff(const Image& golden, const Image& actual, const std::string& path) {
    Surface out(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, golden.width, golden.height),
                cairo_surface_destroy);
    unsigned char* data = cairo_image_surface_get_data(out.get());
    const int stride = cairo_image_surface_get_stride(out.get());
    for (int y = 0; y < golden.height; ++y) {
        for (int x = 0; x < golden.width; ++x) {
            const unsigned char* g = golden.pixel(x, y);
            unsigned char* d = data + y * stride + x * 4;
            const bool same = pixels_match(g, actual.pixel(x, y));
            for (int c = 0; c < 3; ++c) d[c] = same ? g[c] / 4 : (c == 2 ? 255 : 0);
            d[3] = 255;
        }
    }
    cairo_surface_mark_dirty(out.get());
    render::write_png(out.get(), path);
}

long count_mismatches(const Image& golden, const Image& actual) {
    long mismatches = 0;
    for (int y = 0; y < golden.height; ++y) {
        for (int x = 0; x < golden.width; ++x) {
            mismatches += !pixels_match(golden.pixel(x, y), actual.pixel(x, y));
        }
    }
    return mismatches;
}

}  // namespace

GoldenResult compare_golden(const std::string& golden_dir, const std::string& name,
                            const std::string& rendered_png) {
    namespace fs = std::filesystem;
    const std::string base = (fs::path(golden_dir) / name).string();
    const std::string golden_path = base + ".png", actual_path = base + ".actual.png",
                      diff_path = base + ".diff.png";
    const Surface golden = load_png(golden_path), actual = load_png(rendered_png);
    if (!actual) return {false, "cannot read rendered image " + rendered_png};
    if (!golden) {
        return {false, "no golden " + golden_path + " (run scripts/regen-golden.sh to create it)"};
    }
    const Image g(golden.get()), a(actual.get());
    const bool same_size = g.width == a.width && g.height == a.height;
    const long mismatches = same_size ? count_mismatches(g, a) : 0;
    if (same_size && mismatches <= max_mismatch_ratio * g.width * g.height) {
        fs::remove(actual_path);
        fs::remove(diff_path);
        return {true, ""};
    }
    fs::copy_file(rendered_png, actual_path, fs::copy_options::overwrite_existing);
    if (!same_size) {
        return {false, "size differs from " + golden_path + ", see " + actual_path};
    }
    write_diff(g, a, diff_path);
    return {false, std::to_string(mismatches) + " pixels differ from " + golden_path + ", see " +
                       actual_path + " and " + diff_path};
}

void check_golden(const std::string& name, const std::string& rendered_png) {
    const std::string dir = SHARDREEL_SOURCE_DIR "/tests/golden";
    const char* regen = std::getenv("SHARDREEL_REGEN_GOLDEN");
    if (regen && std::string(regen) == "1") {
        std::filesystem::copy_file(rendered_png, dir + "/" + name + ".png",
                                   std::filesystem::copy_options::overwrite_existing);
        WARN("regenerated " << dir << "/" << name << ".png");
        return;
    }
    const GoldenResult result = compare_golden(dir, name, rendered_png);
    INFO(result.message);
    CHECK(result.ok);
}

}  // namespace render_test

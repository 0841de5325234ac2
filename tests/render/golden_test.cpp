// Painter golden images: the test scene in both themes at 480x270, compared with tests/golden.
#include "tests/render/golden.hpp"

#include <cairo.h>

#include <filesystem>

#include "render/sinks/png_writer.hpp"
#include "tests/catch.hpp"
#include "tests/render/test_scene.hpp"

using render_test::compare_golden;
using render_test::scratch_path;

TEST_CASE("painter matches its golden images in both themes", "[golden]") {
    for (const auto theme : {story::ThemeName::dark, story::ThemeName::light}) {
        const std::string name = "painter_" + std::string(story::to_string(theme));
        const std::string png = scratch_path(name + ".png");
        render_test::render_still(render_test::test_scene(theme), png, 480, 270);
        render_test::check_golden(name, png);
    }
}

namespace {

// A copy of src with n pixels in the top row inverted.
std::string with_changed_pixels(const std::string& src, int n, const std::string& dst) {
    cairo_surface_t* s = cairo_image_surface_create_from_png(src.c_str());
    cairo_surface_flush(s);
    unsigned char* data = cairo_image_surface_get_data(s);
    for (int i = 0; i < n * 4; ++i) {
        if (i % 4 != 3) data[i] = static_cast<unsigned char>(255 - data[i]);
    }
    cairo_surface_mark_dirty(s);
    render::write_png(s, dst);
    cairo_surface_destroy(s);
    return dst;
}

}  // namespace

TEST_CASE("golden comparison tolerates up to 1e-4 of pixels and reports the rest", "[golden]") {
    namespace fs = std::filesystem;
    const std::string dir = scratch_path("goldens");
    fs::create_directories(dir);
    const std::string golden = dir + "/scene.png";
    render_test::render_still(render_test::test_scene(story::ThemeName::dark), golden, 480, 270);

    // 480 x 270 x 1e-4 = 12.96: twelve changed pixels pass, thirteen fail.
    const auto twelve = with_changed_pixels(golden, 12, dir + "/twelve.png");
    CHECK(compare_golden(dir, "scene", twelve).ok);
    CHECK_FALSE(fs::exists(dir + "/scene.actual.png"));

    const auto thirteen = with_changed_pixels(golden, 13, dir + "/thirteen.png");
    const auto failed = compare_golden(dir, "scene", thirteen);
    CHECK_FALSE(failed.ok);
    CHECK(failed.message == "13 pixels differ from " + golden + ", see " + dir +
                                "/scene.actual.png and " + dir + "/scene.diff.png");
    CHECK(fs::exists(dir + "/scene.actual.png"));
    CHECK(fs::exists(dir + "/scene.diff.png"));

    const auto missing = compare_golden(dir, "absent", golden);
    CHECK_FALSE(missing.ok);
    CHECK(missing.message ==
          "no golden " + dir + "/absent.png (run scripts/regen-golden.sh to create it)");
}

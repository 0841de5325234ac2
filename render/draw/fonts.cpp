// Inter from fonts/ through FreeType (for Cairo, which embeds it in SVG/PDF) and HarfBuzz (for
// shaping); shaping results are memoised per (text, weight, tabular) in font units.
#include "render/draw/fonts.hpp"

#include <cairo-ft.h>
#include <ft2build.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>
#include FT_FREETYPE_H
#include FT_MODULE_H
#include <hb.h>
#include <xxhash.h>

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"

namespace render {
namespace {

constexpr std::array<const char*, 3> face_files = {"Inter-Regular.otf", "Inter-Medium.otf",
                                                   "Inter-SemiBold.otf"};
// Bounds memory when numbers count on screen: every frame may show a new string.
constexpr std::size_t max_cached_shapes = 4096;

// Glyphs positioned in font units; scaling to a size is exact because hinting is off.
struct Shaped {
    std::vector<cairo_glyph_t> glyphs;
    std::vector<cairo_text_cluster_t> clusters;
    double advance = 0;
};

// Cairo may keep a font face alive in its caches after Fonts is gone, so each face owns a
// reference to the FreeType library and releases both when Cairo drops the face.
struct FtOwner {
    FT_Library library;
    FT_Face face;
};
const cairo_user_data_key_t ft_owner_key{};

void release_ft(void* p) {
    auto* owner = static_cast<FtOwner*>(p);
    FT_Done_Face(owner->face);
    FT_Done_Library(owner->library);
    delete owner;
}

std::string read_font(const std::string& path) {
    std::string error;
    std::optional<std::string> bytes = read_file(path, error);
    if (!bytes)
        throw SystemError("cannot read font " + path + ": " + error +
                          " (the fonts ship in shardreel's fonts/ directory; SHARDREEL_HOME names "
                          "the directory that holds it)");
    return std::move(*bytes);
}

// Fixed options so glyph outlines and positions are identical on every machine.
cairo_font_options_t* make_font_options() {
    cairo_font_options_t* options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    return options;
}

struct Face {
    cairo_font_face_t* cairo = nullptr;
    hb_font_t* hb = nullptr;
    double units_per_em = 1000, ascender = 0, descender = 0;  // font units; descender > 0
};

Face load_face(FT_Library library, const std::string& path, const std::string& bytes) {
    FT_Face ft = nullptr;
    if (FT_New_Face(library, path.c_str(), 0, &ft) != 0) {
        throw SystemError("cannot load font " + path + ": FreeType rejected it");
    }
    FT_Reference_Library(library);
    Face face;
    face.cairo = cairo_ft_font_face_create_for_ft_face(ft, FT_LOAD_NO_HINTING);
    cairo_font_face_set_user_data(face.cairo, &ft_owner_key, new FtOwner{library, ft}, release_ft);

    hb_blob_t* blob = hb_blob_create(bytes.data(), static_cast<unsigned>(bytes.size()),
                                     HB_MEMORY_MODE_DUPLICATE, nullptr, nullptr);
    hb_face_t* hb_face = hb_face_create(blob, 0);
    hb_blob_destroy(blob);
    face.hb = hb_font_create(hb_face);
    hb_face_destroy(hb_face);
    const auto upem = static_cast<int>(hb_face_get_upem(hb_font_get_face(face.hb)));
    hb_font_set_scale(face.hb, upem, upem);
    hb_font_extents_t extents{};
    hb_font_get_h_extents(face.hb, &extents);
    face.units_per_em = upem;
    face.ascender = extents.ascender;
    face.descender = -extents.descender;
    return face;
}

std::string cache_key(std::string_view utf8, const story::TextStyle& style) {
    std::string key;
    key.reserve(utf8.size() + 2);
    key += static_cast<char>('0' + static_cast<int>(style.weight));
    key += style.tabular ? 't' : 'p';
    key += utf8;
    return key;
}

// Cairo clusters (glyph runs with the UTF-8 bytes they came from), from HarfBuzz's byte
// offsets; left-to-right shaping keeps the offsets increasing.
std::vector<cairo_text_cluster_t> clusters_of(const hb_glyph_info_t* info, unsigned count,
                                              std::size_t text_bytes) {
    std::vector<cairo_text_cluster_t> clusters;
    std::vector<std::size_t> starts;
    for (unsigned i = 0; i < count; ++i) {
        if (i == 0 || info[i].cluster != info[i - 1].cluster) {
            clusters.push_back({0, 0});
            starts.push_back(info[i].cluster);
        }
        ++clusters.back().num_glyphs;
    }
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : text_bytes;
        clusters[k].num_bytes = static_cast<int>(end - starts[k]);
    }
    return clusters;
}

Shaped shape(hb_font_t* font, std::string_view utf8, bool tabular) {
    hb_buffer_t* buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, utf8.data(), static_cast<int>(utf8.size()), 0,
                       static_cast<int>(utf8.size()));
    hb_buffer_set_direction(buffer, HB_DIRECTION_LTR);
    hb_buffer_set_script(buffer, HB_SCRIPT_LATIN);
    hb_buffer_set_language(buffer, hb_language_from_string("en", -1));
    const hb_feature_t features[] = {
        {HB_TAG('k', 'e', 'r', 'n'), 1, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END},
        {HB_TAG('l', 'i', 'g', 'a'), 1, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END},
        {HB_TAG('c', 'a', 'l', 't'), 1, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END},
        {HB_TAG('t', 'n', 'u', 'm'), tabular ? 1u : 0u, HB_FEATURE_GLOBAL_START,
         HB_FEATURE_GLOBAL_END},
    };
    hb_shape(font, buffer, features, std::size(features));

    unsigned count = 0;
    const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buffer, &count);
    const hb_glyph_position_t* pos = hb_buffer_get_glyph_positions(buffer, &count);
    Shaped out;
    out.glyphs.reserve(count);
    double pen = 0;
    for (unsigned i = 0; i < count; ++i) {
        out.glyphs.push_back({info[i].codepoint, pen + pos[i].x_offset, -1.0 * pos[i].y_offset});
        pen += pos[i].x_advance;
    }
    out.advance = pen;
    out.clusters = clusters_of(info, count, utf8.size());
    hb_buffer_destroy(buffer);
    return out;
}

}  // namespace

struct Fonts::Impl {
    std::array<Face, face_files.size()> faces;
    cairo_font_options_t* options = make_font_options();
    std::string digest;
    mutable std::mutex mutex;
    mutable std::unordered_map<std::string, std::shared_ptr<const Shaped>> cache;

    const Face& face(story::Weight w) const { return faces[static_cast<std::size_t>(w)]; }

    std::shared_ptr<const Shaped> shaped(std::string_view utf8,
                                         const story::TextStyle& style) const {
        std::string key = cache_key(utf8, style);
        const std::lock_guard lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
        if (cache.size() >= max_cached_shapes) cache.clear();
        auto result =
            std::make_shared<const Shaped>(shape(face(style.weight).hb, utf8, style.tabular));
        cache.emplace(std::move(key), result);
        return result;
    }

    ~Impl() {
        for (Face& f : faces) {
            hb_font_destroy(f.hb);
            cairo_font_face_destroy(f.cairo);
        }
        cairo_font_options_destroy(options);
    }
};

Fonts::Fonts(const std::string& font_dir) : impl_(std::make_unique<Impl>()) {
    FT_Library library = nullptr;
    if (FT_Init_FreeType(&library) != 0) throw SystemError("cannot initialise FreeType");
    XXH3_state_t* hash = XXH3_createState();
    XXH3_64bits_reset(hash);
    try {
        for (std::size_t i = 0; i < face_files.size(); ++i) {
            const std::string path = (std::filesystem::path(font_dir) / face_files[i]).string();
            const std::string bytes = read_font(path);
            XXH3_64bits_update(hash, bytes.data(), bytes.size());
            impl_->faces[i] = load_face(library, path, bytes);
        }
    } catch (...) {
        XXH3_freeState(hash);
        FT_Done_Library(library);
        throw;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(XXH3_64bits_digest(hash)));
    impl_->digest = hex;
    XXH3_freeState(hash);
    FT_Done_Library(library);  // the faces hold their own references
}

Fonts::~Fonts() = default;

story::TextExtent Fonts::measure(std::string_view utf8, const story::TextStyle& style) const {
    const Face& face = impl_->face(style.weight);
    const double scale = style.size / face.units_per_em;
    return {impl_->shaped(utf8, style)->advance * scale, face.ascender * scale,
            face.descender * scale};
}

void Fonts::draw(cairo_t* cr, std::string_view utf8, const story::TextStyle& style, double x,
                 double y) const {
    const Face& face = impl_->face(style.weight);
    const double scale = style.size / face.units_per_em;
    const auto shaped = impl_->shaped(utf8, style);
    std::vector<cairo_glyph_t> glyphs = shaped->glyphs;
    for (cairo_glyph_t& g : glyphs) {
        g.x = x + g.x * scale;
        g.y = y + g.y * scale;
    }
    cairo_set_font_face(cr, face.cairo);
    cairo_set_font_size(cr, style.size);
    cairo_set_font_options(cr, impl_->options);
    // Cairo 1.16 snaps image-surface glyphs to whole pixels, so moving or small text would
    // wobble; outlines keep exact positions. Vector surfaces get real text instead: the
    // clusters map glyphs back to the UTF-8, so PDF text stays selectable and searchable.
    if (cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE) {
        cairo_glyph_path(cr, glyphs.data(), static_cast<int>(glyphs.size()));
        cairo_fill(cr);
        return;
    }
    cairo_show_text_glyphs(cr, utf8.data(), static_cast<int>(utf8.size()), glyphs.data(),
                           static_cast<int>(glyphs.size()), shaped->clusters.data(),
                           static_cast<int>(shaped->clusters.size()), cairo_text_cluster_flags_t{});
}

std::string Fonts::digest() const { return impl_->digest; }

std::string default_font_dir() { return home_dir() + "/fonts"; }

}  // namespace render

// Shaped lines memoised per (text, weight, tabular, language), as runs in font units; measuring
// and drawing both read the same runs, so what is measured is what is drawn.
#include "render/draw/fonts.hpp"

#include <mutex>
#include <unordered_map>

#include "render/draw/face_table.hpp"
#include "render/draw/shape.hpp"
#include "render/sys/files.hpp"

namespace render {
namespace {

// Bounds memory when numbers count on screen: every frame may show a new string.
constexpr std::size_t max_cached_shapes = 4096;

using Shaped = std::vector<ShapedRun>;

// Fixed options so glyph outlines and positions are identical on every machine.
cairo_font_options_t* make_font_options() {
    cairo_font_options_t* options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    return options;
}

std::string cache_key(std::string_view utf8, const story::TextStyle& style) {
    std::string key;
    key.reserve(utf8.size() + style.lang.size() + 3);
    key += static_cast<char>('0' + static_cast<int>(style.weight));
    key += style.tabular ? 't' : 'p';
    key += style.lang;
    key += '\0';
    key += utf8;
    return key;
}

}  // namespace

struct Fonts::Impl {
    FaceTable faces;
    cairo_font_options_t* options = make_font_options();
    mutable std::mutex mutex;
    mutable std::unordered_map<std::string, std::shared_ptr<const Shaped>> cache;

    Impl(const std::string& font_dir, const std::vector<std::string>& fallback_dirs)
        : faces(font_dir, fallback_dirs) {}
    ~Impl() { cairo_font_options_destroy(options); }

    std::shared_ptr<const Shaped> shaped(std::string_view utf8,
                                         const story::TextStyle& style) const {
        std::string key = cache_key(utf8, style);
        const std::lock_guard lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
        if (cache.size() >= max_cached_shapes) cache.clear();
        auto result = std::make_shared<const Shaped>(shape_line(utf8, style, faces));
        cache.emplace(std::move(key), result);
        return result;
    }

    // Pixels per font unit of the run's face at style's size.
    double scale(const ShapedRun& run, const story::TextStyle& style) const {
        return style.size / faces.face(run.face).units_per_em;
    }
};

Fonts::Fonts(const std::string& font_dir, const std::vector<std::string>& fallback_dirs)
    : impl_(std::make_unique<Impl>(font_dir, fallback_dirs)) {}

Fonts::~Fonts() = default;

story::TextExtent Fonts::measure(std::string_view utf8, const story::TextStyle& style) const {
    double advance = 0;
    const auto shaped = impl_->shaped(utf8, style);  // held: another thread may clear the cache
    for (const ShapedRun& run : *shaped) advance += run.advance * impl_->scale(run, style);
    const Face& inter = impl_->faces.face(FaceTable::inter(style.weight));
    const double scale = style.size / inter.units_per_em;
    return {advance, inter.ascender * scale, inter.descender * scale};
}

// Each run in its own face, one after another from x. Cairo 1.16 snaps image-surface glyphs to
// whole pixels, so moving or small text would wobble; outlines keep exact positions, filled
// once for the whole line. Vector surfaces get real text instead: each run's clusters map its
// glyphs back to its UTF-8, so PDF text stays selectable and searchable.
void Fonts::draw(cairo_t* cr, std::string_view utf8, const story::TextStyle& style, double x,
                 double y) const {
    const bool outlines = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE;
    double pen = 0;
    const auto shaped = impl_->shaped(utf8, style);
    for (const ShapedRun& run : *shaped) {
        const double scale = impl_->scale(run, style);
        std::vector<cairo_glyph_t> glyphs = run.glyphs;
        for (cairo_glyph_t& g : glyphs) {
            g.x = x + pen + g.x * scale;
            g.y = y + g.y * scale;
        }
        pen += run.advance * scale;
        cairo_set_font_face(cr, impl_->faces.face(run.face).cairo);
        cairo_set_font_size(cr, style.size);
        cairo_set_font_options(cr, impl_->options);
        if (outlines) {
            cairo_glyph_path(cr, glyphs.data(), static_cast<int>(glyphs.size()));
            continue;
        }
        cairo_show_text_glyphs(
            cr, utf8.data() + run.begin, static_cast<int>(run.end - run.begin), glyphs.data(),
            static_cast<int>(glyphs.size()), run.clusters.data(),
            static_cast<int>(run.clusters.size()),
            run.rtl ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t{});
    }
    if (outlines) cairo_fill(cr);
}

std::vector<GlyphRun> Fonts::runs(std::string_view utf8, const story::TextStyle& style) const {
    std::vector<GlyphRun> out;
    const auto shaped = impl_->shaped(utf8, style);
    for (const ShapedRun& run : *shaped) {
        const Face& face = impl_->faces.face(run.face);
        GlyphRun r{face.file, face.family, run.rtl, run.begin, run.end, {}};
        for (const cairo_glyph_t& g : run.glyphs) r.glyphs.push_back(g.index);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<std::string> Fonts::missing_scripts() const { return impl_->faces.missing_scripts(); }

std::string Fonts::digest() const { return impl_->faces.digest(); }

std::vector<std::string> Fonts::default_fallback_dirs() { return noto_dirs(); }

std::string default_font_dir() { return home_dir() + "/fonts"; }

}  // namespace render

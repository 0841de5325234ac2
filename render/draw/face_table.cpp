// Faces through FreeType (for Cairo, which embeds them in SVG and PDF) and HarfBuzz (for
// shaping). Inter is read whole (its bytes are hashed); a fallback is mapped from its file by
// HarfBuzz and opened by FreeType only when a character needs it, so Latin text never touches
// the 20 MB CJK collections.
#include "render/draw/face_table.hpp"

#include <cairo-ft.h>
#include <ft2build.h>
#include <hb-ot.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <optional>
#include FT_FREETYPE_H
#include FT_MODULE_H

#include "render/sys/error.hpp"
#include "render/sys/files.hpp"
#include "render/sys/hash.hpp"

namespace render {
namespace {

constexpr std::array<const char*, 3> inter_files = {"Inter-Regular.otf", "Inter-Medium.otf",
                                                    "Inter-SemiBold.otf"};

// Cairo may keep a font face alive in its caches after the table is gone, so each face owns a
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

// The typographic family (name 16), else the family (name 1): "Noto Sans CJK JP".
std::string family_of(hb_face_t* face) {
    for (const hb_ot_name_id_t id : {HB_OT_NAME_ID_TYPOGRAPHIC_FAMILY, HB_OT_NAME_ID_FONT_FAMILY}) {
        std::array<char, 256> name{};
        unsigned size = name.size();
        if (hb_ot_name_get_utf8(face, id, HB_LANGUAGE_INVALID, &size, name.data()) > 0)
            return name.data();
    }
    return "";
}

// The index of the collection's face of that family (the first face when family is empty).
unsigned index_of(hb_blob_t* blob, const std::string& family, const std::string& path) {
    if (family.empty()) return 0;
    for (unsigned i = 0, n = hb_face_count(blob); i < n; ++i) {
        hb_face_t* face = hb_face_create(blob, i);
        const bool found = family_of(face) == family;
        hb_face_destroy(face);
        if (found) return i;
    }
    throw SystemError("cannot load font " + path + ": it has no face named " + family);
}

// The face at index of the file at path, whose bytes HarfBuzz reads from blob (owned by the
// caller).
Face load_face(FT_Library library, const std::string& path, hb_blob_t* blob, unsigned index) {
    FT_Face ft = nullptr;
    if (FT_New_Face(library, path.c_str(), index, &ft) != 0) {
        throw SystemError("cannot load font " + path + ": FreeType rejected it");
    }
    FT_Reference_Library(library);
    Face face;
    face.cairo = cairo_ft_font_face_create_for_ft_face(ft, FT_LOAD_NO_HINTING);
    cairo_font_face_set_user_data(face.cairo, &ft_owner_key, new FtOwner{library, ft}, release_ft);

    hb_face_t* hb_face = hb_face_create(blob, index);
    face.family = family_of(hb_face);
    face.hb = hb_font_create(hb_face);
    hb_face_destroy(hb_face);
    const auto upem = static_cast<int>(hb_face_get_upem(hb_font_get_face(face.hb)));
    hb_font_set_scale(face.hb, upem, upem);
    hb_font_extents_t extents{};
    hb_font_get_h_extents(face.hb, &extents);
    face.units_per_em = upem;
    face.ascender = extents.ascender;
    face.descender = -extents.descender;
    face.file = std::filesystem::path(path).filename().string();
    return face;
}

void destroy(Face& f) {
    hb_font_destroy(f.hb);
    cairo_font_face_destroy(f.cairo);
}

std::string hex64(std::uint64_t v) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(v));
    return hex;
}

FT_Library ft(void* library) { return static_cast<FT_Library>(library); }

}  // namespace

bool Face::has(std::uint32_t c) const {
    hb_codepoint_t glyph = 0;
    return hb_font_get_nominal_glyph(hb, c, &glyph) != 0;
}

FaceTable::FaceTable(const std::string& font_dir, const std::vector<std::string>& fallback_dirs)
    : fallbacks_(find_fallbacks(fallback_dirs)) {
    FT_Library library = nullptr;
    if (FT_Init_FreeType(&library) != 0) throw SystemError("cannot initialise FreeType");
    library_ = library;
    XXH3_state_t* hash = XXH3_createState();
    XXH3_64bits_reset(hash);
    try {
        for (const char* file : inter_files) {
            const std::string path = (std::filesystem::path(font_dir) / file).string();
            const std::string bytes = read_font(path);
            XXH3_64bits_update(hash, bytes.data(), bytes.size());
            hb_blob_t* blob = hb_blob_create(bytes.data(), static_cast<unsigned>(bytes.size()),
                                             HB_MEMORY_MODE_DUPLICATE, nullptr, nullptr);
            inter_.push_back(load_face(library, path, blob, 0));
            hb_blob_destroy(blob);
        }
    } catch (...) {
        XXH3_freeState(hash);
        for (Face& f : inter_) destroy(f);
        FT_Done_Library(library);
        throw;
    }
    inter_hash_ = XXH3_64bits_digest(hash);
    XXH3_freeState(hash);
    // One slot for each distinct (file, regional family) any weight and language may ask for.
    for (const Fallback& f : fallbacks_) {
        for (const std::string& path : f.files) {
            for (const std::string& family :
                 f.collection ? cjk_families() : std::vector<std::string>{""}) {
                const bool seen = std::any_of(slots_.begin(), slots_.end(), [&](const auto& s) {
                    return s->path == path && s->family == family;
                });
                if (!path.empty() && !seen) {
                    slots_.push_back(std::make_unique<Slot>());
                    slots_.back()->path = path;
                    slots_.back()->family = family;
                }
            }
        }
    }
}

FaceTable::~FaceTable() {
    for (Face& f : inter_) destroy(f);
    for (const auto& f : loaded_) destroy(*f);
    FT_Done_Library(ft(library_));  // faces Cairo still caches hold their own references
}

const Face& FaceTable::face(std::size_t id) const {
    if (id < inter_.size()) return inter_[id];
    return load(*slots_.at(id - inter_.size()));
}

const Face& FaceTable::load(const Slot& slot) const {
    if (const Face* f = slot.face.load(std::memory_order_acquire)) return *f;
    const std::lock_guard lock(load_mutex_);
    if (const Face* f = slot.face.load(std::memory_order_relaxed)) return *f;
    hb_blob_t* blob = hb_blob_create_from_file_or_fail(slot.path.c_str());
    if (!blob) throw SystemError("cannot read font " + slot.path);
    try {
        loaded_.push_back(std::make_unique<Face>(
            load_face(ft(library_), slot.path, blob, index_of(blob, slot.family, slot.path))));
    } catch (...) {
        hb_blob_destroy(blob);
        throw;
    }
    hb_blob_destroy(blob);
    slot.face.store(loaded_.back().get(), std::memory_order_release);
    return *loaded_.back();
}

std::size_t FaceTable::slot_of(std::size_t fallback, story::Weight w, std::string_view lang) const {
    const Fallback& f = fallbacks_[fallback];
    const std::string& path = f.files[static_cast<std::size_t>(w)];
    const std::string family = f.collection ? cjk_family(lang) : "";
    for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i]->path == path && slots_[i]->family == family) return inter_.size() + i;
    return SIZE_MAX;
}

std::size_t FaceTable::fallback_for(std::uint32_t c, hb_script_t script, story::Weight w,
                                    std::string_view lang) const {
    // The script's own fallback first, then the others in table order.
    std::vector<std::size_t> order(fallbacks_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) {
        const auto& scripts = fallbacks_[i].scripts;
        return std::find(scripts.begin(), scripts.end(), script) != scripts.end();
    });
    for (const std::size_t i : order) {
        if (fallbacks_[i].files[0].empty()) continue;
        const std::size_t id = slot_of(i, w, lang);
        if (face(id).has(c)) return id;
    }
    return inter(w);
}

std::vector<std::size_t> FaceTable::faces_for(const std::vector<std::uint32_t>& chars,
                                              const std::vector<hb_script_t>& scripts,
                                              story::Weight w, std::string_view lang) const {
    const std::size_t primary = inter(w);
    std::vector<std::size_t> faces(chars.size(), primary);
    std::vector<hb_codepoint_t> glyphs(chars.size());
    hb_unicode_funcs_t* ucd = hb_unicode_funcs_get_default();
    // HarfBuzz looks up every character Inter has in one call, up to the first it lacks.
    for (std::size_t i = 0; i < chars.size(); ++i) {
        i += hb_font_get_nominal_glyphs(inter_[primary].hb, chars.size() - i, &chars[i],
                                        sizeof(std::uint32_t), &glyphs[i], sizeof(hb_codepoint_t));
        if (i == chars.size()) break;
        const bool mark = i > 0 && hb_unicode_script(ucd, chars[i]) == HB_SCRIPT_INHERITED &&
                          face(faces[i - 1]).has(chars[i]);
        faces[i] = mark ? faces[i - 1] : fallback_for(chars[i], scripts[i], w, lang);
    }
    return faces;
}

std::vector<std::string> FaceTable::missing_scripts() const {
    std::vector<std::string> out;
    for (const Fallback& f : fallbacks_)
        if (f.files[0].empty()) out.push_back(f.name);
    return out;
}

std::string FaceTable::digest() const {
    std::call_once(digest_once_, [this] {
        std::string inputs = hex64(inter_hash_);
        for (const Fallback& f : fallbacks_) {
            for (std::size_t w = 0; w < f.files.size(); ++w) {
                const std::string& path = f.files[w];
                if (path.empty() ||
                    std::find(f.files.begin(), f.files.begin() + w, path) != f.files.begin() + w)
                    continue;
                std::string error;
                const std::optional<std::string> file = file_digest(path, error);
                if (!file) throw SystemError("cannot read font " + path + ": " + error);
                inputs += " " + *file;
            }
        }
        digest_ = hex64(XXH3_64bits(inputs.data(), inputs.size()));
    });
    return digest_;
}

}  // namespace render

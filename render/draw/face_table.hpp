// Every face text is drawn with: Inter's three weights from fonts/ (required, loaded up front)
// and the Noto fallbacks (optional, each loaded the first time a character needs it), through
// FreeType for Cairo and HarfBuzz for shaping, and which of them draws a character.
#pragma once
#include <cairo.h>
#include <hb.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "render/draw/font_fallback.hpp"
#include "story/scene/scene.hpp"

namespace render {

struct Face {
    cairo_font_face_t* cairo = nullptr;
    hb_font_t* hb = nullptr;
    double units_per_em = 1000, ascender = 0, descender = 0;  // font units; descender > 0
    std::string file, family;  // "NotoSansCJK-Regular.ttc", "Noto Sans CJK JP"
    bool has(std::uint32_t c) const;
};

class FaceTable {
  public:
    // Throws SystemError when an Inter face is missing or broken.
    FaceTable(const std::string& font_dir, const std::vector<std::string>& fallback_dirs);
    ~FaceTable();
    FaceTable(const FaceTable&) = delete;
    FaceTable& operator=(const FaceTable&) = delete;

    static std::size_t inter(story::Weight w) { return static_cast<std::size_t>(w); }
    // The face that draws each character of a line at weight w in language lang, given each
    // one's script as shaped (a common character's is the script around it): Inter's when Inter
    // has it; else, for a combining mark, its base character's face when that has it (so the
    // mark sits on its base); else the fallback for its script, then any other fallback, that
    // has it; else Inter's, whose .notdef marks the missing glyph. Throws SystemError when a
    // fallback it tries cannot be loaded.
    std::vector<std::size_t> faces_for(const std::vector<std::uint32_t>& chars,
                                       const std::vector<hb_script_t>& scripts, story::Weight w,
                                       std::string_view lang) const;
    const Face& face(std::size_t id) const;  // an id faces_for or inter returned
    // The fallbacks that have no file, by name ("Arabic", "CJK", ...).
    std::vector<std::string> missing_scripts() const;
    // XXH3-64 of Inter's files and of every fallback file found (read when first asked).
    std::string digest() const;

  private:
    struct Slot {  // a fallback face, loaded on first use
        std::string path, family;
        mutable std::atomic<const Face*> face{nullptr};
    };
    const Face& load(const Slot& slot) const;
    std::size_t fallback_for(std::uint32_t c, hb_script_t script, story::Weight w,
                             std::string_view lang) const;
    std::size_t slot_of(std::size_t fallback, story::Weight w, std::string_view lang) const;

    void* library_ = nullptr;  // FT_Library
    std::vector<Face> inter_;
    std::vector<Fallback> fallbacks_;
    std::vector<std::unique_ptr<Slot>> slots_;  // their ids follow Inter's
    mutable std::mutex load_mutex_;
    mutable std::vector<std::unique_ptr<Face>> loaded_;
    std::uint64_t inter_hash_ = 0;
    mutable std::once_flag digest_once_;
    mutable std::string digest_;
};

}  // namespace render

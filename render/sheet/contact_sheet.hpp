// A contact sheet: every chapter at its beats (and its end) as thumbnails in one PNG grid, or as
// PNG stills beside an HTML page that also shows each moment's caption, for reviewing a film.
#pragma once
#include <string>
#include <vector>

#include "render/draw/fonts.hpp"
#include "render/sys/cancel.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

struct Shot {
    std::size_t chapter = 0;  // index into the storyboard's chapters
    int frame = 0;            // chapter frame; t = frame / fps
    int film_frame = 0;       // frame of the whole film
    std::string caption;      // the `say:` showing then, or empty
};

// Moments worth a look, in film order, one per distinct frame. every_seconds == 0: each beat
// once it settles (at + over + 0.5 s, before the next beat) and each chapter's last frame;
// otherwise every every_seconds from each chapter's start, and its last frame.
std::vector<Shot> pick_shots(const story::Storyboard& board, int fps, double every_seconds);

// "1:05.3": film time of a frame.
std::string film_timestamp(int film_frame, int fps);

struct SheetLayout {
    int columns = 4, thumb_width = 480, thumb_height = 270;
    int margin = 24, gap = 16, label_height = 40, header_height = 72;
    int width() const { return 2 * margin + columns * thumb_width + (columns - 1) * gap; }
    int height(std::size_t shots) const;
};

// The PNG grid (through a temporary file). Throws SystemError, or Interrupted once `cancel` is
// tripped (checked before each shot).
void write_sheet_png(const story::Storyboard& board, const story::Video& video,
                     const std::vector<Shot>& shots, const std::string& output, const Fonts& fonts,
                     const CancelToken& cancel, const SheetLayout& layout = {});

// NAME.html and its stills in NAME_files/ (a temporary directory renamed into place).
void write_sheet_html(const story::Storyboard& board, const story::Video& video,
                      const std::vector<Shot>& shots, const std::string& output, const Fonts& fonts,
                      const CancelToken& cancel);

}  // namespace render

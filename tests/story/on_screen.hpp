// Reading a chapter's scene as a viewer does: a readout counts only under or beside its label
// (the stat panel's "Per card", a legend's number, a table cell, a card's tags), not merely
// somewhere on screen. Boxes come from the approximate metrics the story tests lay out with.
#pragma once
#include <string>
#include <vector>

#include "story/scene/scene.hpp"

namespace on_screen {

using Lines = std::vector<std::string>;

// A fully visible text (opacity > 0.99) and the box it covers in the authoring space.
struct Shown {
    std::string text;
    double left = 0, right = 0, top = 0, bottom = 0, size = 0;
    double middle() const { return (top + bottom) / 2; }
};
std::vector<Shown> shown(const story::Scene& s);

// How many times text is shown: that a card's name is drawn once, or that a row is not drawn yet
// (where another state shows it). Readouts are read by place, below.
long count(const story::Scene& s, const std::string& text);

// Each reader below wants `label` shown exactly once. What it finds is returned as text; when it
// finds nothing it returns a note in parentheses saying why, so a failed CHECK shows the reason.

// The nearest text below the label that overlaps it horizontally (a card's gauge, a stat value).
std::string under(const story::Scene& s, const std::string& label);
// The nearest text above the label that overlaps it horizontally (the caption over a row of cards).
std::string above(const story::Scene& s, const std::string& label);
// The texts stacked under the label, top down, each at most max_gap of its own size of blank
// space below the one above (a stat's value and detail, a card's tags).
Lines column_under(const story::Scene& s, const std::string& label, double max_gap = 1);
// The column under a heading as rows, top down, each left to right: every text below the heading
// whose centre lies within its width, above the caption band (a column of cards with their chips,
// the note at its foot).
std::vector<Lines> rows_under(const story::Scene& s, const std::string& heading);
// The nearest text to the right of the label on its line (a legend's number, a link's speed).
std::string beside(const story::Scene& s, const std::string& label);
// Every text to the right of the label on its line, left to right (a table row).
Lines row_beside(const story::Scene& s, const std::string& label);
// The text on `row`'s line under the nearest `column` heading above that row.
std::string cell(const story::Scene& s, const std::string& row, const std::string& column);
// The texts on the frame's lowest line, left to right (a burned caption's last line).
Lines lowest_line(const story::Scene& s);
// The stat panel's value (and detail) for label: the column under its topmost occurrence, since
// the panel sits in the title band above anything a chapter draws.
Lines stat(const story::Scene& s, const std::string& label);

}  // namespace on_screen

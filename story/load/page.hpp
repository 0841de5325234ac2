// `page:`: the article page's own text around the chapters, its lede, questions and glossary.
#pragma once
#include "story/load/fields.hpp"
#include "story/storyboard/storyboard.hpp"

namespace story::load {

// {lede, questions: [{q, a}], glossary: [{term, means}]}, in the film's language.
PageText read_page(Context& ctx, const Entry& e);

}  // namespace story::load

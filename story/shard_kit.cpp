// Shared drawing helpers of the data-parallel chapters; see shard_kit.hpp.
#include "story/shard_kit.hpp"

#include <algorithm>
#include <cmath>

#include "story/easing.hpp"
#include "story/layout.hpp"

namespace story {

std::vector<MemorySegment> states_stack(const Palette& p, double weights, double gradients,
                                        double optimizer, double activations) {
    return {{weights, p.weights},
            {gradients, p.gradients},
            {optimizer, p.optimizer},
            {activations, p.activations}};
}

}  // namespace story

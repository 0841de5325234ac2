// SIGINT/SIGTERM become a flag the render loop polls, so it can abort sinks and exit 130
// with no partial output left behind.
#pragma once

namespace render {

void install_interrupt_handlers();
bool interrupted();

struct Interrupted {};  // thrown by the render loop when the flag is seen

}  // namespace render

#include "pipeline/program.h"

namespace commsim {

std::string describe(const P2POp& op) {
  return std::string(op.direction == P2POp::Direction::kForward ? "activation" : "gradient") +
         " of micro-batch " + std::to_string(op.microbatch) + " between stages " + std::to_string(op.boundary) +
         " and " + std::to_string(op.boundary + 1);
}

DeviceProgram stored_program(const ProgramSource& programs, std::uint32_t device) {
  DeviceProgram program;
  for (std::size_t i = 0; i < programs.length(device); ++i) {
    if (std::optional<Action> action = programs.at(device, i)) program.push_back(std::move(*action));
  }
  return program;
}

}  // namespace commsim

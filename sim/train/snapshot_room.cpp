#include "sim/train/snapshot_room.hpp"

#include "sim/core/text.hpp"

namespace llsim {

void require_snapshot_room(const Params& p, const std::string& share_key, const CheckpointMode::Context& c,
                           double needed_B, const std::string& what)
{
  const double room = p.quantity(share_key) * c.nodes.memory_B;
  if (needed_B <= room)
    return;
  const int digits = digits_to_tell_apart(needed_B, room, format_bytes);
  p.fail(share_key, what + " needs " + format_bytes(needed_B, digits) + " of host memory but group '" + c.nodes.name +
                        "' allows " + format_bytes(room, digits) + " (memory x " + share_key + ")");
}

}  // namespace llsim

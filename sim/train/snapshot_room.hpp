// Host memory a snapshot needs: checkpoint modes that keep state in host memory (async, the
// memory tier of multilevel) refuse a node whose share of it does not fit.
#pragma once
#include "sim/core/params.hpp"
#include "sim/train/checkpoint_mode.hpp"

#include <string>

namespace llsim {

// Fails `p`'s `share_key` unless `needed_B` fits in share x the nodes' memory; `what` says what
// takes the room (for the message).
void require_snapshot_room(const Params& p, const std::string& share_key, const CheckpointMode::Context& c,
                           double needed_B, const std::string& what);

}  // namespace llsim

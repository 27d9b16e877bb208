// What a host group costs and draws, `platform.groups.<name>.cost` and `.power`, read by the
// accounting after the run (sim/accounting/accounting.hpp):
//
//   cost:  {per_hour: 3.2}         per host and hour it is allocated, in the scenario's currency
//   cost:  {per_gpu_hour: 2.5}     or per GPU and hour (GPU groups only)
//   power: {idle: 300W, busy: 600W}   one host without its GPUs, idle and at work (busy: idle's)
//
// A GPU's own draw is its catalogue entry's `tdp` while busy and `idle` otherwise (gpu_spec.hpp).
#pragma once
#include "sim/core/params.hpp"

#include <string>

namespace llsim {

struct GroupCost {
  double per_host_hour = 0;  // what the accounting multiplies by host-hours
  std::string basis;         // "per_hour", "per_gpu_hour" or "" (no price given)
  double given = 0;          // the figure as written, per host or per GPU
};

struct GroupPower {
  double idle_W = 0;  // one host, GPUs aside
  double busy_W = 0;
};

const ParamTable& group_cost_params();
const ParamTable& group_power_params();
// `gpus`: GPUs per host (0 for none); per_gpu_hour on a group without GPUs is a located error.
GroupCost parse_group_cost(const Params& p, int64_t gpus);
GroupPower parse_group_power(const Params& p);

}  // namespace llsim

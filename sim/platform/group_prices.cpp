#include "sim/platform/group_prices.hpp"

#include "sim/core/units.hpp"

namespace llsim {

const ParamTable& group_cost_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("per_hour", Dimension::Number, "price of one host for one hour allocated (currency)")
          .at_least(0)
          .at_most(1e12)
          .may_be_absent(),
      ParamSpec::quantity("per_gpu_hour", Dimension::Number,
                          "price of one GPU for one hour allocated (currency); instead of per_hour, GPU groups only")
          .at_least(0)
          .at_most(1e12)
          .may_be_absent(),
  };
  return t;
}

const ParamTable& group_power_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("idle", Dimension::Power, "draw of one host while idle, its GPUs aside").at_least(0),
      ParamSpec::quantity("busy", Dimension::Power,
                          "draw of one host at work (its GPUs computing, its cores running tasks, its disks or "
                          "threads serving), its GPUs aside; absent: idle's")
          .at_least(0)
          .may_be_absent(),
  };
  return t;
}

GroupCost parse_group_cost(const Params& p, int64_t gpus)
{
  GroupCost c;
  if (p.has("per_hour") && p.has("per_gpu_hour"))
    p.fail("per_gpu_hour", "give per_hour or per_gpu_hour, not both");
  if (p.has("per_hour")) {
    c.basis         = "per_hour";
    c.given         = p.quantity("per_hour");
    c.per_host_hour = c.given;
  } else if (p.has("per_gpu_hour")) {
    if (gpus == 0)
      p.fail("per_gpu_hour", "the group has no GPUs: give per_hour");
    c.basis         = "per_gpu_hour";
    c.given         = p.quantity("per_gpu_hour");
    c.per_host_hour = c.given * static_cast<double>(gpus);
  }
  return c;
}

GroupPower parse_group_power(const Params& p)
{
  GroupPower w;
  w.idle_W = p.quantity("idle");
  w.busy_W = p.has("busy") ? p.quantity("busy") : w.idle_W;
  if (w.busy_W < w.idle_W)
    p.fail("busy",
           "a host at work draws at least what it draws idle (" + format_quantity(w.idle_W, Dimension::Power) + ")");
  return w;
}

}  // namespace llsim

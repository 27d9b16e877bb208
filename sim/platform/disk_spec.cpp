#include "sim/platform/disk_spec.hpp"

namespace llsim {

const ParamTable& disk_params()
{
  static const ParamTable t = {
      ParamSpec::integer("count", "disks per host").defaults("1").at_least(1),
      ParamSpec::text("preset", "a drive of the catalogue (llsim models lists them): its figures fill the keys not "
                                "given")
          .may_be_absent(),
      ParamSpec::quantity("read", Dimension::Bandwidth, "read bandwidth of one disk (required without a preset)")
          .may_be_absent()
          .positive(),
      ParamSpec::quantity("write", Dimension::Bandwidth, "write bandwidth of one disk (required without a preset)")
          .may_be_absent()
          .positive(),
      ParamSpec::quantity("capacity", Dimension::Size, "capacity of one disk (required without a preset)")
          .may_be_absent()
          .positive(),
      ParamSpec::quantity("latency", Dimension::Duration,
                          "time one I/O waits before its bytes move (seek, flash or NVM access); requests in "
                          "service wait theirs at the same time")
          .defaults("0s")
          .at_least(0),
      ParamSpec::integer("parallelism",
                         "requests one disk serves at once: an NVMe drive's outstanding commands, 1 for a hard disk")
          .defaults("1")
          .at_least(1),
      ParamSpec::quantity("read_iops", Dimension::Rate, "reads one disk starts per second at most (0: no limit)")
          .defaults("0/s")
          .at_least(0),
      ParamSpec::quantity("write_iops", Dimension::Rate, "writes one disk starts per second at most (0: no limit)")
          .defaults("0/s")
          .at_least(0),
  };
  return t;
}

DiskSpec parse_disks(const Params& p)
{
  if (p.has("preset"))
    apply_preset(p, disk_presets(), "drive");
  for (const char* key : {"read", "write", "capacity"})
    if (!p.has(key))
      p.ref().fail(std::string("missing required key '") + key + "' (a figure of one disk), or give a preset");
  DiskSpec d;
  d.count       = p.integer("count");
  d.read_Bps    = p.quantity("read");
  d.write_Bps   = p.quantity("write");
  d.capacity_B  = p.quantity("capacity");
  d.latency_s   = p.quantity("latency");
  d.parallelism = p.integer("parallelism");
  d.read_iops   = p.quantity("read_iops");
  d.write_iops  = p.quantity("write_iops");
  return d;
}

}  // namespace llsim

#include "sim/mw/task_checkpointing.hpp"

namespace llsim {

ParamSpec checkpoint_interval_param()
{
  return ParamSpec::quantity("interval", Dimension::Duration, "compute time between two checkpoints of a task")
      .defaults("10min")
      .positive();
}

ParamSpec checkpoint_size_param()
{
  return ParamSpec::quantity("size", Dimension::Size, "bytes of one checkpoint").at_least(0);
}

ParamSpec checkpoint_storage_param()
{
  return ParamSpec::text("storage", "storage service the checkpoints are written to");
}

}  // namespace llsim

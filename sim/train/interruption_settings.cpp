#include "sim/train/interruption_settings.hpp"

#include "sim/core/distribution.hpp"

namespace llsim {

const ParamTable& restart_params()
{
  static const ParamTable t = {
      ParamSpec::distribution("delay", Dimension::Duration,
                              "from a failure to the restarted job reading its checkpoint (a duration or a "
                              "distribution, drawn at each restart)")
          .defaults("10min")
          .at_least(0),
      ParamSpec::integer("give_up_after", "failures in a row without a checkpoint or the end of training that "
                                          "stop the run (it cannot progress)")
          .defaults("1000")
          .at_least(1),
      ParamSpec::integer("spares", "spare hosts: a failed host is replaced by a free one, else the job waits "
                                   "for its repair (absent: always a spare)")
          .may_be_absent()
          .at_least(0),
      ParamSpec::quantity("swap_time", Dimension::Duration,
                          "to bring a spare host into the job, before the "
                          "restart delay")
          .defaults("0s")
          .at_least(0),
  };
  return t;
}

const ParamTable& maintenance_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("every", Dimension::Duration,
                          "time between planned stops, from the phase's start "
                          "(absent: none); each starts at the next checkpoint")
          .positive()
          .may_be_absent(),
      ParamSpec::quantity("duration", Dimension::Duration, "how long the job stops; it then reads its checkpoint")
          .defaults("1h")
          .at_least(0),
  };
  return t;
}

void read_interruption_settings(const Params& phase, TrainingSetup& setup)
{
  const Params restart      = phase.section("restart", restart_params());
  setup.restart_delay       = restart.distribution("delay");
  setup.give_up_after       = restart.integer("give_up_after");
  setup.spares              = restart.has("spares") ? restart.integer("spares") : -1;
  setup.swap_s              = restart.quantity("swap_time");
  const Params maintenance  = phase.section("maintenance", maintenance_params());
  setup.maintenance_every_s = maintenance.has("every") ? maintenance.quantity("every") : 0;
  setup.maintenance_s       = maintenance.quantity("duration");
}

}  // namespace llsim

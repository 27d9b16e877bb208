#include "sim/svc/journal_checkpoint.hpp"

namespace llsim {

const ParamTable& JournalCheckpoint::params()
{
  static const ParamTable t = {
      ParamSpec::quantity("every", Dimension::Size, "journal bytes between two checkpoints").defaults("1GB").positive(),
  };
  return t;
}

}  // namespace llsim

#include "sim/faults/fault_class.hpp"

namespace llsim {

const char* fault_class_name(FaultClass c)
{
  switch (c) {
  case FaultClass::Gpu:
    return "gpu";
  case FaultClass::Hbm:
    return "hbm";
  case FaultClass::Nic:
    return "nic";
  case FaultClass::Switch:
    return "switch";
  case FaultClass::Host:
    return "host";
  case FaultClass::Software:
    return "software";
  case FaultClass::Maintenance:
    return "maintenance";
  case FaultClass::Other:
    return "other";
  }
  return "other";
}

std::optional<FaultClass> parse_fault_class(const std::string& name)
{
  for (FaultClass c : kFaultClasses)
    if (name == fault_class_name(c))
      return c;
  return std::nullopt;
}

}  // namespace llsim

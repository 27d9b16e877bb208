// The classes a host's failures count under in the metrics (interruptions_<class>,
// lost_<class>_s): the components of a GPU server that fail most often in large training runs
// ("The Llama 3 herd of models", 2024, Table 5: faulty GPU, HBM, software, network switch or
// cable, host, NIC, ...) and planned maintenance. A fault model names finer causes of its own
// (FaultCause); each counts under one of these.
#pragma once
#include <array>
#include <optional>
#include <string>

namespace llsim {

enum class FaultClass { Gpu, Hbm, Nic, Switch, Host, Software, Maintenance, Other };

inline constexpr std::array<FaultClass, 8> kFaultClasses = {
    FaultClass::Gpu,  FaultClass::Hbm,      FaultClass::Nic,         FaultClass::Switch,
    FaultClass::Host, FaultClass::Software, FaultClass::Maintenance, FaultClass::Other};

// "gpu", "hbm", "nic", "switch", "host", "software", "maintenance", "other".
const char* fault_class_name(FaultClass c);
std::optional<FaultClass> parse_fault_class(const std::string& name);

}  // namespace llsim

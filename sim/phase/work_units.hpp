// The units of work a phase kind does, for the accounting's cost and energy per unit
// (cost_per_<name>, kwh_per_<name>: sim/accounting/accounting_metrics.hpp). A kind declares them
// beside its metrics, at namespace scope in its own file:
//
//   LLSIM_DECLARE_WORK_UNITS("transfer", {{"bytes", 1e12, "TB", "a TB written"}});
//
// A kind that declares none gets no per-unit figures.
#pragma once
#include <string>
#include <vector>

namespace llsim {

// `metric` / `divisor` units of the kind's summary metric `metric`, named `name`.
struct WorkUnit {
  const char* metric;
  double divisor;
  const char* name;
  const char* description;
};

// Called from a static initialiser, once per kind; a second declaration, or one after the first
// lookup, stops the program (an error in llsim's code).
bool declare_work_units(const std::string& phase_kind, std::vector<WorkUnit> units);
// Empty for a kind that declared none.
const std::vector<WorkUnit>& work_units(const std::string& phase_kind);

}  // namespace llsim

#define LLSIM_WORK_UNITS_CONCAT_INNER(a, b) a##b
#define LLSIM_WORK_UNITS_CONCAT(a, b) LLSIM_WORK_UNITS_CONCAT_INNER(a, b)
#define LLSIM_DECLARE_WORK_UNITS(kind, ...)                                                                            \
  static const bool LLSIM_WORK_UNITS_CONCAT(llsim_work_units_declared_, __LINE__) =                                    \
      ::llsim::declare_work_units(kind, __VA_ARGS__)

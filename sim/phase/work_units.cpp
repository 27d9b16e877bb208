#include "sim/phase/work_units.hpp"

#include <map>

namespace llsim {

namespace {

std::map<std::string, std::vector<WorkUnit>>& declared()
{
  static std::map<std::string, std::vector<WorkUnit>> map;
  return map;
}

}  // namespace

bool declare_work_units(const std::string& phase_kind, std::vector<WorkUnit> units)
{
  declared()[phase_kind] = std::move(units);
  return true;
}

const std::vector<WorkUnit>& work_units(const std::string& phase_kind)
{
  static const std::vector<WorkUnit> none;
  const auto it = declared().find(phase_kind);
  return it == declared().end() ? none : it->second;
}

}  // namespace llsim

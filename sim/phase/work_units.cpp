#include "sim/phase/work_units.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace llsim {

namespace {

struct Declared {
  std::map<std::string, std::vector<WorkUnit>> units;
  bool read = false;
};

Declared& declared()
{
  static Declared d;
  return d;
}

}  // namespace

bool declare_work_units(const std::string& phase_kind, std::vector<WorkUnit> units)
{
  // A mistake in llsim's own code, found as the program starts: no run could bill correctly.
  Declared& d = declared();
  if (d.read || !d.units.emplace(phase_kind, std::move(units)).second) {
    std::fprintf(stderr, "llsim: internal error: phase kind '%s' declares its work units %s\n", phase_kind.c_str(),
                 d.read ? "after they were read" : "twice");
    std::abort();
  }
  return true;
}

const std::vector<WorkUnit>& work_units(const std::string& phase_kind)
{
  static const std::vector<WorkUnit> none;
  Declared& d   = declared();
  d.read        = true;
  const auto it = d.units.find(phase_kind);
  return it == d.units.end() ? none : it->second;
}

}  // namespace llsim

// DIR/report.md of a sweep: the scenario, grid, seeds and the command that reproduces it, then
// each phase metric that differs between points as mean and 95% confidence interval per point.
// analysis/capacity.py adds "## Capacity" sections; rewriting the report keeps them. And the
// progress line of a point done.
#pragma once
#include "sim/study/local_sweep.hpp"
#include "sim/study/sweep_table.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

struct SweepDescription {
  std::string scenario_file, scenario_name;
  uint64_t first_seed = 1;
  int64_t seeds       = 1;
  std::vector<std::string> sets;     // --set for every point
  std::vector<std::string> command;  // the sweep's command line, to reproduce it
  std::vector<std::string> notes;    // its points' notes to the user
};

// `previous`: the report.md already in the directory ("" when none); its capacity sections are kept.
std::string sweep_report(const SweepDescription& sweep, const SweepTable& table, const std::string& previous);

// "[2/4] a.b=1 c=x: 3 seeds done; 12 s elapsed, about 12 s left", newline ended.
std::string sweep_progress_line(const SweepProgress& p);

}  // namespace llsim

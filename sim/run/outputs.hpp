// Writing a run's results: DIR/summary.json, DIR/<phase>[_<table>].csv, DIR/resolved.yaml and
// the same document as JSON, DIR/resolved.json (see resolved_json.hpp).
// Every file goes to a temporary name first and is renamed; the folder itself appears whole
// (sim/run/run_folder.hpp).
#pragma once
#include "sim/run/simulation.hpp"
#include "sim/scenario/scenario.hpp"

#include <functional>
#include <ostream>
#include <string>

namespace llsim {

void write_file_atomically(const std::string& path, const std::string& content);
// The same, the content streamed by `fill` (a large table is never held whole as text).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill);

// The summary as JSON; key order fixed, numbers written so they read back exactly.
std::string summary_json(const Scenario& scenario, const SimulationResult& result, double wall_time_s);

// Throws ConfigError when `dir` could not be written: empty, an ancestor that is not a
// directory, or one in which no directory can be made (permissions, /proc, a read-only mount).
// Checked before a run, so a bad --out costs no simulation; leaves nothing behind.
void check_output_dir(const std::string& dir);

void write_outputs(const std::string& dir, const Scenario& scenario, const SimulationResult& result,
                   double wall_time_s);

}  // namespace llsim

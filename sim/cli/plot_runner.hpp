// `llsim run --plot`: runs analysis/plot.py (the installed copy, else the source tree's) on the
// output directory with a Python that has matplotlib (LLSIM_PYTHON, else Debian's
// /usr/bin/python3, else python3 on PATH).
#pragma once
#include <string>

namespace llsim {

// Throws SimulationError when the script cannot be found or fails (e.g. matplotlib missing).
// `script_name`: a script of analysis/ that takes the directory (plan_plot.py for a plan's).
void run_plot_script(const std::string& run_dir, const std::string& script_name = "plot.py");

}  // namespace llsim

// `llsim run --plot`: runs analysis/plot.py (the installed copy, else the source tree's) on the
// output directory with a Python that has matplotlib (LLSIM_PYTHON, else Debian's
// /usr/bin/python3, else python3 on PATH).
#pragma once
#include <string>

namespace llsim {

// Throws SimulationError when the script cannot be found or fails (e.g. matplotlib missing).
void run_plot_script(const std::string& run_dir);

}  // namespace llsim

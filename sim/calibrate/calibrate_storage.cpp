#include "sim/calibrate/calibrate_storage.hpp"

#include "sim/calibrate/calibrate_text.hpp"
#include "sim/calibrate/storage_fit.hpp"
#include "sim/calibrate/storage_points.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/study/child_runs.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace llsim {

namespace {

namespace fs = std::filesystem;

// --range LOW:HIGH: two positive numbers with the same unit after them ("0.25GBps:4GBps").
struct Range {
  double low = 0, high = 0;
  std::string unit;
  std::string text(double v) const
  {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf + unit;
  }
};

Range parse_range(const std::string& text)
{
  const size_t colon = text.find(':');
  const auto fail    = [&text](const std::string& why) {
    throw ConfigError("--range '" + text + "': " + why + " (e.g. 0.25GBps:4GBps)");
  };
  if (colon == std::string::npos)
    fail("expected LOW:HIGH");
  const auto bound = [&](const std::string& part, std::string* unit) {
    char* end      = nullptr;
    const double v = std::strtod(part.c_str(), &end);
    if (end == part.c_str() || !(v > 0) || !std::isfinite(v))
      fail("'" + part + "' is not a number > 0 with its unit");
    *unit = end;
    return v;
  };
  Range r;
  std::string high_unit;
  r.low  = bound(text.substr(0, colon), &r.unit);
  r.high = bound(text.substr(colon + 1), &high_unit);
  if (r.unit != high_unit)
    fail("LOW and HIGH must have the same unit");
  if (!(r.low < r.high))
    fail("LOW must be below HIGH");
  return r;
}

// A run's figure: summary.json's phases.<phase>.<metric>, which must be a number.
double read_figure(const std::string& summary, const StoragePoint& p)
{
  std::ifstream in(summary);
  const nlohmann::json s = nlohmann::json::parse(in, nullptr, false);
  if (s.is_discarded() || !s.contains("phases") || !s["phases"].contains(p.phase))
    throw ConfigError(p.where + ": the scenario's summary has no phase '" + p.phase + "'");
  const nlohmann::json& phase = s["phases"][p.phase];
  if (!phase.contains(p.metric))
    throw ConfigError(p.where + ": phase '" + p.phase + "' has no metric '" + p.metric + "'");
  if (!phase[p.metric].is_number())
    throw ConfigError(p.where + ": metric '" + p.phase + "." + p.metric + "' is " +
                      (phase[p.metric].is_null() ? "null" : "not a number") + " in its run of " + p.scenario);
  return phase[p.metric].get<double>();
}

// Runs every point at every candidate, `jobs` at a time: simulated[candidate][point].
std::vector<std::vector<double>> simulate_all(const std::vector<StoragePoint>& points,
                                              const std::vector<double>& candidates, const Range& range,
                                              const CalibrateArguments& a)
{
  std::string pattern = (fs::temp_directory_path() / "llsim_calibrate_XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot make a scratch directory in " + fs::temp_directory_path().string());
  const fs::path dir = pattern;
  struct Cleanup {
    fs::path dir;
    ~Cleanup()
    {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } cleanup{dir};
  std::vector<std::vector<double>> simulated(candidates.size(), std::vector<double>(points.size(), NAN));
  const size_t jobs = candidates.size() * points.size();
  ChildRuns children;
  size_t next = 0, done = 0;
  const auto job_dir = [&dir](size_t j) { return dir / ("run" + std::to_string(j)); };
  // A failure leaves the runs in flight to end before the scratch directory goes.
  const auto drain = [&children] {
    while (children.running() > 0)
      children.wait_any();
  };
  try {
    while (done < jobs) {
      while (next < jobs && children.running() < static_cast<size_t>(a.jobs)) {
        const StoragePoint& p   = points[next % points.size()];
        const std::string value = range.text(candidates[next / points.size()]);
        children.start(
            next, {"run", p.scenario, "--quiet", "--out", job_dir(next).string(), "--set", a.coefficient + "=" + value},
            job_dir(next).string() + ".stderr");
        ++next;
      }
      const ChildExit e     = children.wait_any();
      const StoragePoint& p = points[e.job % points.size()];
      if (e.status != 0) {
        std::ifstream in(job_dir(e.job).string() + ".stderr");
        std::stringstream text;
        text << in.rdbuf();
        throw ConfigError(p.where + ": llsim run " + p.scenario + " with " + a.coefficient + "=" +
                          range.text(candidates[e.job / points.size()]) + " failed (exit " + std::to_string(e.status) +
                          "): " + text.str());
      }
      simulated[e.job / points.size()][e.job % points.size()] =
          read_figure((job_dir(e.job) / "summary.json").string(), p);
      fs::remove_all(job_dir(e.job));
      ++done;
    }
  } catch (...) {
    drain();
    throw;
  }
  return simulated;
}

// The share error of a figure against its measurement (NaN when the candidate is none).
double error_of(const StorageFitInput& in, size_t candidate, size_t row)
{
  return candidate < in.simulated.size() ? in.simulated[candidate][row] / in.measured[row] - 1 : NAN;
}

struct Summary {
  double median    = NAN;
  size_t within_25 = 0, counted = 0;
};

Summary summarise(std::vector<double> errors)
{
  Summary s;
  std::vector<double> magnitudes;
  for (double e : errors)
    if (std::isfinite(e))
      magnitudes.push_back(std::abs(e));
  s.counted = magnitudes.size();
  for (double m : magnitudes)
    s.within_25 += m <= 0.25 ? 1 : 0;
  if (!magnitudes.empty()) {
    std::sort(magnitudes.begin(), magnitudes.end());
    const size_t n = magnitudes.size();
    s.median       = n % 2 ? magnitudes[n / 2] : (magnitudes[n / 2 - 1] + magnitudes[n / 2]) / 2;
  }
  return s;
}

std::string summary_text(const Summary& s, size_t rows)
{
  return "median |error| " + percent(s.median) + ", " + std::to_string(s.within_25) + " of " + std::to_string(rows) +
         " within 25%" + (s.counted < rows ? " (" + std::to_string(rows - s.counted) + " without a prediction)" : "");
}

// A figure to 4 significant digits, as the report prints it.
std::string figure(double v)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string signed_percent(double e)
{
  return std::isfinite(e) ? (e >= 0 ? "+" : "") + percent(e) : "none";
}

}  // namespace

int calibrate_storage(const CalibrateArguments& a)
{
  if (a.coefficient.empty() || a.range.empty())
    throw std::invalid_argument("calibrate --storage needs --coefficient KEY and --range LOW:HIGH");
  const Range range = parse_range(a.range);
  const auto same   = [](const std::string& x, const std::string& y) {
    std::error_code ignored;
    return !x.empty() && !y.empty() && fs::weakly_canonical(x, ignored) == fs::weakly_canonical(y, ignored);
  };
  if (same(a.errors, a.out) || same(a.errors, a.storage) || same(a.out, a.storage))
    throw ConfigError("--errors, --out and --storage must be three different files");
  if (!a.errors.empty())
    check_writable("--errors", a.errors);
  if (!a.out.empty())
    check_writable("--out", a.out);
  const std::vector<StoragePoint> points = read_storage_points(a.storage);
  const std::vector<double> candidates   = log_grid(range.low, range.high, static_cast<size_t>(a.grid));
  StorageFitInput in;
  in.simulated = simulate_all(points, candidates, range, a);
  for (const StoragePoint& p : points) {
    in.measured.push_back(p.measured);
    in.groups.push_back(p.group);
  }
  const StorageFit fit = fit_storage(in);
  if (fit.all_rows >= candidates.size())
    throw ConfigError(a.storage + ": no candidate of --range gave every row a figure > 0");
  std::vector<double> fitted_errors, held_out_errors;
  for (size_t r = 0; r < points.size(); ++r) {
    fitted_errors.push_back(error_of(in, fit.all_rows, r));
    held_out_errors.push_back(error_of(in, fit.held_out[r], r));
  }
  const Summary fitted = summarise(fitted_errors), held_out = summarise(held_out_errors);
  const std::string best = range.text(candidates[fit.all_rows]);

  std::ostringstream report;
  report << "calibrated " << a.coefficient << " on " << a.storage << ": " << points.size() << " measured results of "
         << fit.group_names.size() << " groups, " << candidates.size() << " candidates from " << range.text(range.low)
         << " to " << range.text(range.high) << " (log-spaced; least squares of log(simulated / measured))\n"
         << "  fitted on every row: " << a.coefficient << " = " << best << "; " << summary_text(fitted, points.size())
         << "\n  one group left out at a time (held out): " << summary_text(held_out, points.size()) << "\n";
  for (size_t g = 0; g < fit.group_names.size(); ++g)
    report << "    without " << fit.group_names[g] << ": "
           << (fit.per_group[g] < candidates.size() ? range.text(candidates[fit.per_group[g]])
                                                    : std::string("none (no other group's rows to fit on)"))
           << "\n";
  const auto at_end = [&candidates](size_t c) { return c == 0 || c + 1 >= candidates.size(); };
  if (at_end(fit.all_rows) ||
      std::any_of(fit.per_group.begin(), fit.per_group.end(), [&](size_t c) { return at_end(c); }))
    report << "  note: a fit is at an end of --range (widen it), or no other group was left to fit on\n";
  report << "  per row (measured; fitted, error; held out, error):\n";
  for (size_t r = 0; r < points.size(); ++r) {
    const size_t h = fit.held_out[r];
    report << "    " << points[r].where << " " << points[r].group << ": " << figure(points[r].measured) << "; "
           << figure(in.simulated[fit.all_rows][r]) << " " << signed_percent(fitted_errors[r]) << "; "
           << (h < candidates.size() ? figure(in.simulated[h][r]) : std::string("none")) << " "
           << signed_percent(held_out_errors[r]) << "\n";
  }
  std::ostringstream block;
  block << "# fitted by llsim calibrate --storage on " << a.storage << " (" << points.size()
        << " results; median |error| " << percent(fitted.median) << " fitted, " << percent(held_out.median)
        << " held out, one group left out at a time)\n"
        << a.coefficient << ": " << best << "\n";
  if (!a.errors.empty()) {
    std::ofstream out(a.errors);
    if (!out)
      throw ConfigError("--errors " + a.errors + ": cannot write");
    out << "point,group,measured,fitted,fitted_error,held_out_value,held_out,held_out_error\n";
    for (size_t r = 0; r < points.size(); ++r) {
      const size_t h = fit.held_out[r];
      out << points[r].where << "," << points[r].group << "," << format_number(points[r].measured) << ","
          << format_number(in.simulated[fit.all_rows][r]) << "," << format_number(fitted_errors[r]) << ","
          << (h < candidates.size() ? range.text(candidates[h]) : "") << ","
          << (h < candidates.size() ? format_number(in.simulated[h][r]) : "") << ","
          << (std::isfinite(held_out_errors[r]) ? format_number(held_out_errors[r]) : "") << "\n";
    }
  }
  write_block(a.out, block.str());
  std::cout << report.str() << block.str();
  return kExitOk;
}

}  // namespace llsim

#include "sim/calibrate/calibrate_requests.hpp"

#include "sim/calibrate/calibrate_text.hpp"
#include "sim/calibrate/request_fit.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/workload/request_trace.hpp"
#include "sim/study/child_runs.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace llsim {

namespace {

namespace fs = std::filesystem;

// A text as a double-quoted YAML scalar.
std::string quoted(const std::string& text)
{
  std::string q = "\"";
  for (char c : text)
    q += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return q + "\"";
}

// A coefficient at full precision, for a run's --set (the printed block rounds to 4 digits).
std::string exact(const CoefficientSpec& s, double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, s.duration ? "%.17gs" : "%.17g", v);
  return buf;
}

// The measured requests in the order the phase replays them (by arrival, ties in file order).
std::vector<RequestTimes> measured_times(const RequestTrace& trace)
{
  std::vector<TraceRequest> requests = trace.requests;
  std::stable_sort(requests.begin(), requests.end(),
                   [](const TraceRequest& a, const TraceRequest& b) { return a.arrival_s < b.arrival_s; });
  std::vector<RequestTimes> times;
  for (const TraceRequest& r : requests)
    times.push_back({r.measured_ttft_s, r.measured_tpot_s});
  return times;
}

// The scenario's phase must exist and time its iterations with the operators model, whose keys
// each run sets (checked here, before any run, for a clear message). Returns the phase's
// iteration section.
YAML::Node check_phase(const std::string& scenario, const std::string& phase)
{
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(scenario);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--scenario " + scenario + ": " + e.what());
  }
  std::vector<std::string> names;
  if (doc.IsMap() && doc["phases"] && doc["phases"].IsSequence())
    for (const YAML::Node& p : doc["phases"]) {
      if (!p.IsMap() || !p["name"] || !p["name"].IsScalar())
        continue;
      names.push_back(p["name"].Scalar());
      if (names.back() != phase)
        continue;
      const YAML::Node it = p["iteration"];
      const std::string imp =
          it && it.IsMap() && it["impl"] && it["impl"].IsScalar() ? it["impl"].Scalar() : "roofline";
      if (imp != "operators")
        throw ConfigError("--scenario " + scenario + ": phase '" + phase + "' uses the " + imp +
                          " iteration model; calibrate --requests fits the operators model's coefficients (give "
                          "the phase iteration: {impl: operators})");
      return it;
    }
  throw ConfigError("--scenario " + scenario + ": no phase '" + phase +
                    "' (its phases: " + (names.empty() ? "none" : join(names, ", ")) + ")");
}

// The printed iteration line with the phase's other keys (a profile, expert_parallel, ...), which
// every run kept: pasted whole, it reproduces the error reported.
std::string with_scenario_keys(std::string line, const YAML::Node& iteration)
{
  std::string extra;
  for (const auto& kv : iteration) {
    const std::string key = kv.first.as<std::string>();
    if (key == "impl" || line.find(" " + key + ":") != std::string::npos)
      continue;
    YAML::Emitter out;
    out << YAML::Flow << kv.second;
    extra += ", " + key + ": " + out.c_str();
  }
  const std::string head = "iteration: {impl: operators";
  return line.insert(head.size(), extra);
}

std::string runs_text(int runs)
{
  return std::to_string(runs) + (runs == 1 ? " simulation" : " simulations");
}

// Runs of the scenario, one per candidate, in a scratch directory removed at the end.
class ScenarioRuns {
 public:
  ScenarioRuns(const CalibrateArguments& a, const std::vector<std::string>& keys, TraceFormat format)
      : a_(a)
      , keys_(keys)
      , format_(format)
  {
    std::string pattern = (fs::temp_directory_path() / "llsim_calibrate_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("cannot make a scratch directory in " + fs::temp_directory_path().string());
    dir_ = pattern;
  }
  ~ScenarioRuns()
  {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  ScenarioRuns(const ScenarioRuns&)            = delete;
  ScenarioRuns& operator=(const ScenarioRuns&) = delete;

  std::vector<RequestTimes> operator()(const OperatorCoefficients& c)
  {
    const std::string out = (dir_ / "run").string(), log = (dir_ / "stderr").string();
    std::vector<std::string> args = {"run",
                                     a_.scenario,
                                     "--quiet",
                                     "--out",
                                     out,
                                     "--set",
                                     "phases." + a_.phase +
                                         ".workload={trace: " + quoted(fs::absolute(a_.requests).string()) +
                                         ", format: " + trace_format_name(format_) + "}"};
    // The coefficients fitted and those --start gives; the others stay the scenario's (or its GPU's).
    for (const CoefficientSpec& s : fittable_coefficients())
      if (std::find(keys_.begin(), keys_.end(), s.key) != keys_.end() || a_.start.find(s.key) != std::string::npos)
        args.insert(args.end(), {"--set", "phases." + a_.phase + ".iteration." + s.key + "=" + exact(s, c.*(s.field))});
    ChildRuns child;
    child.start(0, args, log);
    const int status = child.wait_any().status;
    if (status != 0) {
      std::ifstream in(log);
      std::stringstream text;
      text << in.rdbuf();
      throw ConfigError("--scenario " + a_.scenario + ": llsim run of phase '" + a_.phase + "' failed (exit " +
                        std::to_string(status) + "): " + text.str());
    }
    std::vector<RequestTimes> times = read_times(out + "/" + a_.phase + "_requests.csv");
    fs::remove_all(out);
    return times;
  }

 private:
  static std::vector<RequestTimes> read_times(const std::string& file)
  {
    const CsvTable csv = read_csv_file(file);
    const size_t first = csv.column("first_token_s"), finish = csv.column("finish_s");
    const size_t tokens = csv.column("output_tokens"), ttft = csv.column("ttft_s");
    std::vector<RequestTimes> times;
    for (size_t r = 0; r < csv.rows.size(); ++r) {
      RequestTimes t;
      if (csv.number(r, finish) >= 0) {  // completed
        t.ttft_s         = csv.number(r, ttft);
        const double out = csv.number(r, tokens);
        if (out >= 2)
          t.tpot_s = (csv.number(r, finish) - csv.number(r, first)) / (out - 1);
      }
      times.push_back(t);
    }
    return times;
  }

  const CalibrateArguments& a_;
  const std::vector<std::string>& keys_;
  TraceFormat format_;
  fs::path dir_;
};

// A CSV cell: empty where there is no figure.
std::string cell(double v)
{
  return std::isnan(v) ? "" : format_number(v);
}

void write_request_errors(const std::string& file, const std::vector<RequestTimes>& measured,
                          const RequestFitResult& fit, size_t held_out_from)
{
  std::ofstream out(file);
  out << "request,measured_ttft_s,simulated_ttft_s,ttft_error,measured_tpot_s,simulated_tpot_s,tpot_error,held_out\n";
  for (size_t i = 0; i < measured.size(); ++i)
    out << i << "," << cell(measured[i].ttft_s) << "," << cell(fit.simulated[i].ttft_s) << ","
        << cell(fit.errors.ttft[i]) << "," << cell(measured[i].tpot_s) << "," << cell(fit.simulated[i].tpot_s) << ","
        << cell(fit.errors.tpot[i]) << "," << (i >= held_out_from ? 1 : 0) << "\n";
  if (!out)
    throw ConfigError("--errors " + file + ": cannot write");
}

}  // namespace

int calibrate_requests(const CalibrateArguments& a, const std::vector<std::string>& keys,
                       const OperatorCoefficients& start)
{
  if (a.scenario.empty() || a.phase.empty())
    throw std::invalid_argument("--requests needs --scenario (the run's platform and serve phase) and --phase");
  TraceFormat format{};
  if (!parse_trace_format(a.format, &format) ||
      (format != TraceFormat::Requests && format != TraceFormat::VllmBenchmark))
    throw std::invalid_argument("--format '" + a.format + "': expected requests or vllm_benchmark");
  const YAML::Node iteration               = check_phase(a.scenario, a.phase);
  const RequestTrace trace                 = read_request_trace(a.requests, format);
  const std::vector<RequestTimes> measured = measured_times(trace);
  if (a.folds == 1 || static_cast<size_t>(a.folds) > measured.size())
    throw std::invalid_argument("--folds must be 0, or between 2 and the " + std::to_string(measured.size()) +
                                " requests");
  // The last 1/folds of the requests, by arrival, are held out of the fit.
  const size_t held_out_from =
      a.folds > 0 ? measured.size() - measured.size() / static_cast<size_t>(a.folds) : measured.size();
  ScenarioRuns runs(a, keys, format);
  const RequestFitResult fit = fit_by_simulation(
      measured, keys, start, [&](const OperatorCoefficients& c) { return runs(c); }, held_out_from, a.max_runs);
  std::ostringstream report, block;
  report << (keys.empty() ? "checked on " : "calibrated on ") << a.requests << ": " << measured.size() << " requests, "
         << (keys.empty() ? "fitting nothing" : "fitting " + join(keys, ", ")) << ", by " << runs_text(fit.runs)
         << " of phase '" << a.phase << "' of " << a.scenario
         << "\n  errors are each request's TTFT and time per output token, relative to the measured"
         << "\n  error on the " << held_out_from << " requests fitted: mean " << percent(fit.errors.fitted) << "\n";
  if (held_out_from < measured.size())
    report << "  held-out error (the last " << measured.size() - held_out_from << " requests, not fitted): mean "
           << percent(fit.errors.held_out) << "\n";
  if (fit.runs >= a.max_runs && !keys.empty())
    report << "  note: the search stopped at --max-runs " << a.max_runs << "\n";
  const auto lost = std::count_if(fit.simulated.begin(), fit.simulated.end(),
                                  [](const RequestTimes& t) { return std::isnan(t.ttft_s); });
  if (lost > 0)
    report << "  note: " << lost << " of the requests did not complete in the simulation (rejected: too long "
           << "for the platform's KV or max_model_len; or lost to a fault); each counts as an error of 100%\n";
  if (trace.spaced_arrivals)
    report << "  note: the benchmark result has no start_times: its requests arrive 1 / request_rate apart, not "
              "at the times the benchmark drew (Poisson by default), so queueing in its TTFTs is not replayed as "
              "it was\n";
  block << (keys.empty() ? "# checked by llsim calibrate on " : "# fitted by llsim calibrate on ") << a.requests << " ("
        << measured.size() << " requests, mean error " << percent(fit.errors.fitted)
        << (held_out_from < measured.size() ? ", held-out " + percent(fit.errors.held_out) : "") << ")\n"
        << with_scenario_keys(iteration_line(keys, a.start, fit.coefficients), iteration);
  if (!a.errors.empty())
    write_request_errors(a.errors, measured, fit, held_out_from);
  write_block(a.out, block.str());
  std::cout << report.str() << block.str();
  return kExitOk;
}

}  // namespace llsim

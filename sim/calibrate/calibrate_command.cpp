#include "sim/calibrate/calibrate_command.hpp"

#include "sim/calibrate/calibrate_requests.hpp"
#include "sim/calibrate/calibrate_storage.hpp"
#include "sim/calibrate/calibrate_text.hpp"

#include "sim/calibrate/calibration_inputs.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/params.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>

namespace llsim {

namespace {

// An option's YAML mapping, its braces optional ('preset: x' or '{preset: x}').
YAML::Node load_mapping(const std::string& option, const std::string& text, const char* example)
{
  YAML::Node node;
  try {
    node = YAML::Load(text.find('{') == std::string::npos ? "{" + text + "}" : text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(option + " '" + text + "': not a YAML mapping (" + e.msg + ")");
  }
  if (!node.IsMap())
    throw ConfigError(option + " '" + text + "': expected a mapping such as '" + example + "'");
  return node;
}

// A YAML mapping given on the command line, read by `table`.
template <class T>
T parse_option(const std::string& option, const std::string& text, const ParamTable& table, T (*parse)(const Params&))
{
  const YAML::Node node = load_mapping(option, text, "preset: ...");
  auto source           = std::make_shared<SourceInfo>();
  source->file          = option;
  return parse(Params(YamlRef(node, option.substr(2), source), table));
}

// The starting (and, for those not fitted, fixed) coefficients: the model's defaults, the GPU's
// fitted figures where it has them, then --start.
OperatorCoefficients start_values(const std::string& text, const GpuSpec* gpu = nullptr)
{
  OperatorCoefficients c;
  for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
    c.*kernel_member(s.which) = kernel_coefficient(s, nullptr, gpu != nullptr ? gpu->kernel : KernelFigures{});
  if (text.empty())
    return c;
  const YAML::Node node = load_mapping("--start", text, "kernel_launch: 4us");
  for (const auto& kv : node) {
    if (!kv.first.IsScalar() || !kv.second.IsScalar())
      throw ConfigError("--start '" + text + "': expected coefficient: value pairs such as 'kernel_launch: 4us'");
    const CoefficientSpec& s = coefficient(kv.first.Scalar());
    double v                 = 0;
    try {
      v = parse_quantity(kv.second.Scalar(), s.duration ? Dimension::Duration : Dimension::Number);
    } catch (const std::exception& e) {
      throw ConfigError(std::string("--start ") + s.key + ": " + e.what());
    }
    if (!(v >= 0) || (s.share && !(v > 0 && v <= 1)))
      throw ConfigError(std::string("--start ") + s.key + ": " + (s.share ? "must be in (0, 1]" : "must be >= 0"));
    c.*(s.field) = v;
  }
  return c;
}

std::vector<std::string> default_keys(const CalibrateArguments& a)
{
  // Prefills' compute and the per-step CPU. A decode step's weight reads (bandwidth_efficiency)
  // trade off against its CPU time in a run's token times: fit them from a profile.
  if (!a.requests.empty())
    return {"gemm_efficiency", "cpu_per_iteration"};
  if (!a.cpu_overheads.empty())
    return {"cpu_per_iteration", "cpu_per_sequence"};
  if (!a.all_reduce.empty())
    return {"link_latency", "link_efficiency"};
  if (!a.attention.empty())
    return {"attention_efficiency", "attention_overhead"};
  if (!a.profile.empty()) {
    std::vector<std::string> kernel;
    for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
      kernel.push_back(s.key);
    return kernel;
  }
  return {"gemm_efficiency", "gemm_half_tokens", "bandwidth_efficiency", "cpu_per_iteration"};
}

void write_errors(const std::string& file, const std::vector<Measurement>& points, const FitResult& fit)
{
  std::ofstream out(file);
  if (!out)
    throw ConfigError("--errors " + file + ": cannot write");
  out << "point,measured_s,predicted_s,error\n";
  for (size_t i = 0; i < points.size(); ++i)
    out << points[i].where << "," << format_number(points[i].seconds) << "," << format_number(fit.predicted[i]) << ","
        << format_number((fit.predicted[i] - points[i].seconds) / points[i].scale) << "\n";
}

void print_points(std::ostream& out, const std::vector<Measurement>& points, const FitResult& fit,
                  const std::string& errors_file)
{
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  auto error         = [&](size_t i) { return (fit.predicted[i] - points[i].seconds) / points[i].scale; };
  const size_t shown = points.size() <= 40 ? points.size() : 10;
  if (shown < points.size())
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return std::abs(error(a)) > std::abs(error(b)); });
  out << (shown < points.size() ? "  the " + std::to_string(shown) + " worst points" +
                                      (errors_file.empty() ? " (--errors FILE lists all):\n" : ":\n")
                                : "  per point:\n");
  for (size_t k = 0; k < shown; ++k) {
    const size_t i = order[k];
    out << "    " << points[i].where << ": measured " << format_quantity(points[i].seconds, Dimension::Duration, 4)
        << ", predicted " << format_quantity(fit.predicted[i], Dimension::Duration, 4) << ", "
        << (error(i) >= 0 ? "+" : "") << percent(error(i)) << "\n";
  }
}

// The coefficients to fit: --fit's list, "none", or what the input determines.
std::vector<std::string> fit_keys(const CalibrateArguments& a)
{
  if (a.fit.empty())
    return default_keys(a);
  if (a.fit == "none")  // the coefficients --start gives (or the defaults), checked against the points
    return {};
  std::vector<std::string> keys;
  for (const std::string& k : split(a.fit, ',')) {
    coefficient(k);
    if (std::find(keys.begin(), keys.end(), k) != keys.end())
      throw ConfigError("--fit names " + k + " twice");
    keys.push_back(k);
  }
  return keys;
}

// Each fold must leave at least as many measurements as coefficients to fit.
void check_folds(int folds, size_t points, size_t keys)
{
  if (folds == 1 || static_cast<size_t>(folds) > points)
    throw std::invalid_argument("--folds (default 5) must be 0, or between 2 and the " + std::to_string(points) +
                                " measurements");
  const size_t largest_fold = folds > 0 ? (points + static_cast<size_t>(folds) - 1) / static_cast<size_t>(folds) : 0;
  if (folds > 0 && keys > 0 && points - largest_fold < keys)
    throw std::invalid_argument("--folds " + std::to_string(folds) + " leaves " +
                                std::to_string(points - largest_fold) + " measurements to fit " + std::to_string(keys) +
                                " coefficients (--folds 0: no "
                                "held-out error)");
}

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateArguments& a)
{
  CLI::App* c = app.add_subcommand("calibrate", "fit the operators iteration model's coefficients for one GPU to "
                                                "measured times (or, with --storage, a storage model's coefficient "
                                                "to real systems' results); print the errors and the block to paste");
  auto* model = c->add_option("--model", a.model, "the model, as a scenario writes it: 'preset: llama2-7b'");
  auto* gpu   = c->add_option("--gpu", a.gpu, "the GPU, as a scenario writes it: 'preset: a100-80gb-sxm, count: 1'");
  auto* steps = c->add_option("--steps", a.steps,
                              "CSV of iteration times: prefills,prefill_tokens,decodes,"
                              "context,seconds[,tp]")
                    ->type_name("FILE");
  auto* profile = c->add_option("--profile", a.profile, "Vidur's mlp.csv: per-operator times")->type_name("FILE");
  auto* attention =
      c->add_option("--attention", a.attention, "Vidur's attention.csv: attention kernel times")->type_name("FILE");
  auto* cpu = c->add_option("--cpu-overheads", a.cpu_overheads, "Vidur's cpu_overheads.csv")->type_name("FILE");
  auto* ar  = c->add_option("--all-reduce", a.all_reduce, "Vidur's all_reduce.csv")->type_name("FILE");
  auto* requests =
      c->add_option("--requests", a.requests, "a real run's per-request times, fitted by simulating the run")
          ->type_name("FILE");
  auto* scenario =
      c->add_option("--scenario", a.scenario, "with --requests: the scenario that describes the run's platform")
          ->type_name("FILE");
  auto* phase  = c->add_option("--phase", a.phase, "with --requests: its serve phase, whose workload becomes the log");
  auto* format = c->add_option("--format", a.format, "with --requests: requests (JSON lines) or vllm_benchmark");
  auto* max_runs = c->add_option("--max-runs", a.max_runs, "with --requests: simulations the search may make")
                       ->check(CLI::Range(1, 100000));
  requests->excludes(model)->excludes(gpu)->excludes(steps)->excludes(profile)->excludes(attention);
  requests->excludes(cpu)->excludes(ar);
  auto* storage = c->add_option("--storage", a.storage,
                                "CSV of real systems' results (scenario,group,metric,measured): fit a storage "
                                "model's coefficient, one group left out at a time")
                      ->type_name("FILE");
  c->add_option("--coefficient", a.coefficient,
                "with --storage: the scenario key to fit, e.g. phases.checkpoint.process_bandwidth")
      ->type_name("KEY");
  c->add_option("--range", a.range, "with --storage: its candidates' range, LOW:HIGH with a unit (0.25GBps:4GBps)");
  c->add_option("--grid", a.grid, "with --storage: candidates, log-spaced over --range")->check(CLI::Range(2, 200));
  c->add_option("--jobs", a.jobs, "with --storage: runs at a time")->check(CLI::Range(1, 256));
  storage->excludes(model)->excludes(gpu)->excludes(steps)->excludes(profile)->excludes(attention);
  storage->excludes(cpu)->excludes(ar)->excludes(requests);
  steps->excludes(profile)->excludes(attention)->excludes(cpu)->excludes(ar);
  profile->excludes(attention)->excludes(cpu)->excludes(ar);
  attention->excludes(cpu)->excludes(ar);
  cpu->excludes(ar);
  auto* fit =
      c->add_option("--fit", a.fit,
                    "coefficients to fit (default: those the measurements determine); 'none' checks the --start "
                    "values against the measurements")
          ->type_name("K,...")
          ->check([](const std::string& v) { return v.empty() ? std::string("expects coefficients, or none") : ""; });
  auto* start =
      c->add_option("--start", a.start, "starting values, and fixed values for those not fitted: 'kernel_launch: 4us'")
          ->type_name("C");
  auto* folds =
      c->add_option("--folds", a.folds, "k of the k-fold held-out error (0: none)")->check(CLI::Range(0, 100));
  auto* seed = c->add_option("--seed", a.seed, "seed of the folds' order");
  c->add_option("--errors", a.errors, "write every point's measured and predicted time to this CSV")->type_name("FILE");
  c->add_option("--out", a.out, "also write the iteration: block to this file")->type_name("FILE");
  // --storage fits a scenario key on a grid: the GPU fit's options mean nothing to it.
  for (CLI::Option* o : {fit, start, folds, seed, scenario, phase, format, max_runs})
    storage->excludes(o);
  return c;
}

int calibrate_command(const CalibrateArguments& a)
{
  if (!a.storage.empty())
    return calibrate_storage(a);
  if (!a.requests.empty()) {
    const std::vector<std::string> keys = fit_keys(a);
    if (!a.errors.empty())
      check_writable("--errors", a.errors);
    if (!a.out.empty())
      check_writable("--out", a.out);
    return calibrate_requests(a, keys, start_values(a.start));
  }
  if (a.model.empty() || a.gpu.empty())
    throw std::invalid_argument("calibrate needs --model and --gpu (or --requests with --scenario)");
  const std::string input = !a.steps.empty()           ? a.steps
                            : !a.profile.empty()       ? a.profile
                            : !a.attention.empty()     ? a.attention
                            : !a.cpu_overheads.empty() ? a.cpu_overheads
                                                       : a.all_reduce;
  if (input.empty())
    throw std::invalid_argument(
        "calibrate needs measurements: --steps, --profile, --attention, --cpu-overheads, --all-reduce or --requests");
  const LlmModel model = parse_option<LlmModel>("--model", a.model, llm_model_params(), parse_llm_model);
  const GpuSpec gpu    = parse_option<GpuSpec>("--gpu", a.gpu, gpu_params(), parse_gpu);
  if (gpu.flops == 0 || gpu.hbm_Bps == 0)
    throw ConfigError("--gpu: give its flops and hbm_bandwidth, or a preset");
  const std::vector<std::string> keys = fit_keys(a);
  if (!a.errors.empty())
    check_writable("--errors", a.errors);
  if (!a.out.empty())
    check_writable("--out", a.out);
  const OperatorCoefficients start      = start_values(a.start, &gpu);
  const std::vector<Measurement> points = !a.steps.empty()           ? read_step_times(a.steps, gpu.count)
                                          : !a.profile.empty()       ? read_profile_measurements(a.profile, model)
                                          : !a.attention.empty()     ? read_attention_measurements(a.attention, model)
                                          : !a.cpu_overheads.empty() ? read_cpu_measurements(a.cpu_overheads)
                                                                     : read_all_reduce_measurements(a.all_reduce);
  check_folds(a.folds, points.size(), keys.size());
  const Calibration calibration(model, gpu);
  const FitResult fit = calibration.fit(points, keys, start);
  std::ostringstream report;  // printed once everything has worked
  report << (keys.empty() ? "checked on " : "calibrated on ") << input << ": " << points.size() << " measurements, "
         << (keys.empty() ? "fitting nothing" : "fitting " + join(keys, ", "))
         << "\n  errors are relative to the measured time"
         << (a.profile.empty() ? "" : " of all the operators measured in the point's row (a layer)")
         << "\n  error on the points fitted: mean " << percent(fit.mean_abs_error) << ", max "
         << percent(fit.max_abs_error) << "\n";
  std::string held_out;
  if (a.folds > 0 && !keys.empty()) {
    held_out = percent(calibration.held_out_error(points, keys, start, a.folds, a.seed));
    report << "  held-out error (" << a.folds << "-fold, seed " << a.seed << "): mean " << held_out << "\n";
  }
  for (const std::string& k : keys) {  // a coefficient at its bound is one the data does not pin down
    const CoefficientSpec& c = coefficient(k);
    const double v = fit.coefficients.*(c.field), was = start.*(c.field);
    if (c.share ? v > 0.999 : v < 1e-3 * was)
      report << "  note: " << k << " ended at its bound (" << coefficient_text(c, v)
             << "): these measurements hardly depend on it; consider fixing it with --start\n";
  }
  print_points(report, points, fit, a.errors);
  std::string line = iteration_line(keys, a.start, fit.coefficients);
  if (!a.steps.empty())  // each step was priced in series at its own token count: run the block so
    line.insert(line.size() - 2, ", scheduling: serial, cuda_graphs: false");
  std::ostringstream block;
  block << (keys.empty() ? "# checked by llsim calibrate on " : "# fitted by llsim calibrate on ") << input << " ("
        << points.size() << " measurements, mean error " << percent(fit.mean_abs_error)
        << (held_out.empty() ? "" : ", held-out " + held_out) << ")\n"
        << line;
  if (!a.errors.empty())
    write_errors(a.errors, points, fit);
  write_block(a.out, block.str());
  std::cout << report.str() << block.str();
  return kExitOk;
}

}  // namespace llsim

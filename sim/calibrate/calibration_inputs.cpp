#include "sim/calibrate/calibration_inputs.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/serve/cost/vidur_attention.hpp"
#include "sim/serve/cost/vidur_csv.hpp"
#include "sim/serve/cost/vidur_profile.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

namespace {

// A count cell: a whole number >= minimum.
int64_t count(const CsvTable& csv, size_t row, size_t col, int64_t minimum)
{
  const double v = csv.number(row, col);
  if (v != std::floor(v) || v < static_cast<double>(minimum) || v > 1e12)
    throw ConfigError(row_location(csv, row) + ": column '" + csv.header[col] + "': expected a whole number from " +
                      std::to_string(minimum) + " to 1e12");
  return static_cast<int64_t>(v);
}

// A measured time in the file's unit, as seconds > 0.
double measured(const CsvTable& csv, size_t row, size_t col, double seconds_per_unit)
{
  const double v = csv.number(row, col);
  if (!(v > 0))
    throw ConfigError(row_location(csv, row) + ": column '" + csv.header[col] +
                      "': a measured time must be > 0 (the fit weighs relative errors)");
  return v * seconds_per_unit;
}

void check_rows(const CsvTable& csv)
{
  if (csv.rows.empty())
    throw ConfigError(csv.file + ": no measurements");
}

}  // namespace

std::vector<Measurement> read_step_times(const std::string& file, int64_t default_tp)
{
  const CsvTable csv = read_csv_file(file);
  check_rows(csv);
  const size_t prefills = csv.column("prefills"), tokens = csv.column("prefill_tokens");
  const size_t decodes = csv.column("decodes"), context = csv.column("context"), seconds = csv.column("seconds");
  const bool has_tp = has_column(csv, "tp");
  std::vector<Measurement> points;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    Measurement m;
    m.where           = row_location(csv, r);
    m.tp              = has_tp ? count(csv, r, csv.column("tp"), 1) : default_tp;
    const int64_t p   = count(csv, r, prefills, 0);
    const int64_t n   = count(csv, r, tokens, 0);
    const int64_t d   = count(csv, r, decodes, 0);
    const int64_t ctx = count(csv, r, context, 0);
    if ((p == 0) != (n == 0) || n < p)
      throw ConfigError(m.where + ": prefills and prefill_tokens: each prefilling sequence has at least one token, "
                                  "and tokens need a sequence");
    if (p == 0 && d == 0)
      throw ConfigError(m.where + ": an iteration with no prefill and no decode");
    if (p > 0) {  // the tokens shared as evenly as whole tokens allow
      m.work.add_prefills(n % p, ctx, n / p + 1);
      m.work.add_prefills(p - n % p, ctx, n / p);
    }
    m.work.add_decodes(d, ctx);
    m.seconds = measured(csv, r, seconds, 1);
    m.scale   = m.seconds;
    points.push_back(m);
  }
  return points;
}

std::vector<Measurement> read_profile_measurements(const std::string& file, const LlmModel& model)
{
  const CsvTable csv = read_csv_file(file);
  check_rows(csv);
  const size_t tokens = csv.column("num_tokens"), workers = csv.column("num_tensor_parallel_workers");
  const std::vector<std::pair<Op, size_t>> columns = mlp_time_columns(csv);
  std::vector<Measurement> points;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    check_profile_shape(csv, r, model);
    BatchWork work;
    work.add_prefill(0, count(csv, r, tokens, 1));
    const int64_t tp    = count(csv, r, workers, 1);
    const size_t first  = points.size();
    double layer_time_s = 0;
    for (const auto& [op, column] : columns) {
      const double s = measured(csv, r, column, 1e-3);
      layer_time_s += s;
      Measurement m;
      m.work    = work;
      m.tp      = tp;
      m.op      = op;
      m.calls   = profile_calls(op, model);
      m.seconds = s;
      m.where   = row_location(csv, r) + " " + op_name(op);
      points.push_back(m);
    }
    for (size_t i = first; i < points.size(); ++i)
      points[i].scale = layer_time_s;
  }
  return points;
}

std::vector<Measurement> read_attention_measurements(const std::string& file, const LlmModel& model)
{
  const CsvTable csv = read_csv_file(file);
  std::vector<Measurement> points;
  size_t r = 0;
  for (const AttentionRow& row : read_attention_rows(csv, model)) {
    Measurement m;
    m.where        = row_location(csv, r++);
    m.tp           = row.tp;
    m.op           = row.prefill ? Op::AttnPrefill : Op::AttnDecode;
    m.calls        = static_cast<double>(model.layers);
    const auto key = static_cast<int64_t>(row.key), context = static_cast<int64_t>(row.context);
    if (static_cast<double>(key) != row.key || static_cast<double>(context) != row.context)
      throw ConfigError(m.where + ": tokens, batch size and kv_cache_size must be whole numbers");
    if (row.prefill)
      m.work.add_prefill(context, key);
    else
      m.work.add_decodes(key, context);
    if (!(row.time_ms > 0))
      throw ConfigError(m.where + ": a measured time must be > 0 (the fit weighs relative errors)");
    m.seconds = row.time_ms * 1e-3;
    m.scale   = m.seconds;
    points.push_back(m);
  }
  return points;
}

std::vector<Measurement> read_cpu_measurements(const std::string& file)
{
  const CsvTable csv = read_csv_file(file);
  check_rows(csv);
  const size_t batch = csv.column("batch_size"), degree = csv.column("tensor_parallel_degree");
  const std::vector<size_t> parts = cpu_time_columns(csv);
  std::vector<Measurement> points;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    Measurement m;
    m.where = row_location(csv, r);
    m.tp    = count(csv, r, degree, 1);
    m.op    = Op::CpuOverhead;
    m.work.add_decodes(count(csv, r, batch, 1), 0);
    for (size_t c : parts)
      m.seconds += measured(csv, r, c, 1e-3);
    m.scale = m.seconds;
    points.push_back(m);
  }
  return points;
}

std::vector<Measurement> read_all_reduce_measurements(const std::string& file)
{
  const CsvTable csv = read_csv_file(file);
  check_rows(csv);
  const size_t size = csv.column("size"), workers = csv.column("num_workers");
  const size_t per_node = csv.column("devices_per_node"), time = csv.column("time_stats.all_reduce.median");
  std::vector<Measurement> points;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    const int64_t n = count(csv, r, workers, 1);
    if (n < 2 || count(csv, r, per_node, 1) != n)
      continue;
    Measurement m;
    m.where        = row_location(csv, r);
    m.tp           = n;
    m.all_reduce_B = csv.number(r, size);
    if (!(m.all_reduce_B > 0))
      throw ConfigError(m.where + ": column 'size': must be > 0 bytes");
    m.seconds = measured(csv, r, time, 1e-3);
    m.scale   = m.seconds;
    points.push_back(m);
  }
  if (points.empty())
    throw ConfigError(file + ": no rows of 2 or more workers on one node (devices_per_node = num_workers)");
  return points;
}

}  // namespace llsim

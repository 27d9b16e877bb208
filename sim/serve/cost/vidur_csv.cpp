#include "sim/serve/cost/vidur_csv.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/cost/vidur_profile.hpp"

#include <algorithm>

namespace llsim {

std::string row_location(const CsvTable& csv, size_t row)
{
  return csv.file + ":" + std::to_string(csv.line_of_row[row]);
}

double milliseconds_cell(const CsvTable& csv, size_t row, size_t col)
{
  const double v = csv.number(row, col);
  if (v < 0)
    throw ConfigError(row_location(csv, row) + ": column '" + csv.header[col] + "': a time must be >= 0 ms");
  return v;
}

double positive_cell(const CsvTable& csv, size_t row, size_t col)
{
  const double v = csv.number(row, col);
  if (!(v > 0))
    throw ConfigError(row_location(csv, row) + ": column '" + csv.header[col] + "': must be > 0");
  return v;
}

bool python_bool_cell(const CsvTable& csv, size_t row, size_t col)
{
  const std::string& v = csv.rows[row][col];
  if (v != "True" && v != "False")
    throw ConfigError(row_location(csv, row) + ": column '" + csv.header[col] + "': '" + v +
                      "' (expected True or False)");
  return v == "True";
}

bool has_column(const CsvTable& csv, const std::string& name)
{
  return std::find(csv.header.begin(), csv.header.end(), name) != csv.header.end();
}

void check_shape(const CsvTable& csv, size_t row, const std::vector<ShapeColumn>& shape)
{
  for (const ShapeColumn& s : shape) {
    const double measured = csv.number(row, csv.column(s.column));
    if (measured != s.value)
      throw ConfigError(row_location(csv, row) + ": the profile was measured for " + s.column + " " +
                        format_number(measured) + "; the model has " + s.key + " " + format_number(s.value) +
                        " (profile a model of the same shape, or leave the profile out)");
  }
}

std::vector<std::pair<Op, size_t>> mlp_time_columns(const CsvTable& csv)
{
  std::vector<std::pair<Op, size_t>> columns;
  for (const auto& [name, op] : vidur_mlp_operators())
    if (const std::string column = "time_stats." + std::string(name) + ".median"; has_column(csv, column))
      columns.emplace_back(op, csv.column(column));
  if (columns.empty())
    throw ConfigError(csv.file + ": no time_stats.<operator>.median column (expected Vidur's mlp.csv layout)");
  return columns;
}

std::vector<size_t> cpu_time_columns(const CsvTable& csv)
{
  std::vector<size_t> columns;
  for (const char* c :
       {"schedule_median", "sampler_e2e_median", "prepare_inputs_e2e_median", "process_model_outputs_median"})
    columns.push_back(csv.column(c));
  return columns;
}

void CurveBuilder::add(double x, double ms)
{
  auto& [sum, n] = points_[x];
  sum += ms, n += 1;
}

PiecewiseLinear CurveBuilder::build() const
{
  std::vector<std::pair<double, double>> curve;
  for (const auto& [x, sn] : points_)
    curve.emplace_back(x, sn.first / sn.second / 1000);
  return PiecewiseLinear(std::move(curve), PiecewiseLinear::Beyond::Chord);
}

}  // namespace llsim

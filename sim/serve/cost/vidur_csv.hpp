// Cells and columns of Vidur's profile CSVs, as both the operators model's profile reader and
// `llsim calibrate` read them. Errors name the file and line.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/piecewise_linear.hpp"
#include "sim/serve/cost/operator_costs.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

std::string row_location(const CsvTable& csv, size_t row);  // "file:line"
// A time cell: milliseconds >= 0.
double milliseconds_cell(const CsvTable& csv, size_t row, size_t col);
// A key cell (tokens, bytes, batch size, degree): a number > 0.
double positive_cell(const CsvTable& csv, size_t row, size_t col);
// A True/False cell, as Python writes them.
bool python_bool_cell(const CsvTable& csv, size_t row, size_t col);
bool has_column(const CsvTable& csv, const std::string& name);

// A column giving the shape of the model a profile was measured for, and the model's own figure.
struct ShapeColumn {
  const char* column;
  double value;
  const char* key;  // the model key that gives `value`
};
// ConfigError at the row when a shape column is not the model's.
void check_shape(const CsvTable& csv, size_t row, const std::vector<ShapeColumn>& shape);

// mlp.csv's time_stats.<operator>.median columns that the file has, by operator; ConfigError
// when it has none.
std::vector<std::pair<Op, size_t>> mlp_time_columns(const CsvTable& csv);
// cpu_overheads.csv's columns whose medians add up to an iteration's CPU time.
std::vector<size_t> cpu_time_columns(const CsvTable& csv);

// Points (x, milliseconds), averaged where x repeats, as a curve in seconds.
class CurveBuilder {
 public:
  void add(double x, double ms);
  size_t size() const { return points_.size(); }
  PiecewiseLinear build() const;

 private:
  std::map<double, std::pair<double, double>> points_;  // x -> (sum of ms, count)
};

}  // namespace llsim

// Reading CSV inputs (traces, empirical distributions) with errors that name the file and line,
// and writing CSV outputs.
#pragma once
#include <fstream>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace llsim {

struct CsvTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> line_of_row;  // 1-based line number in the file

  // Index of a header column; ConfigError naming the file and the columns it has.
  size_t column(const std::string& name) const;
  // The cell as a number; ConfigError "file:line: column 'x': ..." otherwise.
  double number(size_t row, size_t column) const;
};

// Comma-separated, first line is the header, blank lines skipped, no quoting.
// Every row must have as many fields as the header. At most kMaxCsvRows rows (about 3 GB held
// as text) of at most kMaxCsvLineBytes each: larger inputs are errors, not exhausted memory.
inline constexpr size_t kMaxCsvRows      = 10000000;
inline constexpr size_t kMaxCsvLineBytes = 65536;
// With `ragged_lines`, a row with another number of fields is left out and its line number
// added there, instead of being an error.
CsvTable read_csv_file(const std::string& file, std::vector<size_t>* ragged_lines = nullptr);
// An input file opened for reading; a ConfigError for a directory ("is a directory, not <kind>"),
// for anything else that is not a regular file (a device such as /dev/random never ends), or for
// a file that cannot be read.
std::ifstream open_input_file(const std::string& file, const std::string& kind);

// Rows for a CSV output (header line, then one line per row). Cells are text; numbers are
// written so they read back exactly. Cells must not contain commas.
struct CsvWriter {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  // Rows of numbers made as they are written, after `rows`, instead of held as text (a million
  // requests' rows took 0.7 GiB as cells): asked for row 0, 1, ..., it fills the row's numbers and
  // returns false past the last row. Whatever it reads must outlive the writing.
  std::function<bool(size_t, std::vector<double>&)> numeric_rows;
  void add_numbers(const std::vector<double>& row);
  // A text cell: commas and line breaks (which would split it) become spaces.
  static std::string cell(std::string text);
  std::string text() const;
  void write(std::ostream& out) const;
};

}  // namespace llsim

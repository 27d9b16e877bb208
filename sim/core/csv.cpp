#include "sim/core/csv.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace llsim {

size_t CsvTable::column(const std::string& name) const
{
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name)
      return i;
  throw ConfigError(file + ":1: no column '" + name + "' (the header has: " + join(header, ", ") + ")");
}

double CsvTable::number(size_t row, size_t col) const
{
  const std::string& cell = rows[row][col];
  errno                   = 0;
  char* end               = nullptr;
  const double v          = std::strtod(cell.c_str(), &end);
  // strtod would also read hexadecimal (0x10 as 16), which no trace means.
  if (cell.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) ||
      cell.find_first_of("xX") != std::string::npos)
    throw ConfigError(file + ":" + std::to_string(line_of_row[row]) + ": column '" + header[col] + "': '" + cell +
                      "' is not a number");
  return v;
}

std::ifstream open_input_file(const std::string& file, const std::string& kind)
{
  std::error_code error;  // a name the system refuses (too long, say) is left to the open below
  const std::filesystem::file_status status = std::filesystem::status(file, error);
  if (std::filesystem::is_directory(status))
    throw ConfigError(file + ": is a directory, not " + kind);
  // A device or a pipe may never end (/dev/random): read whole, it would hang the run.
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw ConfigError(file + ": is not a regular file (a device, a pipe or a socket), not " + kind);
  std::ifstream in(file);
  if (!in)
    throw ConfigError(file + ": cannot open the file (does it exist and is it readable?)");
  return in;
}

CsvTable read_csv_file(const std::string& file, std::vector<size_t>* ragged_lines)
{
  std::ifstream in = open_input_file(file, "a CSV file");
  CsvTable table;
  table.file = file;
  std::string line;
  size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line_number == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0)  // a UTF-8 byte order mark, as some editors save
      line.erase(0, 3);
    if (line.size() > kMaxCsvLineBytes)
      throw ConfigError(file + ":" + std::to_string(line_number) + ": line longer than " +
                        std::to_string(kMaxCsvLineBytes) + " bytes (is this a CSV file?)");
    if (trim(line).empty())
      continue;
    std::vector<std::string> fields;
    for (const auto& f : split(line, ','))
      fields.push_back(trim(f));
    if (table.header.empty()) {
      table.header = std::move(fields);
      continue;
    }
    if (fields.size() != table.header.size() && ragged_lines) {
      ragged_lines->push_back(line_number);
      continue;
    }
    if (fields.size() != table.header.size())
      throw ConfigError(file + ":" + std::to_string(line_number) + ": expected " + std::to_string(table.header.size()) +
                        " fields (" + join(table.header, ",") + "), found " + std::to_string(fields.size()));
    if (table.rows.size() == kMaxCsvRows)
      throw ConfigError(file + ":" + std::to_string(line_number) + ": more than " + format_number(kMaxCsvRows) +
                        " rows; llsim reads at most that many (split the trace)");
    table.rows.push_back(std::move(fields));
    table.line_of_row.push_back(line_number);
  }
  if (table.header.empty())
    throw ConfigError(file + ":1: empty file (expected a header line)");
  return table;
}

void CsvWriter::add_numbers(const std::vector<double>& row)
{
  std::vector<std::string> cells;
  for (double v : row)
    cells.push_back(format_number(v));
  rows.push_back(std::move(cells));
}

std::string CsvWriter::cell(std::string text)
{
  for (char& c : text)
    if (c == ',' || c == '\n' || c == '\r')
      c = ' ';
  return text;
}

std::string CsvWriter::text() const
{
  std::ostringstream out;
  write(out);
  return out.str();
}

void CsvWriter::write(std::ostream& out) const
{
  out << join(header, ",") << '\n';
  for (const auto& row : rows)
    out << join(row, ",") << '\n';
  if (!numeric_rows)
    return;
  std::vector<double> numbers;
  std::string line;
  for (size_t i = 0; numeric_rows(i, numbers); ++i) {
    line.clear();
    for (size_t c = 0; c < numbers.size(); ++c) {
      if (c > 0)
        line += ',';
      append_number(line, numbers[c]);
    }
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  }
}

}  // namespace llsim

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("csv: reads header and rows, skipping blank lines", "[csv]")
{
  const auto file  = test::write_temp_file("ok.csv", "a,b\n1,2\n\n3, 4\n");
  const CsvTable t = read_csv_file(file);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.number(1, t.column("b")) == 4);
  CHECK(t.line_of_row[1] == 4);
}

TEST_CASE("csv: malformed lines are errors with the line number", "[csv]")
{
  const auto file = test::write_temp_file("short.csv", "a,b\n1,2\n3\n");
  CHECK_THROWS_WITH(read_csv_file(file), Catch::Contains("short.csv:3: expected 2 fields"));
  const auto t = read_csv_file(test::write_temp_file("ok2.csv", "a\n1\n"));
  CHECK_THROWS_WITH(t.column("z"), Catch::Contains("no column 'z'"));
  CHECK_THROWS_AS(read_csv_file("/nonexistent/file.csv"), ConfigError);
}

TEST_CASE("csv: writer prints numbers exactly", "[csv]")
{
  CsvWriter w;
  w.header = {"t", "v"};
  w.add_numbers({0, 0.1});
  w.add_numbers({1.5, 1e21});
  CHECK(w.text() == "t,v\n0,0.1\n1.5,1e+21\n");
}

TEST_CASE("csv: a line longer than the limit is an error with its number", "[csv]")
{
  const std::string long_line(kMaxCsvLineBytes + 1, '7');
  const auto file = test::write_temp_file("long.csv", "a\n1\n" + long_line + "\n");
  CHECK_THROWS_WITH(read_csv_file(file), Catch::Contains("long.csv:3: line longer than 65536 bytes"));
  const std::string at_limit(kMaxCsvLineBytes, '7');
  CHECK(read_csv_file(test::write_temp_file("limit.csv", "a\n" + at_limit + "\n")).rows.size() == 1);
}

TEST_CASE("csv: a byte order mark is skipped; hexadecimal and quoted cells are not numbers", "[csv]")
{
  const CsvTable t = read_csv_file(test::write_temp_file("bom.csv", "\xEF\xBB\xBFsubmit,b\n1,0x10\n2,\"3\"\n"));
  CHECK(t.column("submit") == 0);
  CHECK(t.number(0, 0) == 1);
  CHECK_THROWS_WITH(t.number(0, 1), Catch::Contains("bom.csv:2: column 'b': '0x10' is not a number"));
  CHECK_THROWS_WITH(t.number(1, 1), Catch::Contains("bom.csv:3: column 'b': '\"3\"' is not a number"));
}

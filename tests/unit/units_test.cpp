#include "sim/core/units.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using llsim::Dimension;
using llsim::parse_quantity;

TEST_CASE("units: sizes base 10 and base 2", "[units]")
{
  CHECK(parse_quantity("10GB", Dimension::Size) == 10e9);
  CHECK(parse_quantity("64MiB", Dimension::Size) == 64.0 * 1024 * 1024);
  CHECK(parse_quantity("1 TiB", Dimension::Size) == 1099511627776.0);
  CHECK(parse_quantity("3B", Dimension::Size) == 3);
  CHECK(parse_quantity("1.5PB", Dimension::Size) == 1.5e15);
  CHECK(parse_quantity("1kB", Dimension::Size) == 1e3);  // SI spelling
}

TEST_CASE("units: bandwidth in bytes and bits", "[units]")
{
  CHECK(parse_quantity("2GBps", Dimension::Bandwidth) == 2e9);
  CHECK(parse_quantity("100Gbps", Dimension::Bandwidth) == 12.5e9);
  CHECK(parse_quantity("1GiBps", Dimension::Bandwidth) == 1073741824.0);
  CHECK(parse_quantity("8bps", Dimension::Bandwidth) == 1);
  CHECK(parse_quantity("2kBps", Dimension::Bandwidth) == 2e3);
  CHECK(parse_quantity("80kbps", Dimension::Bandwidth) == 1e4);
}

TEST_CASE("units: durations, rates, compute, counts", "[units]")
{
  CHECK(parse_quantity("2us", Dimension::Duration) == Approx(2e-6));
  CHECK(parse_quantity("10min", Dimension::Duration) == 600);
  CHECK(parse_quantity("1d", Dimension::Duration) == 86400);
  CHECK(parse_quantity("5y", Dimension::Duration) == 5 * 365 * 86400.0);
  CHECK(parse_quantity("120/min", Dimension::Rate) == 2);
  CHECK(parse_quantity("50k/s", Dimension::Rate) == 50000);
  CHECK(parse_quantity("100TFlops", Dimension::Compute) == 100e12);
  CHECK(parse_quantity("10k", Dimension::Count) == 10000);
  CHECK(parse_quantity("64", Dimension::Count) == 64);
}

TEST_CASE("units: zero needs no unit, anything else does", "[units]")
{
  CHECK(parse_quantity("0", Dimension::Bandwidth) == 0);
  CHECK_THROWS_WITH(parse_quantity("5", Dimension::Size), Catch::Contains("has no unit") && Catch::Contains("10GB"));
}

TEST_CASE("units: errors say what was expected", "[units]")
{
  CHECK_THROWS_WITH(parse_quantity("2TB/s", Dimension::Bandwidth),
                    Catch::Contains("unknown unit 'TB/s'") && Catch::Contains("2GBps"));
  CHECK_THROWS_WITH(parse_quantity("fast", Dimension::Bandwidth), Catch::Contains("not a number"));
  CHECK_THROWS_WITH(parse_quantity("inf", Dimension::Size), Catch::Contains("not"));
  CHECK_THROWS_WITH(parse_quantity("", Dimension::Size), Catch::Contains("empty"));
  CHECK_THROWS_WITH(parse_quantity("3GB", Dimension::Count), Catch::Contains("unknown unit 'GB'"));
  CHECK_THROWS_AS(parse_quantity("1e999GB", Dimension::Size), std::invalid_argument);
}

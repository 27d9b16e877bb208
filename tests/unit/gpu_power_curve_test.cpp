// A GPU's measured power against utilisation (sim/platform/gpu_power_curve.hpp): interpolation
// between its rows, and what the reader refuses.
#include "sim/core/errors.hpp"
#include "sim/platform/gpu_power_curve.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("power curve: linear between rows, clamped to [0, 1]")
{
  const GpuPowerCurve c =
      read_gpu_power_table(test::write_temp_file("power.csv", "utilisation,power_W\n0,50\n0.5,300\n1,400\n"));
  CHECK(c.idle_W() == 50);
  CHECK(c.full_W() == 400);
  CHECK(c.at(0) == 50);
  CHECK(c.at(0.25) == Approx(175).epsilon(1e-12));
  CHECK(c.at(0.5) == 300);
  CHECK(c.at(0.8) == Approx(360).epsilon(1e-12));
  CHECK(c.at(1) == 400);
  CHECK(c.at(-1) == 50);
  CHECK(c.at(2) == 400);
}

TEST_CASE("power curve: the reader names the line of what is wrong")
{
  const auto error = [](const std::string& text) {
    try {
      read_gpu_power_table(test::write_temp_file("bad_power.csv", text));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error("utilisation,power_W\n0,50\n"), Catch::Contains("at utilisation 0 and 1 at least"));
  CHECK_THAT(error("utilisation,power_W\n0,50\n1.5,400\n"), Catch::Contains(":3: utilisation 1.5 is outside [0, 1]"));
  CHECK_THAT(error("utilisation,power_W\n0,50\n0.7,90\n0.5,100\n1,400\n"),
             Catch::Contains(":4: utilisation 0.5 does not increase"));
  CHECK_THAT(error("utilisation,power_W\n0,50\n0.9,400\n"),
             Catch::Contains(":3: the last row must be at utilisation 1"));
  CHECK_THAT(error("utilisation,power_W\n0,400\n1,300\n"), Catch::Contains(":3: power_W 300 falls below the row"));
  CHECK_THAT(error("utilisation,power_W\n0,50\n0.5,10\n1,400\n"), Catch::Contains(":3: power_W 10 falls below"));
  CHECK_THAT(error("utilisation,power_W\n0,400\n1,400\n"), Catch::Contains("must be above the idle draw"));
  CHECK_THAT(error("utilisation,power_W\n0,50\n1,2e6\n"), Catch::Contains(":3: power_W 2e6 is above 1e6 W"));
}

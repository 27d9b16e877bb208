#include "sim/core/curve_family.hpp"

#include <catch2/catch.hpp>

using llsim::CurveFamily;
using llsim::PiecewiseLinear;

namespace {

// y = key x (1 + x), measured at keys 1, 2, 4 and x 0, 10 (key 4 only at x 0).
CurveFamily family()
{
  auto curve = [](std::vector<std::pair<double, double>> points) {
    return PiecewiseLinear(std::move(points), PiecewiseLinear::Beyond::Chord);
  };
  return CurveFamily({{1, curve({{0, 1}, {10, 11}})}, {2, curve({{0, 2}, {10, 22}})}, {4, curve({{0, 4}})}});
}

}  // namespace

TEST_CASE("a curve family reads its points back and interpolates between keys", "[curve_family]")
{
  const CurveFamily f = family();
  CHECK(f.at(1, 10) == 11);
  CHECK(f.at(2, 0) == 2);
  CHECK(f.at(4, 0) == 4);
  CHECK(f.at(1.5, 10) == Approx(16.5).epsilon(1e-12));  // halfway between 11 and 22
  CHECK(f.at(2, 5) == Approx(12.0).epsilon(1e-12));     // along the curve of key 2
  CHECK(f.at(4, 10) == 4);                              // a one-point curve is a constant
}

TEST_CASE("a curve family keeps the first curve below and follows the chord beyond", "[curve_family]")
{
  const CurveFamily f = family();
  CHECK(f.at(0.5, 10) == 11);  // below the first key: the first curve
  // Beyond key 4: from the curve nearest half of 4 (key 2) to key 4, at x 0: slope (4 - 2) / 2.
  CHECK(f.at(6, 0) == Approx(6.0).epsilon(1e-12));
  // At x 10 the last curve (4) lies below key 2's (22): the slope is clamped at 0, never down.
  CHECK(f.at(8, 10) == 4);
}

TEST_CASE("a family of one curve is that curve at every key", "[curve_family]")
{
  const CurveFamily f({{3, PiecewiseLinear({{0, 1}, {2, 5}}, PiecewiseLinear::Beyond::Chord)}});
  CHECK(f.at(1, 1) == 3);
  CHECK(f.at(9, 2) == 5);
}

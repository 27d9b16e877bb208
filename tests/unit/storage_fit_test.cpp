// The fit of `llsim calibrate --storage` (sim/calibrate/storage_fit.hpp): the log-spaced grid, the
// candidate closest in least squares of log(simulated / measured), a candidate without a figure
// for a row it must fit, and the fits with one group left out.
#include "sim/calibrate/storage_fit.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

TEST_CASE("log_grid spaces its values evenly in log, both ends included")
{
  const std::vector<double> g = log_grid(0.25, 4, 5);
  REQUIRE(g.size() == 5);
  CHECK(g[0] == Approx(0.25));
  CHECK(g[1] == Approx(0.5));
  CHECK(g[2] == Approx(1));
  CHECK(g[4] == Approx(4));
}

TEST_CASE("the best candidate weighs 2x too fast as much as 2x too slow")
{
  StorageFitInput in;
  in.measured  = {10, 10};
  in.groups    = {"a", "b"};
  in.simulated = {{5, 20}, {10, 40}, {20, 20}};  // log errors: {-l2, +l2}, {0, 2 l2}, {l2, l2}
  CHECK(best_candidate(in, {true, true}) == 0);  // ties with candidate 2 (2 l2^2): the first wins
  CHECK(best_candidate(in, {true, false}) == 1);
  CHECK(best_candidate(in, {false, true}) == 0);
}

TEST_CASE("a candidate with no figure for a row cannot fit that row")
{
  StorageFitInput in;
  in.measured  = {10, 10};
  in.groups    = {"a", "b"};
  in.simulated = {{10, NAN}, {11, 11}, {10, 0}};
  CHECK(best_candidate(in, {true, true}) == 1);
  CHECK(best_candidate(in, {true, false}) == 0);
  in.simulated = {{10, NAN}};
  CHECK(best_candidate(in, {true, true}) == 1);    // none usable: the candidate count
  CHECK(best_candidate(in, {false, false}) == 1);  // no row to fit: likewise
}

TEST_CASE("a single group left out has no other rows to fit on: no candidate")
{
  StorageFitInput in;
  in.measured          = {1, 2};
  in.groups            = {"only", "only"};
  in.simulated         = {{1, 2}, {2, 4}};
  const StorageFit fit = fit_storage(in);
  CHECK(fit.all_rows == 0);
  CHECK(fit.per_group == std::vector<size_t>{2});
  CHECK(fit.held_out == std::vector<size_t>{2, 2});
}

TEST_CASE("leaving one group out fits on the others and predicts the group's rows")
{
  StorageFitInput in;
  in.measured          = {1, 1, 4};
  in.groups            = {"x", "x", "y"};
  in.simulated         = {{1, 1, 1}, {2, 2, 2}, {4, 4, 4}};
  const StorageFit fit = fit_storage(in);
  CHECK(fit.all_rows == 1);  // log errors {0,0,-2l2}, {l2,l2,-l2}, {2l2,2l2,0}: 4, 3, 8 l2^2
  REQUIRE(fit.group_names == std::vector<std::string>{"x", "y"});
  CHECK(fit.per_group == std::vector<size_t>{2, 0});  // without x: y's row wants 4; without y: 1
  CHECK(fit.held_out == std::vector<size_t>{2, 2, 0});
}

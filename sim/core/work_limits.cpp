#include "sim/core/work_limits.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace llsim {

namespace {

// "86400", "8.64e+13": whole below a billion, three significant digits beyond.
std::string count_text(double n)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, n < 1e9 ? "%.0f" : "%.3g", n);
  return buffer;
}

}  // namespace

double rounded_up(double x)
{
  if (!(x > 0) || !std::isfinite(x))
    return x;
  const double unit = std::pow(10.0, std::floor(std::log10(x)) - 2);
  return std::ceil(x / unit * (1 - 1e-12)) * unit;  // an x already of three digits stays
}

std::string excess_work(double asked, const WorkLimit& limit, const std::string& why, const std::string& fits)
{
  return "asks for " + count_text(asked) + " " + limit.units + " (" + why + "); llsim simulates each one and " +
         "refuses more than " + count_text(limit.most) + " (docs/scenario.md, Limits): " + fits;
}

void refuse_excess_work(const Params& p, const std::string& key, double asked, const WorkLimit& limit,
                        const std::string& why, const std::string& fits)
{
  if (asked > limit.most)
    p.fail(key, excess_work(asked, limit, why, fits));
}

WorkCounter::WorkCounter(const WorkLimit& limit, std::string at, std::string fits)
    : limit_(&limit)
    , at_(std::move(at))
    , fits_(std::move(fits))
{}

void stop_excess_work(const std::string& at, double asked, const WorkLimit& limit, const std::string& why,
                      const std::string& fits)
{
  if (asked > limit.most)
    throw SimulationError(at + ": " + excess_work(asked, limit, why, fits));
}

void WorkCounter::add(double n, double now_s)
{
  done_ += n;
  if (done_ > limit_->most)
    throw SimulationError(at_ + ": asks for more than " + count_text(limit_->most) + " " + limit_->units + " (" +
                          count_text(done_) + " by simulated time " + readable_duration(now_s) +
                          ", the phase still going); llsim simulates each one and refuses more (docs/scenario.md, "
                          "Limits): " +
                          fits_);
}

}  // namespace llsim

#include "sim/calibrate/request_fit.hpp"

#include "sim/core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace llsim {

namespace {

constexpr int kRounds = 3;  // simplex searches, each from the last one's best

double relative(double simulated, double measured)
{
  if (!(measured > 0))
    return std::numeric_limits<double>::quiet_NaN();
  return std::isfinite(simulated) ? simulated / measured - 1 : 1;
}

// What the search minimises: the mean over the fitted requests' times of |ln(simulated /
// measured)| (a time not simulated, whose error is 1, counts as twice too slow). Not squared: a batch that forms differently moves a
// few requests' times a lot, and squares would let those few decide. A log, so that twice too
// slow weighs as much as twice too fast.
double objective(const RequestErrors& e, size_t fitted)
{
  double sum = 0, count = 0;
  for (size_t i = 0; i < fitted; ++i)
    for (double v : {e.ttft[i], e.tpot[i]})
      if (!std::isnan(v))
        sum += v > -1 ? std::abs(std::log1p(v)) : 1, count += 1;
  return count > 0 ? sum / count : 0;
}

struct Vertex {
  std::vector<double> x;  // free space
  double f = 0;
  std::vector<RequestTimes> times;  // the run's
};

class Search {
 public:
  Search(const std::vector<RequestTimes>& measured, std::vector<const CoefficientSpec*> specs,
         const OperatorCoefficients& start, const SimulateRun& simulate, size_t fitted, int max_runs)
      : measured_(measured)
      , specs_(std::move(specs))
      , start_(start)
      , simulate_(simulate)
      , fitted_(fitted)
      , max_runs_(max_runs)
  {}

  OperatorCoefficients at(const std::vector<double>& x) const
  {
    OperatorCoefficients c = start_;
    for (size_t i = 0; i < specs_.size(); ++i)
      c.*(specs_[i]->field) = from_free(*specs_[i], x[i]);
    return c;
  }
  // A run at x; none once the runs are spent (the point then counts as worse than any).
  Vertex evaluate(std::vector<double> x)
  {
    if (runs_ >= max_runs_)
      return {std::move(x), std::numeric_limits<double>::infinity(), {}};
    ++runs_;
    std::vector<RequestTimes> times = simulate_(at(x));
    const double f                  = objective(request_errors(measured_, times, fitted_), fitted_);
    return {std::move(x), f, std::move(times)};
  }
  int runs() const { return runs_; }

 private:
  const std::vector<RequestTimes>& measured_;
  std::vector<const CoefficientSpec*> specs_;
  OperatorCoefficients start_;
  const SimulateRun& simulate_;
  size_t fitted_;
  int max_runs_;
  int runs_ = 0;
};

// A coefficient whose doubling (or, for a share, a unit of its logit) moves no simulated time is
// refused: the fit would leave it wherever it started. A probe better than the start becomes it.
void check_determined(Search& search, const std::vector<const CoefficientSpec*>& specs, Vertex& best)
{
  const Vertex start = best;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::vector<double> x = start.x;
    x[i] += specs[i]->share ? 1 : (x[i] != 0 ? x[i] : 1);
    Vertex probe = search.evaluate(std::move(x));
    if (probe.f == start.f)
      throw ConfigError(std::string("no request's simulated time depends on ") + specs[i]->key +
                        ": leave it out of --fit");
    if (probe.f < best.f)
      best = std::move(probe);
  }
}

// A simplex around a vertex: it and each coefficient moved in turn (a share by `step` units of
// its logit, another by `step` / 2 of its value).
std::vector<Vertex> simplex_around(Search& search, const std::vector<const CoefficientSpec*>& specs, Vertex from,
                                   double step)
{
  const std::vector<double> x0 = from.x;
  std::vector<Vertex> simplex  = {std::move(from)};
  for (size_t i = 0; i < specs.size(); ++i) {
    std::vector<double> x = x0;
    x[i] += specs[i]->share ? step : step * (x0[i] != 0 ? 0.5 * x0[i] : 1);
    simplex.push_back(search.evaluate(x));
  }
  return simplex;
}

// x_c + t (x_w - x_c): the centroid c of all but the worst, moved towards (t > 0) or away from
// the worst w.
std::vector<double> along(const std::vector<double>& centroid, const std::vector<double>& worst, double t)
{
  std::vector<double> x(centroid.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = centroid[i] + t * (worst[i] - centroid[i]);
  return x;
}

// Converged: every vertex as good as the best, or the simplex shrunk to nothing.
bool converged(const std::vector<Vertex>& simplex)
{
  double size = 0, scale = 1e-12;
  for (const Vertex& v : simplex)
    for (size_t i = 0; i < v.x.size(); ++i) {
      size  = std::max(size, std::abs(v.x[i] - simplex.front().x[i]));
      scale = std::max(scale, std::abs(simplex.front().x[i]));
    }
  return simplex.back().f - simplex.front().f <= 1e-12 * (1 + simplex.front().f) || size <= 1e-4 * scale;
}

// Nelder-Mead until converged or out of runs; the simplex comes back sorted, best first.
void nelder_mead(Search& search, std::vector<Vertex>& simplex, int max_runs)
{
  const auto by_f = [](const Vertex& a, const Vertex& b) { return a.f < b.f; };
  const size_t n  = simplex.size() - 1;
  for (std::stable_sort(simplex.begin(), simplex.end(), by_f); search.runs() < max_runs && !converged(simplex);
       std::stable_sort(simplex.begin(), simplex.end(), by_f)) {
    std::vector<double> centroid(n, 0);
    for (size_t v = 0; v < n; ++v)
      for (size_t i = 0; i < n; ++i)
        centroid[i] += simplex[v].x[i] / static_cast<double>(n);
    Vertex& worst        = simplex.back();
    const Vertex reflect = search.evaluate(along(centroid, worst.x, -1));
    if (reflect.f < simplex.front().f) {
      Vertex expand = search.evaluate(along(centroid, worst.x, -2));
      worst         = expand.f < reflect.f ? std::move(expand) : reflect;
    } else if (reflect.f < simplex[n - 1].f) {
      worst = reflect;
    } else {
      Vertex contract = search.evaluate(along(centroid, worst.x, reflect.f < worst.f ? -0.5 : 0.5));
      if (contract.f < std::min(reflect.f, worst.f))
        worst = std::move(contract);
      else  // shrink towards the best
        for (size_t v = 1; v <= n && search.runs() < max_runs; ++v)
          simplex[v] = search.evaluate(along(simplex.front().x, simplex[v].x, 0.5));
    }
  }
}

// Each coefficient in turn scaled by a few factors, the others held, keeping any better point:
// a coarse look across the rough surface, whose steps a simplex may not cross.
void coordinate_scan(Search& search, const std::vector<const CoefficientSpec*>& specs, Vertex& best, int max_runs)
{
  static constexpr double kFactors[] = {0.6, 0.75, 0.9, 1.1, 1.25, 1.5};
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < specs.size(); ++i) {
      const double value = from_free(*specs[i], best.x[i]);
      Vertex found       = best;
      for (double factor : kFactors) {
        if (search.runs() >= max_runs)
          return;
        std::vector<double> x = best.x;
        x[i]                  = to_free(*specs[i], specs[i]->share ? std::min(value * factor, 0.999) : value * factor);
        Vertex v              = search.evaluate(std::move(x));
        if (v.f < found.f)
          found = std::move(v);
      }
      best = std::move(found);
    }
}

}  // namespace

RequestErrors request_errors(const std::vector<RequestTimes>& measured, const std::vector<RequestTimes>& simulated,
                             size_t held_out_from)
{
  if (simulated.size() != measured.size())
    throw ConfigError("the simulated run has " + std::to_string(simulated.size()) + " requests, the measured one " +
                      std::to_string(measured.size()));
  RequestErrors e;
  double sums[2] = {0, 0}, counts[2] = {0, 0};
  for (size_t i = 0; i < measured.size(); ++i) {
    e.ttft.push_back(relative(simulated[i].ttft_s, measured[i].ttft_s));
    e.tpot.push_back(relative(simulated[i].tpot_s, measured[i].tpot_s));
    const int part = i < held_out_from ? 0 : 1;
    for (double v : {e.ttft.back(), e.tpot.back()})
      if (!std::isnan(v))
        sums[part] += std::abs(v), counts[part] += 1;
  }
  e.fitted   = counts[0] > 0 ? sums[0] / counts[0] : 0;
  e.held_out = counts[1] > 0 ? sums[1] / counts[1] : 0;
  return e;
}

RequestFitResult fit_by_simulation(const std::vector<RequestTimes>& measured, const std::vector<std::string>& keys,
                                   const OperatorCoefficients& start, const SimulateRun& simulate, size_t held_out_from,
                                   int max_runs)
{
  std::vector<const CoefficientSpec*> specs;
  for (const std::string& k : keys)
    specs.push_back(&coefficient(k));
  if (max_runs < static_cast<int>(specs.size()) + 1)
    throw ConfigError("--max-runs " + std::to_string(max_runs) + ": fitting " + std::to_string(specs.size()) +
                      " coefficients takes " + std::to_string(specs.size() + 1) + " runs at least");
  Search search(measured, specs, start, simulate, held_out_from, max_runs);
  std::vector<double> x;
  for (const CoefficientSpec* s : specs)
    x.push_back(to_free(*s, start.*(s->field)));
  Vertex best = search.evaluate(x);
  // A simulated run's times jump where a batch forms differently: a coarse scan of each
  // coefficient first, then the simplex from the best point found, started again from its best,
  // smaller, while runs remain.
  if (!specs.empty()) {
    check_determined(search, specs, best);
    coordinate_scan(search, specs, best, max_runs);
  }
  double step = 0.5;
  for (int round = 0; !specs.empty() && round < kRounds && search.runs() < max_runs; ++round, step /= 4) {
    std::vector<Vertex> simplex = simplex_around(search, specs, std::move(best), step);
    nelder_mead(search, simplex, max_runs);
    best = std::move(simplex.front());
  }
  RequestFitResult r;
  r.coefficients = search.at(best.x);
  r.simulated    = std::move(best.times);
  r.errors       = request_errors(measured, r.simulated, held_out_from);
  r.runs         = search.runs();
  return r;
}

}  // namespace llsim

#include "sim/serve/weights/load_tally.hpp"

#include "sim/core/text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace llsim {

size_t LoadTally::started(int instance, double now, bool initial)
{
  Load l;
  l.instance = instance;
  l.start_s  = now;
  l.initial  = initial;
  loads_.push_back(l);
  return loads_.size() - 1;
}

void LoadTally::ended(size_t load, double now, const std::string& source, Outcome outcome)
{
  Load& l   = loads_[load];
  l.end_s   = now;
  l.source  = source;
  l.outcome = outcome;
}

void LoadTally::completed(size_t load, double now, double bytes, const std::string& source)
{
  ended(load, now, source, Outcome::Completed);
  loads_[load].bytes = bytes;
}

void LoadTally::interrupted(size_t load, double now, const std::string& source)
{
  ended(load, now, source, Outcome::Interrupted);
}

void LoadTally::abandoned(size_t load, double now, const std::string& source)
{
  ended(load, now, source, Outcome::Abandoned);
}

double LoadTally::ready_after(int instance, double after_s) const
{
  for (const Load& l : loads_)
    if (l.instance == instance && l.start_s >= after_s && l.outcome == Outcome::Completed)
      return l.end_s;
  return std::numeric_limits<double>::infinity();
}

std::vector<std::vector<std::pair<double, double>>> LoadTally::loading_spans(size_t instances, double end_s) const
{
  std::vector<std::vector<std::pair<double, double>>> spans(instances);
  for (const Load& l : loads_)
    spans.at(static_cast<size_t>(l.instance)).emplace_back(l.start_s, l.end_s < 0 ? end_s : l.end_s);
  return spans;
}

const MetricTable& LoadTally::metric_table()
{
  static const MetricTable t = {
      {"weight_loads", MetricUnit::Count, "weight loads that completed (0 without a weights section)"},
      {"weight_loads_interrupted", MetricUnit::Count,
       "weight loads a failure of their host cut (started over when it is back)"},
      {"weight_bytes_loaded", MetricUnit::Bytes, "bytes the completed weight loads read"},
      {"mean_weight_load_s", MetricUnit::Seconds, "mean time of a completed weight load (none: n/a)"},
      {"max_weight_load_s", MetricUnit::Seconds, "longest completed weight load (none: n/a)"},
      {"time_to_serve_s", MetricUnit::Seconds,
       "from the phase's start until every instance allocated at it had completed its first weight load, after "
       "failures too (0 without a weights section; n/a if one never did)"},
  };
  return t;
}

Metrics LoadTally::metrics(double start_s) const
{
  double done = 0, cut = 0, bytes = 0, sum = 0, longest = 0;
  std::set<int> initial;  // the instances allocated at the phase's start
  std::map<int, double> ready;
  for (const Load& l : loads_) {
    if (l.initial)
      initial.insert(l.instance);
    cut += l.outcome == Outcome::Interrupted ? 1 : 0;
    if (l.outcome != Outcome::Completed)
      continue;
    done += 1;
    bytes += l.bytes;
    sum += l.end_s - l.start_s;
    longest = std::max(longest, l.end_s - l.start_s);
    if (l.initial)
      ready.emplace(l.instance, l.end_s);
  }
  double served = start_s;
  for (int instance : initial)
    served = ready.count(instance) != 0 ? std::max(served, ready.at(instance)) : NAN;
  return {{"weight_loads", done},
          {"weight_loads_interrupted", cut},
          {"weight_bytes_loaded", bytes},
          {"mean_weight_load_s", done > 0 ? sum / done : NAN},
          {"max_weight_load_s", done > 0 ? longest : NAN},
          {"time_to_serve_s", served - start_s}};
}

CsvWriter LoadTally::table() const
{
  static const char* const kOutcomes[] = {"running", "completed", "interrupted", "abandoned"};
  CsvWriter t;
  t.header = {"instance", "start_s", "end_s", "seconds", "bytes", "source", "completed", "outcome"};
  for (const Load& l : loads_) {
    const bool ended = l.end_s >= 0;
    t.rows.push_back({format_number(l.instance), format_number(l.start_s), format_number(ended ? l.end_s : -1),
                      format_number(ended ? l.end_s - l.start_s : -1), format_number(l.bytes), l.source,
                      l.outcome == Outcome::Completed ? "1" : "0", kOutcomes[static_cast<int>(l.outcome)]});
  }
  return t;
}

}  // namespace llsim

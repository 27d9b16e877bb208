#include "sim/serve/load_tally.hpp"

#include "sim/core/text.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace llsim {

size_t LoadTally::started(int instance, double now)
{
  Load l;
  l.instance = instance;
  l.start_s  = now;
  loads_.push_back(l);
  return loads_.size() - 1;
}

void LoadTally::completed(size_t load, double now, double bytes, const std::string& source)
{
  Load& l     = loads_[load];
  l.end_s     = now;
  l.bytes     = bytes;
  l.source    = source;
  l.completed = true;
}

void LoadTally::interrupted(size_t load, double now, const std::string& source)
{
  loads_[load].end_s  = now;
  loads_[load].source = source;
}

double LoadTally::ready_after(int instance, double after_s) const
{
  for (const Load& l : loads_)
    if (l.instance == instance && l.start_s >= after_s && l.completed)
      return l.end_s;
  return std::numeric_limits<double>::infinity();
}

const MetricTable& LoadTally::metric_table()
{
  static const MetricTable t = {
      {"weight_loads", MetricUnit::Count, "weight loads that completed (0 without a weights section)"},
      {"weight_loads_interrupted", MetricUnit::Count, "weight loads a failure of their host cut (started over)"},
      {"weight_bytes_loaded", MetricUnit::Bytes, "bytes the completed weight loads read"},
      {"mean_weight_load_s", MetricUnit::Seconds, "mean time of a completed weight load (0 when none)"},
      {"max_weight_load_s", MetricUnit::Seconds, "longest completed weight load (0 when none)"},
      {"time_to_serve_s", MetricUnit::Seconds,
       "from the phase's start until every instance that started loading with it had completed a load, after "
       "failures too (those that never did left out; 0 when none did)"},
  };
  return t;
}

Metrics LoadTally::metrics(double start_s) const
{
  double done = 0, cut = 0, bytes = 0, sum = 0, longest = 0;
  std::map<int, double> first_ready;  // per instance, its first completed load's end
  std::set<int> at_start;             // the instances that started loading with the phase
  for (const Load& l : loads_) {
    if (l.start_s == start_s)
      at_start.insert(l.instance);
    if (!l.completed) {
      cut += l.end_s >= 0 ? 1 : 0;
      continue;
    }
    done += 1;
    bytes += l.bytes;
    sum += l.end_s - l.start_s;
    longest = std::max(longest, l.end_s - l.start_s);
    first_ready.emplace(l.instance, l.end_s);
  }
  double ready = start_s;
  for (int instance : at_start)
    if (first_ready.count(instance) != 0)
      ready = std::max(ready, first_ready.at(instance));
  return {{"weight_loads", done},         {"weight_loads_interrupted", cut},
          {"weight_bytes_loaded", bytes}, {"mean_weight_load_s", done > 0 ? sum / done : 0},
          {"max_weight_load_s", longest}, {"time_to_serve_s", ready - start_s}};
}

CsvWriter LoadTally::table() const
{
  CsvWriter t;
  t.header = {"instance", "start_s", "end_s", "seconds", "bytes", "source", "completed"};
  for (const Load& l : loads_) {
    const bool ended = l.end_s >= 0;
    t.rows.push_back({format_number(l.instance), format_number(l.start_s), format_number(ended ? l.end_s : -1),
                      format_number(ended ? l.end_s - l.start_s : -1), format_number(l.bytes), l.source,
                      l.completed ? "1" : "0"});
  }
  return t;
}

}  // namespace llsim

#include "sim/svc/service.hpp"

#include "sim/core/text.hpp"

#include <algorithm>

namespace llsim {

const ParamTable& Service::common_params()
{
  static const ParamTable t = {
      ParamSpec::text("servers", "platform group whose hosts are the servers"),
      ParamSpec::integer("threads", "requests one server serves at once; the others wait in its FIFO queue (a "
                                    "storage server's threads serve its direct clients: I/O that comes through a "
                                    "forwarding service is paced by the forwarding threads and the disks)")
          .defaults("16")
          .at_least(1)
          .at_most(100000),
      ParamSpec::quantity("sample_period", Dimension::Duration, "time buckets of service_<name>.csv")
          .defaults("10s")
          .at_least(1e-3),
  };
  return t;
}

Service::Service(const Params& p, const Context& c)
    : name_(c.name)
    , servers_(c.platform.group_param(p, "servers"))
    , threads_(static_cast<size_t>(p.integer("threads")))
    , sample_period_s_(p.quantity("sample_period"))
{
  utilisation_of(threads_);
}

void Service::utilisation_of(size_t units_per_server)
{
  stats_.assign(static_cast<size_t>(servers_.count), ServerStats(sample_period_s_, units_per_server));
}

void Service::finish(double end_s)
{
  end_s_ = end_s;
  before_finish(end_s);
  for (auto& s : stats_)
    s.finish(end_s);
}

const MetricTable& Service::common_metrics()
{
  static const MetricTable t = {
      {"bytes", MetricUnit::Bytes,
       "bytes the servers moved: storage disk writes and reads, forwarding relays, memory_pool puts and gets, "
       "metadata RPCs (a request and a reply of rpc_size per operation)"},
      {"operations", MetricUnit::Count,
       "requests the servers completed: storage disk requests, forwarding relays, memory_pool puts and gets "
       "(misses and rejected puts included), metadata operations (an RPC standing for `scale` of them counts "
       "`scale`)"},
      {"utilisation", MetricUnit::Ratio,
       "busy unit-seconds / (units x simulated time) over all servers; the units are the threads, or the disks "
       "of a storage server"},
      {"peak_queue", MetricUnit::Count, "the most requests waiting at one server at once"},
      {"sample_period_s", MetricUnit::Seconds, "the time buckets of service_<name>.csv (the service's sample_period)"},
  };
  return t;
}

Metrics Service::totals() const
{
  double bytes = 0, operations = 0, busy_s = 0, capacity_s = 0;
  size_t peak = 0;
  for (const auto& s : stats_) {
    bytes += s.bytes();
    operations += s.operations();
    busy_s += s.busy_seconds();
    capacity_s += end_s_ * s.units();
    peak = std::max(peak, s.peak_queue());
  }
  return {{"bytes", bytes},
          {"operations", operations},
          {"utilisation", capacity_s > 0 ? busy_s / capacity_s : 0},
          {"peak_queue", static_cast<double>(peak)},
          {"sample_period_s", sample_period_s_}};
}

CsvWriter Service::table(const PlatformSpec& platform) const
{
  CsvWriter out;
  out.header = {"time_s", "server", "bytes", "operations", "queue_length", "utilisation"};
  if (reports_stored_bytes_)
    out.header.push_back("stored_bytes");
  std::vector<std::pair<double, std::vector<std::string>>> rows;
  for (size_t s = 0; s < stats_.size(); ++s)
    for (const auto& r : stats_[s].rows()) {
      std::vector<std::string> row = {
          format_number(r.time_s), platform.host_name(servers_.host(static_cast<int64_t>(s))),
          format_number(r.bytes),  format_number(r.operations),
          format_number(r.queue),  format_number(r.utilisation)};
      if (reports_stored_bytes_)
        row.push_back(format_number(r.level));
      rows.push_back({r.time_s, std::move(row)});
    }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& r : rows)
    out.rows.push_back(std::move(r.second));
  return out;
}

}  // namespace llsim

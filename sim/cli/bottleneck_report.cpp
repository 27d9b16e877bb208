#include "sim/cli/bottleneck_report.hpp"

#include "sim/cli/metrics_listing.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/run/bottlenecks.hpp"

#include <cmath>
#include <cstdio>

namespace llsim {

namespace {

std::string percent(double share)
{
  char text[32];
  std::snprintf(text, sizeof text, share >= 0.1 ? "%.0f%%" : "%.1f%%", 100 * share);
  return text;
}

// "4000 (KV capacity), 2 (no instance up)": the requests a phase turned away, by reason.
std::string turned_away_text(const PhaseResult& p)
{
  std::string out;
  for (const auto& [reason, requests] : p.turned_away)
    out += (out.empty() ? "" : ", ") + std::to_string(static_cast<long long>(requests)) + " (" + reason + ")";
  return out;
}

}  // namespace

std::string bottleneck_line(const SimulationResult& result)
{
  std::string out;
  for (const PhaseResult& p : result.phases) {
    const auto ranked = ranked_shares(p.waits);
    if (!ranked.empty())
      out += "  " + p.name + ": " + ranked.front().first + " " + percent(ranked.front().second) + " of " + p.waits_of;
    if (!p.turned_away.empty())
      out += (ranked.empty() ? "  " + p.name + ":" : ",") + " turned away " + turned_away_text(p);
    if (!ranked.empty() || !p.turned_away.empty())
      out += ";";
  }
  return out.empty() ? "" : "what limited each phase:" + out + "\n";
}

std::string bottleneck_section(const SimulationResult& result)
{
  std::string out = "\n## What limited each phase\n\nThe time each phase's work spent at each resource: waiting "
                    "in a server's queue for a thread, in a disk's queue (or for room in its write cache), "
                    "on a disk, on the network (named by the kind of link that held the flow back), in a metadata "
                    "server's queue or service, computing, in GPU iterations (by what "
                    "set their time, counted once per sequence in the batch), or waiting for KV memory or a "
                    "batch slot or for weights. Each share is of the time its phase names: a serve phase's "
                    "requests' time (parallel requests each count), a train phase's job time (makespan), "
                    "other phases' work time (parallel work each counts). Requests a serving system turned "
                    "away spent no time: they are counted by reason (docs/accounting.md).\n\n"
                    "| phase | most limiting | share | of | then | requests turned away |\n"
                    "|---|---|---|---|---|---|\n";
  for (const PhaseResult& p : result.phases) {
    const auto ranked = ranked_shares(p.waits);
    std::string then;
    for (size_t k = 1; k < ranked.size() && k < 4; ++k)
      then += (then.empty() ? "" : ", ") + ranked[k].first + " " + percent(ranked[k].second);
    const std::string limit = phase_limit(p);
    out += "| " + p.name + " | " + (limit.empty() ? "nothing charged" : limit) + " | " +
           (ranked.empty() ? "" : percent(ranked.front().second)) + " | " + (ranked.empty() ? "" : p.waits_of) + " | " +
           markdown_cell(then) + " | " + markdown_cell(turned_away_text(p)) + " |\n";
  }
  for (const PhaseResult& p : result.phases) {
    std::string background;
    for (const auto& [resource, share] : ranked_shares(p.background_waits))
      background += (background.empty() ? "" : ", ") + resource + " " +
                    readable(MetricUnit::Seconds, p.background_waits.at(resource));
    if (!background.empty())
      out += "\n" + p.name + "'s background and provisioning work, which the shares leave out: " + background + ".\n";
  }
  return out;
}

}  // namespace llsim

#include "sim/cli/bottleneck_report.hpp"

#include "sim/cli/metrics_listing.hpp"
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

}  // namespace

std::string bottleneck_line(const SimulationResult& result)
{
  std::string out;
  for (const PhaseResult& p : result.phases) {
    const auto ranked = ranked_shares(p.waits);
    if (!ranked.empty())
      out += "  " + p.name + ": " + ranked.front().first + " " + percent(ranked.front().second) + ";";
  }
  return out.empty() ? "" : "what limited each phase (share of its work's time):" + out + "\n";
}

std::string bottleneck_section(const SimulationResult& result)
{
  std::string out = "\n## What limited each phase\n\nThe time each phase's work spent at each resource: waiting "
                    "in a server's queue for a thread, in a disk's queue (or for room in its write cache), "
                    "on a disk, on the network (named by the narrowest kind of link on the route), in a metadata "
                    "server's queue or service, computing, in GPU iterations (by what set their time, counted "
                    "once per sequence in the batch), or waiting for a batch slot or KV memory. Parallel "
                    "requests each count, so the shares are of request-seconds (docs/accounting.md).\n\n"
                    "| phase | most limiting | share | then |\n|---|---|---|---|\n";
  for (const PhaseResult& p : result.phases) {
    const auto ranked = ranked_shares(p.waits);
    std::string then;
    for (size_t k = 1; k < ranked.size() && k < 4; ++k)
      then += (then.empty() ? "" : ", ") + ranked[k].first + " " + percent(ranked[k].second);
    out += "| " + p.name + " | " + (ranked.empty() ? "nothing charged" : ranked.front().first) + " | " +
           (ranked.empty() ? "" : percent(ranked.front().second)) + " | " + markdown_cell(then) + " |\n";
  }
  return out;
}

}  // namespace llsim

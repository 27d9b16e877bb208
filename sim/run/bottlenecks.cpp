#include "sim/run/bottlenecks.hpp"

#include "sim/run/json_number.hpp"

#include <algorithm>

namespace llsim {

std::vector<std::pair<std::string, double>> ranked_shares(const std::map<std::string, double>& seconds)
{
  double total = 0;
  for (const auto& [resource, s] : seconds)
    total += s;
  std::vector<std::pair<std::string, double>> out;
  if (!(total > 0))
    return out;
  for (const auto& [resource, s] : seconds)
    out.emplace_back(resource, s / total);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

nlohmann::ordered_json bottlenecks_json(const SimulationResult& result)
{
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const PhaseResult& p : result.phases) {
    const auto ranked              = ranked_shares(p.waits);
    nlohmann::ordered_json shares  = nlohmann::ordered_json::object();
    nlohmann::ordered_json seconds = nlohmann::ordered_json::object();
    for (const auto& [resource, share] : ranked) {
      shares[resource]  = json_number(share);
      seconds[resource] = json_number(p.waits.at(resource));
    }
    nlohmann::ordered_json phase;
    phase["limit"]   = ranked.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ranked.front().first);
    phase["share"]   = ranked.empty() ? nlohmann::ordered_json(nullptr) : json_number(ranked.front().second);
    phase["shares"]  = shares;
    phase["seconds"] = seconds;
    out[p.name]      = phase;
  }
  return out;
}

}  // namespace llsim

#include "sim/run/bottlenecks.hpp"

#include "sim/core/json_number.hpp"

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

std::string phase_limit(const PhaseResult& p)
{
  const auto ranked = ranked_shares(p.waits);
  if (!ranked.empty())
    return ranked.front().first;
  const auto commonest = std::max_element(p.turned_away.begin(), p.turned_away.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
  return commonest == p.turned_away.end() ? "" : "turned away: " + commonest->first;
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
    nlohmann::ordered_json turned_away = nlohmann::ordered_json::object();
    for (const auto& [reason, requests] : p.turned_away)
      turned_away[reason] = json_number(requests);
    const std::string limit = phase_limit(p);
    nlohmann::ordered_json phase;
    phase["limit"]       = limit.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(limit);
    phase["share"]       = ranked.empty() ? nlohmann::ordered_json(nullptr) : json_number(ranked.front().second);
    phase["of"]          = p.waits_of;
    phase["shares"]      = shares;
    phase["seconds"]     = seconds;
    phase["turned_away"] = turned_away;
    nlohmann::ordered_json background = nlohmann::ordered_json::object();
    for (const auto& [resource, s] : p.background_waits)
      background[resource] = json_number(s);
    phase["background_seconds"] = background;
    out[p.name]                 = phase;
  }
  return out;
}

}  // namespace llsim

// Numbers as summary.json writes them: whole numbers as integers ("3", not "3.0"); JSON has no
// infinity or NaN, so those are null (e.g. the MTBF of a job that never fails).
#pragma once
#include "sim/core/metrics.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>

namespace llsim {

inline nlohmann::ordered_json json_number(double v)
{
  if (!std::isfinite(v))
    return nullptr;
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return static_cast<int64_t>(v);
  return v;
}

inline nlohmann::ordered_json json_metrics(const Metrics& metrics)
{
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [metric, value] : metrics)
    out[metric] = json_number(value);
  return out;
}

}  // namespace llsim

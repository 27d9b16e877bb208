#include "sim/sg/log_setting.hpp"

#include <algorithm>
#include <stdexcept>

namespace llsim {

std::string xbt_log_setting(const std::string& setting)
{
  const auto colon = setting.find(':');
  const std::string name = setting.substr(0, colon);
  const bool xbt_form    = name.find(".thres") != std::string::npos || name.find(".fmt") != std::string::npos ||
                        name.find(".app") != std::string::npos || name.find(".add") != std::string::npos;
  if (xbt_form)
    return setting;
  if (colon == std::string::npos || name.empty())
    throw std::invalid_argument("--log=" + setting + ": expected CATEGORY:LEVEL, e.g. --log=llsim.svc.storage:debug");
  const std::string level = setting.substr(colon + 1);
  static const char* const levels[] = {"trace", "debug", "verbose", "info", "warning", "error", "critical"};
  if (std::none_of(std::begin(levels), std::end(levels), [&](const char* l) { return level == l; }))
    throw std::invalid_argument("--log=" + setting + ": unknown level '" + level +
                                "' (expected trace, debug, verbose, info, warning, error or critical)");
  std::string xbt_name = name;
  std::replace(xbt_name.begin(), xbt_name.end(), '.', '_');
  return xbt_name + ".thresh:" + level;
}

}  // namespace llsim

#include "sim/sg/log_setting.hpp"

#include "sim/core/text.hpp"

#include <xbt/log.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

XBT_LOG_EXTERNAL_CATEGORY(root);

namespace llsim {

namespace {

// Every XBT category joins the tree under `root` when the program loads (a static constructor
// per category), so the tree lists every category that exists. Read only, to name a mistyped one.
void collect(xbt_log_category_t cat, std::vector<std::string>& names)
{
  for (; cat != nullptr; cat = cat->nextSibling) {
    names.emplace_back(cat->name);
    collect(cat->firstChild, names);
  }
}

std::vector<std::string> category_names()
{
  std::vector<std::string> names;
  collect(&_XBT_LOGV(root), names);
  return names;
}

}  // namespace

std::string xbt_log_setting(const std::string& setting)
{
  const auto colon       = setting.find(':');
  const std::string name = setting.substr(0, colon);
  const bool xbt_form    = name.find(".thres") != std::string::npos || name.find(".fmt") != std::string::npos ||
                        name.find(".app") != std::string::npos || name.find(".add") != std::string::npos;
  if (xbt_form)
    return setting;
  if (colon == std::string::npos || name.empty())
    throw std::invalid_argument("--log=" + setting + ": expected CATEGORY:LEVEL, e.g. --log=llsim.svc.storage:debug");
  const std::string level                      = setting.substr(colon + 1);
  static const std::vector<std::string> levels = {"trace", "debug", "verbose", "info", "warning", "error", "critical"};
  if (std::find(levels.begin(), levels.end(), level) == levels.end())
    throw std::invalid_argument("--log=" + setting + ": " + unknown_word("level", level, levels));
  std::string xbt_name = name;
  std::replace(xbt_name.begin(), xbt_name.end(), '.', '_');
  const std::vector<std::string> names = category_names();
  if (std::find(names.begin(), names.end(), xbt_name) == names.end()) {
    // Written back as documented, llsim.<room>.<file>: the file's own underscores stay.
    std::string close = nearest(xbt_name, names);
    for (int dots = 0, at = 0; dots < 2 && (at = static_cast<int>(close.find('_'))) >= 0; ++dots)
      close[static_cast<size_t>(at)] = '.';
    throw std::invalid_argument("--log=" + setting + ": no log category '" + name + "'" +
                                (close.empty() ? std::string(" (llsim's are named after their source files, e.g. "
                                                             "llsim.svc.storage)")
                                               : ": did you mean '" + close + "'?"));
  }
  return xbt_name + ".thresh:" + level;
}

}  // namespace llsim

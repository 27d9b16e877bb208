#include "sim/core/progress_board.hpp"

#include "sim/core/text.hpp"

#include <utility>
#include <vector>

namespace llsim {

namespace {

struct Entry {
  std::string owner, what;
  double value;
};

std::vector<Entry>& entries()
{
  static std::vector<Entry> list;
  return list;
}

}  // namespace

void ProgressBoard::set(const std::string& owner, const std::string& what, double value)
{
  for (auto& e : entries())
    if (e.owner == owner && e.what == what) {
      e.value = value;
      return;
    }
  entries().push_back({owner, what, value});
}

std::string ProgressBoard::text()
{
  std::vector<std::string> parts;
  for (const auto& e : entries())
    parts.push_back(e.owner + ": " + format_number(e.value) + " " + e.what);
  return join(parts, ", ");
}

}  // namespace llsim

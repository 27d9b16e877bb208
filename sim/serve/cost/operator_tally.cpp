#include "sim/serve/cost/operator_tally.hpp"

#include "sim/core/text.hpp"

namespace llsim {

void OperatorTally::add(const char* role, const IterationModel& model, const BatchWork& work)
{
  const std::vector<std::string>& names = model.operator_names();
  if (names.empty())  // most models do not break their time down: nothing is allocated for them
    return;
  Sums& s = seconds_[role];
  if (!s.names) {
    s.names = &names;
    s.seconds.assign(names.size(), 0);
  }
  model.add_operator_seconds(work, s.seconds);
}

CsvWriter OperatorTally::table() const
{
  CsvWriter t;
  t.header = {"role", "operator", "seconds", "share"};
  for (const auto& [role, sums] : seconds_) {
    double all = 0;
    for (double s : sums.seconds)
      all += s;
    for (size_t i = 0; i < sums.seconds.size(); ++i)
      t.rows.push_back(
          {role, (*sums.names)[i], format_number(sums.seconds[i]), format_number(all > 0 ? sums.seconds[i] / all : 0)});
  }
  return t;
}

}  // namespace llsim

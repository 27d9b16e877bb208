#include "sim/cli/plan_report.hpp"

#include "sim/cli/metrics_listing.hpp"
#include "sim/cli/run_report.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace llsim {

namespace {

std::string with_interval(const MetricFigure& f)
{
  return readable(MetricUnit::Number, f.mean) +
         (std::isfinite(f.low)
              ? " [" + readable(MetricUnit::Number, f.low) + ", " + readable(MetricUnit::Number, f.high) + "]"
              : "");
}

// Text for a code span in a table cell: only '|' needs escaping there.
std::string pipe_escaped(const std::string& text)
{
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// Whether `a` is at least as good as `b` in the objective and every target metric, better in one.
bool beats(const PlanSetup& s, const PlanPoint& a, const PlanPoint& b)
{
  bool better = a.score.objective < b.score.objective;
  if (a.score.objective > b.score.objective)
    return false;
  for (const PlanTarget& t : s.targets) {
    const bool up  = t.op == Comparison::AtLeast || t.op == Comparison::Above;
    const double x = a.figures.at(t.metric).mean, y = b.figures.at(t.metric).mean;
    if (up ? x < y : x > y)
      return false;
    better = better || (up ? x > y : x < y);
  }
  return better;
}

std::string point_rows(const PlanOutcome& o, const std::vector<const PlanPoint*>& points)
{
  const PlanSetup& s = *o.setup;
  std::string out    = "| point | " + s.objective + " |";
  for (const PlanTarget& t : s.targets)
    out += " `" + pipe_escaped(t.text) + "` |";
  out += " meets |\n|---|---|";
  for (size_t k = 0; k < s.targets.size(); ++k)
    out += "---|";
  out += "---|\n";
  for (const PlanPoint* p : points) {
    out += "| " + markdown_cell(point_text(s, p->index)) + " | " + with_interval(p->figures.at(s.objective)) + " |";
    for (size_t k = 0; k < s.targets.size(); ++k)
      out += " " + with_interval(p->figures.at(s.targets[k].metric)) + (p->met[k] ? "" : " (misses)") + " |";
    out += std::string(" ") + (p->score.meets ? "yes" : "no") + " |\n";
  }
  return out;
}

}  // namespace

std::string point_text(const PlanSetup& setup, const PointIndex& index)
{
  std::string out;
  for (size_t a = 0; a < index.size(); ++a)
    out += (a == 0 ? "" : ", ") + setup.axes[a].path + "=" + setup.axes[a].values[index[a]];
  return out;
}

namespace {

// "16 before 15" where a list's values, as numbers with one unit (16, 15; 10min, 5min), go the
// way the search does not expect: falling when minimizing (more instances meet targets more
// easily and cost more), rising with --maximize (the most accelerators that keep AU >= 0.9 are
// listed 64, 63, ...: fewer meet the target more easily).
std::string unexpected_step(const PlanAxis& axis, bool maximize)
{
  std::vector<double> numbers;
  std::string unit;
  for (const std::string& v : axis.values) {
    char* end      = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    const std::string rest(end);
    if (end == v.c_str() || (!numbers.empty() && rest != unit))
      return "";
    unit = rest;
    numbers.push_back(x);
  }
  for (size_t k = 1; k < numbers.size(); ++k)
    if (maximize ? numbers[k] > numbers[k - 1] : numbers[k] < numbers[k - 1])
      return axis.values[k - 1] + " before " + axis.values[k];
  return "";
}

// Points run whose mean meets every target (they may miss on their confidence interval).
size_t meeting_on_mean(const PlanOutcome& o)
{
  size_t n = 0;
  for (const PlanPoint* p : o.points) {
    bool all = true;
    for (const PlanTarget& t : o.setup->targets)
      all = all && meets_target(t, p->figures.at(t.metric), 1);
    n += all ? 1 : 0;
  }
  return n;
}

}  // namespace

std::vector<std::string> plan_warnings(const PlanOutcome& o)
{
  const PlanSetup& s = *o.setup;
  std::vector<std::string> out;
  for (const PlanAxis& axis : s.axes)
    if (const std::string step = axis.shape == AxisShape::Monotone ? unexpected_step(axis, s.maximize) : "";
        !step.empty())
      out.push_back("--axis " + axis.path + " lists " + step +
                    ": the search takes the values in the order given, as the order in which the targets get "
                    "easier to meet and the objective gets worse" +
                    (s.maximize ? " (with --maximize: smaller)" : ""));
  if (const size_t n = meeting_on_mean(o); !o.answer.feasible && s.seeds >= 2 && n > 0)
    out.push_back(std::to_string(n) + " of the " + std::to_string(o.points.size()) +
                  " points run meet every target on their mean but not with 95% confidence over " +
                  std::to_string(s.seeds) + " seeds; more --seeds narrow the intervals");
  for (size_t a = 0; a < s.axes.size(); ++a) {
    if (s.axes[a].shape != AxisShape::Monotone)
      continue;
    for (const PlanPoint* p : o.points)
      for (const PlanPoint* q : o.points) {
        bool along = p->index[a] < q->index[a];
        for (size_t b = 0; b < s.axes.size() && along; ++b)
          along = b == a || p->index[b] == q->index[b];
        const double x = p->score.objective, y = q->score.objective;
        if (along && p->score.meets && q->score.meets && std::isfinite(x) && std::isfinite(y) && y < x &&
            out.size() < 3)
          out.push_back("the objective gets better along --axis " + s.axes[a].path + " from " +
                        s.axes[a].values[p->index[a]] + " to " + s.axes[a].values[q->index[a]] + " (" + s.objective +
                        " " + readable(MetricUnit::Number, p->figures.at(s.objective).mean) + " to " +
                        readable(MetricUnit::Number, q->figures.at(s.objective).mean) +
                        "), both meeting the targets: the search assumes it gets worse, so a point it skipped further "
                        "on may be better; run --exhaustive over that range to check");
      }
  }
  return out;
}

std::vector<const PlanPoint*> plan_frontier(const PlanOutcome& o)
{
  // Points with a figure missing (a metric null in a run) are left out: they compare with none.
  std::vector<const PlanPoint*> known;
  for (const PlanPoint* p : o.points)
    if (std::all_of(p->figures.begin(), p->figures.end(), [](const auto& f) { return std::isfinite(f.second.mean); }))
      known.push_back(p);
  std::vector<const PlanPoint*> out;
  for (const PlanPoint* p : known)
    if (std::none_of(known.begin(), known.end(), [&](const PlanPoint* q) { return q != p && beats(*o.setup, *q, *p); }))
      out.push_back(p);
  std::sort(out.begin(), out.end(),
            [](const PlanPoint* a, const PlanPoint* b) { return a->score.objective < b->score.objective; });
  return out;
}

std::string plan_points_csv(const PlanOutcome& o)
{
  const PlanSetup& s = *o.setup;
  CsvWriter t;
  for (const PlanAxis& a : s.axes)
    t.header.push_back(a.path);
  t.header.insert(t.header.end(), {"seeds", "objective", "objective_low", "objective_high"});
  for (size_t k = 0; k < s.targets.size(); ++k)
    for (const char* column : {"mean", "low", "high", "met"})
      t.header.push_back("target" + std::to_string(k) + "_" + column);
  t.header.insert(t.header.end(), {"meets", "answer", "frontier"});
  const std::vector<const PlanPoint*> frontier = plan_frontier(o);
  for (const PlanPoint* p : o.points) {
    std::vector<std::string> row;
    for (size_t a = 0; a < s.axes.size(); ++a)
      row.push_back(CsvWriter::cell(s.axes[a].values[p->index[a]]));
    const MetricFigure& obj = p->figures.at(s.objective);
    row.push_back(std::to_string(s.seeds));
    for (double v : {obj.mean, obj.low, obj.high})
      row.push_back(std::isfinite(v) ? format_number(v) : "");
    for (size_t k = 0; k < s.targets.size(); ++k) {
      const MetricFigure& f = p->figures.at(s.targets[k].metric);
      for (double v : {f.mean, f.low, f.high})
        row.push_back(std::isfinite(v) ? format_number(v) : "");
      row.push_back(p->met[k] ? "1" : "0");
    }
    row.push_back(p->score.meets ? "1" : "0");
    row.push_back(p->index == o.answer.best ? "1" : "0");
    row.push_back(std::count(frontier.begin(), frontier.end(), p) > 0 ? "1" : "0");
    t.rows.push_back(row);
  }
  return t.text();
}

std::string plan_answer_json(const PlanOutcome& o)
{
  const PlanSetup& s           = *o.setup;
  nlohmann::ordered_json point = nlohmann::ordered_json::object();
  for (size_t a = 0; a < s.axes.size(); ++a)
    point[s.axes[a].path] = s.axes[a].values[o.answer.best[a]];
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  static const char* const ops[] = {">=", "<=", ">", "<"};
  for (const PlanTarget& t : s.targets)
    targets.push_back(
        {{"metric", t.metric}, {"op", ops[static_cast<int>(t.op)]}, {"value", t.value}, {"text", t.text}});
  const PlanPoint* best = nullptr;
  for (const PlanPoint* p : o.points)
    if (p->index == o.answer.best)
      best = p;
  const auto figure = [best](const std::string& metric) {
    const MetricFigure& f = best->figures.at(metric);
    const auto number     = [](double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nullptr; };
    return nlohmann::ordered_json{{"mean", number(f.mean)}, {"low", number(f.low)}, {"high", number(f.high)}};
  };
  for (size_t k = 0; k < s.targets.size(); ++k) {
    targets[k]["at_point"] = figure(s.targets[k].metric);
    targets[k]["met"]      = static_cast<bool>(best->met[k]);
  }
  const nlohmann::ordered_json out = {{"feasible", o.answer.feasible},
                                      {"point", point},
                                      {"objective_at_point", figure(s.objective)},
                                      {"shortfall", best->score.shortfall},
                                      {"objective", s.objective},
                                      {"maximize", s.maximize},
                                      {"targets", targets},
                                      {"seeds", s.seeds},
                                      {"points_run", o.points.size()},
                                      {"grid_points", o.grid_points},
                                      {"exhaustive", o.exhaustive}};
  return out.dump(2) + "\n";
}

std::string plan_report(const PlanOutcome& o, const std::vector<std::string>& plots)
{
  const PlanSetup& s = *o.setup;
  std::string out    = "# Plan: " + std::filesystem::path(s.scenario).stem().string() + "\n\n";
  out += "- Reproduce: " + markdown_command(o.command) + "\n";
  out += "- Objective: " + std::string(s.maximize ? "maximize" : "minimize") + " `" + s.objective +
         "` (mean over the seeds)\n";
  out += "- Targets (a point meets one when its 95% confidence interval lies on the target's side; its mean with "
         "one seed):";
  for (const PlanTarget& t : s.targets)
    out += " `" + t.text + "`";
  out += s.targets.empty() ? " none\n" : "\n";
  for (const PlanAxis& a : s.axes)
    out += "- Axis `" + a.path + "` (" + (a.shape == AxisShape::Monotone ? "monotone" : "unimodal") +
           "): " + std::to_string(a.values.size()) + " values, " + a.values.front() + " to " + a.values.back() + "\n";
  const size_t runs = o.points.size() * static_cast<size_t>(s.seeds);
  out += "- Runs: " + std::to_string(runs) + " (" + std::to_string(o.points.size()) + " points x " +
         std::to_string(s.seeds) + " seeds; " + std::to_string(o.made) + " run now, " + std::to_string(o.kept) +
         " kept from before) against " + std::to_string(o.grid_points * static_cast<size_t>(s.seeds)) +
         " for the full grid (" + std::to_string(o.grid_points) + " points)" +
         (o.exhaustive ? ", the full grid run (--exhaustive)" : "") + "\n\n";
  out += notes_section(s.notes);
  const PlanPoint* best = nullptr;
  for (const PlanPoint* p : o.points)
    if (p->index == o.answer.best)
      best = p;
  if (o.answer.feasible)
    out += "## Answer\n\n**" + point_text(s, o.answer.best) + "**: `" + s.objective + "` " +
           with_interval(best->figures.at(s.objective)) + ".\n\n";
  else
    out += "## Answer\n\n**No point meets the targets.** The closest the search found is " +
           point_text(s, o.answer.best) + " (`" + s.objective + "` " + with_interval(best->figures.at(s.objective)) +
           ").\n\n";
  for (const std::string& w : plan_warnings(o))
    out += "**Warning:** " + w + ".\n\n";
  out += "## Frontier\n\nPoints no other point beats in `" + s.objective + "` and every target metric at once:\n\n" +
         point_rows(o, plan_frontier(o));
  out += "\n## Every point run\n\n" + point_rows(o, o.points);
  if (!plots.empty()) {
    out += "\n## Plots\n\n";
    for (const std::string& p : plots)
      out += "![" + std::filesystem::path(p).stem().string() + "](" + p + ")\n";
  }
  return out;
}

}  // namespace llsim

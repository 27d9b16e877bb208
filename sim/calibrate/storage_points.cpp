#include "sim/calibrate/storage_points.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/serve/cost/vidur_csv.hpp"

#include <cmath>
#include <filesystem>

namespace llsim {

std::vector<StoragePoint> read_storage_points(const std::string& file)
{
  const CsvTable csv = read_csv_file(file);
  if (csv.rows.empty())
    throw ConfigError(file + ": no measured results");
  const size_t scenario = csv.column("scenario"), group = csv.column("group");
  const size_t metric = csv.column("metric"), measured = csv.column("measured");
  const std::filesystem::path dir = std::filesystem::path(file).parent_path();
  std::vector<StoragePoint> points;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    StoragePoint p;
    p.where                 = row_location(csv, r);
    const std::string& path = csv.rows[r][scenario];
    const std::string& name = csv.rows[r][metric];
    const size_t dot        = name.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == name.size())
      throw ConfigError(p.where + ": column 'metric': expected phase.metric (e.g. checkpoint.save_GiBps), got '" +
                        name + "'");
    if (path.empty() || csv.rows[r][group].empty())
      throw ConfigError(p.where + ": columns 'scenario' and 'group' must not be empty");
    p.scenario = (dir / path).string();
    std::error_code unreadable;  // a name too long for the file system is no file either
    if (!std::filesystem::is_regular_file(p.scenario, unreadable))
      throw ConfigError(p.where + ": column 'scenario': no file '" + p.scenario + "'");
    p.group    = csv.rows[r][group];
    p.phase    = name.substr(0, dot);
    p.metric   = name.substr(dot + 1);
    p.measured = csv.number(r, measured);
    if (!(p.measured > 0) || !std::isfinite(p.measured))
      throw ConfigError(p.where + ": column 'measured': expected a figure > 0 (errors are relative)");
    points.push_back(p);
  }
  return points;
}

}  // namespace llsim

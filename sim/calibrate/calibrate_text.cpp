#include "sim/calibrate/calibrate_text.hpp"

#include "sim/core/errors.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace llsim {

std::string coefficient_text(const CoefficientSpec& s, double v)
{
  char buf[64];
  if (!s.duration) {
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
  }
  if (v >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.4gms", v * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.4gus", v * 1e6);
  return buf;
}

std::string percent(double share)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", share * 100);
  return buf;
}

std::string iteration_line(const std::vector<std::string>& keys, const std::string& start_text,
                           const OperatorCoefficients& c)
{
  std::ostringstream line;
  line << "iteration: {impl: operators";
  for (const CoefficientSpec& s : fittable_coefficients())
    if (std::find(keys.begin(), keys.end(), s.key) != keys.end() || start_text.find(s.key) != std::string::npos)
      line << ", " << s.key << ": " << coefficient_text(s, c.*(s.field));
  line << "}\n";
  return line.str();
}

// A file the command will write: refused before any work when it cannot be.
void check_writable(const char* option, const std::string& file)
{
  namespace fs            = std::filesystem;
  const fs::path parent   = fs::path(file).parent_path();
  const bool no_directory = !parent.empty() && !fs::is_directory(parent);
  if (file.empty() || fs::is_directory(file) || no_directory)
    throw ConfigError(std::string(option) + " " + file + ": cannot write there (" +
                      (no_directory ? "no directory " + parent.string() : "expected a file name") + ")");
}

void write_block(const std::string& file, const std::string& block)
{
  if (file.empty())
    return;
  std::ofstream out(file);
  if (!(out << block))
    throw ConfigError("--out " + file + ": cannot write");
}

}  // namespace llsim

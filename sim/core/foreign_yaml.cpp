#include "sim/core/foreign_yaml.hpp"

#include "sim/core/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace llsim {

std::optional<YamlRef> optional_section(const YamlRef& top, const char* key, const std::string& what)
{
  if (!top.node()[key])
    return std::nullopt;
  YamlRef s = top.child(key);
  if (!s.node().IsMap())
    s.fail("expected a mapping of " + what);
  return s;
}

std::optional<YamlRef> optional_key(const std::optional<YamlRef>& section, const char* key)
{
  if (!section || !section->node()[key])
    return std::nullopt;
  return section->child(key);
}

double foreign_number(const YamlRef& ref, int least, bool whole)
{
  const std::string expected = std::string(whole ? "a whole number" : "a number") + " >= " + std::to_string(least);
  const std::string text     = scalar_text(ref, expected.c_str());
  double v                   = NAN;
  try {
    v = parse_quantity(text, Dimension::Number);
  } catch (const std::invalid_argument&) {
  }
  if (!(v >= least) || !std::isfinite(v) || (whole && (v != std::floor(v) || v > 9e15)))
    ref.fail("expected " + expected + ", got '" + text + "'");
  return v;
}

double foreign_number_of(const std::optional<YamlRef>& section, std::initializer_list<const char*> keys, int least,
                         bool whole, double fallback)
{
  for (const char* k : keys)
    if (auto ref = optional_key(section, k))
      return foreign_number(*ref, least, whole);
  return fallback;
}

std::string lower_text(const YamlRef& ref, const char* expected)
{
  std::string t = scalar_text(ref, expected);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  return t;
}

bool foreign_flag(const YamlRef& ref)
{
  const std::string t = lower_text(ref, "True or False");
  if (t != "true" && t != "false" && t != "yes" && t != "no")
    ref.fail("expected True or False, got '" + t + "'");
  return t == "true" || t == "yes";
}

}  // namespace llsim

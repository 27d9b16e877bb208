#include "sim/core/text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace llsim {

std::string trim(std::string_view s)
{
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

std::string join(const std::vector<std::string>& items, std::string_view sep)
{
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0)
      out += sep;
    out += items[i];
  }
  return out;
}

std::vector<std::string> split(std::string_view s, char sep)
{
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const auto pos = s.find(sep, start);
    parts.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos)
      return parts;
    start = pos + 1;
  }
}

static size_t edit_distance(const std::string& a, const std::string& b)
{
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0]          = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j]          = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal        = up;
    }
  }
  return row[b.size()];
}

std::string either(const std::vector<std::string>& words)
{
  if (words.size() < 2)
    return join(words, "");
  return join(std::vector<std::string>(words.begin(), words.end() - 1), ", ") + " or " + words.back();
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates)
{
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best          = c;
    }
  }
  return best;
}

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates)
{
  const std::string close = nearest(word, candidates);
  if (!close.empty())
    return "did you mean '" + close + "'?";
  return "expected one of: " + join(candidates, ", ");
}

std::string unknown_word(const std::string& what, const std::string& word, const std::vector<std::string>& choices)
{
  const std::string close = nearest(word, choices);
  return "unknown " + what + " '" + word + "'" + (close.empty() ? "" : ": did you mean '" + close + "'?") +
         " (expected " + either(choices) + ")";
}

std::string format_number(double value)
{
  std::string text;
  append_number(text, value);
  return text;
}

void append_number(std::string& out, double value)
{
  if (std::isnan(value)) {
    out += "null";
    return;
  }
  char buffer[64];
  const auto result = value == std::floor(value) && std::fabs(value) < 1e15
                          ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value))
                          : std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string with_si_prefix(double value, const char* unit, int digits)
{
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int i                               = 0;
  while (std::fabs(value) >= 1000 && i < 6) {
    value /= 1000;
    ++i;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g %s%s", digits, value, prefixes[i], unit);
  return buffer;
}

std::string readable_duration(double s, int digits)
{
  char buffer[64];
  if (s < 120)
    std::snprintf(buffer, sizeof buffer, "%.*g s", digits, s);
  else if (s < 7200)
    std::snprintf(buffer, sizeof buffer, "%.*g min", digits, s / 60);
  else
    std::snprintf(buffer, sizeof buffer, "%.*g h", digits, s / 3600);
  return buffer;
}

std::string shell_quote(const std::string& s)
{
  const char* const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@+%";
  if (!s.empty() && s.find_first_not_of(safe) == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace llsim

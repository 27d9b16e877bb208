// Small string helpers shared by the parsers and error messages.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace llsim {

std::string trim(std::string_view s);
std::string join(const std::vector<std::string>& items, std::string_view sep);
std::vector<std::string> split(std::string_view s, char sep);

// The candidate closest to `word` by edit distance, or "" when none is reasonably close.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

// "Did you mean 'x'?" suffix, or the list of valid names when nothing is close.
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);

// `s` as one word for a POSIX shell: unchanged when it has only safe characters, else in single
// quotes.
std::string shell_quote(const std::string& s);

// Shortest text that reads back to exactly the same double (for JSON, CSV, YAML).
std::string format_number(double value);

// "2.5 GB", "1.1 TB", "512 B": 3 significant digits with an SI prefix (base 10), then `unit`.
std::string with_si_prefix(double value, const char* unit);
inline std::string format_bytes(double bytes)
{
  return with_si_prefix(bytes, "B");
}

}  // namespace llsim

// Small string helpers shared by the parsers and error messages.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace llsim {

std::string trim(std::string_view s);
std::string join(const std::vector<std::string>& items, std::string_view sep);
// "a", "a or b", "a, b or c": the words a value may take, as an error message lists them.
std::string either(const std::vector<std::string>& words);
std::vector<std::string> split(std::string_view s, char sep);

// The candidate closest to `word` by edit distance, or "" when none is reasonably close.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

// "Did you mean 'x'?" suffix, or the list of valid names when nothing is close: for a name that
// refers to something the scenario declares (a key, a group, a phase).
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates);

// The one message for a word outside a fixed set of choices (a `one_of` key, a model of a family,
// a preset, a distribution): "unknown WHAT 'WORD' (expected a, b or c)", with "did you mean 'b'?"
// after the word when one choice is close.
std::string unknown_word(const std::string& what, const std::string& word, const std::vector<std::string>& choices);

// `s` as one word for a POSIX shell: unchanged when it has only safe characters, else in single
// quotes.
std::string shell_quote(const std::string& s);

// Shortest text that reads back to exactly the same double (for JSON, CSV, YAML).
std::string format_number(double value);
// The same text appended to `out` (no string made per number: a CSV of millions of them).
void append_number(std::string& out, double value);

// "2.5 GB", "1.1 TB", "512 B": `digits` significant digits with an SI prefix (base 10), then
// `unit`. The console table and every error that states a size, rate or time read this way.
std::string with_si_prefix(double value, const char* unit, int digits = 3);
inline std::string format_bytes(double bytes, int digits = 3)
{
  return with_si_prefix(bytes, "B", digits);
}

// "12.5 s", "3.2 min", "1.2 h" (`digits` significant digits).
std::string readable_duration(double seconds, int digits = 4);

// Significant digits, from 3, that tell `a` from `b` once both are written with `format`, so that
// an error comparing two figures ("needs 3.44 GB, allows 3.43 GB") never shows them equal.
template <typename Format>
int digits_to_tell_apart(double a, double b, Format format)
{
  int digits = 3;
  while (digits < 12 && a != b && format(a, digits) == format(b, digits))
    ++digits;
  return digits;
}

}  // namespace llsim

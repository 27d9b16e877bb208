#include "sim/core/json_text.hpp"

#include "sim/core/errors.hpp"

#include <algorithm>

namespace llsim {

namespace {

// Finds where a JSON text breaks, if it does.
struct JsonErrorAt : nlohmann::json_sax<nlohmann::json> {
  using json    = nlohmann::json;
  size_t byte   = std::string::npos;
  bool overflow = false;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(json::number_integer_t) override { return true; }
  bool number_unsigned(json::number_unsigned_t) override { return true; }
  bool number_float(json::number_float_t, const json::string_t&) override { return true; }
  bool string(json::string_t&) override { return true; }
  bool binary(json::binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(json::string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const json::exception& e) override
  {
    byte     = position;
    overflow = e.id == 406;
    return false;
  }
};

}  // namespace

size_t line_at(const std::string& text, size_t offset)
{
  return 1 + static_cast<size_t>(std::count(
                 text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size())), '\n'));
}

nlohmann::json parse_json_text(const std::string& text, const std::string& file, const std::string& expected)
{
  JsonErrorAt error;
  nlohmann::json::sax_parse(text, &error);
  if (error.byte != std::string::npos)
    throw ConfigError(file + ":" + std::to_string(line_at(text, error.byte)) + ": " +
                      (error.overflow ? "a number beyond the range of a double" : "not JSON") + " (expected " +
                      expected + ")");
  return nlohmann::json::parse(text);
}

std::vector<size_t> array_item_lines(const std::string& text)
{
  std::vector<size_t> lines;
  size_t line = 1, depth = 0;
  bool in_string = false, escaped = false, want_item = false;
  for (char ch : text) {
    if (ch == '\n')
      ++line;
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (ch == '\\')
        escaped = true;
      else if (ch == '"')
        in_string = false;
      continue;
    }
    const bool blank = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
    if (depth == 1 && want_item && !blank && ch != ']') {
      lines.push_back(line);  // the first character of an element
      want_item = false;
    }
    if (ch == '"')
      in_string = true;
    else if (ch == '[' || ch == '{') {
      if (depth == 0 && ch == '[')
        want_item = true;
      ++depth;
    } else if (ch == ']' || ch == '}')
      --depth;
    else if (ch == ',' && depth == 1)
      want_item = true;
  }
  return lines;
}

}  // namespace llsim

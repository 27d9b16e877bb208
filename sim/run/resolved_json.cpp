#include "sim/run/resolved_json.hpp"

#include <nlohmann/json.hpp>

#include <cctype>

namespace llsim {

namespace {

bool digit(char c)
{
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Past the digits from text[i]; at least one is required (returns npos when there is none).
size_t digits(const std::string& text, size_t i)
{
  const size_t start = i;
  while (i < text.size() && digit(text[i]))
    ++i;
  return i == start ? std::string::npos : i;
}

// A JSON string literal of the text. Bytes that are not UTF-8 (the scenario file may hold any)
// are replaced by U+FFFD rather than failing the run after it has been simulated.
std::string quoted(const std::string& text)
{
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string scalar(const YAML::Node& node)
{
  if (!node.IsScalar())
    return "null";  // a null node (~, null or an empty value)
  const std::string& text = node.Scalar();
  if (text == "true" || text == "false" || is_json_number(text))
    return text;
  return quoted(text);
}

std::string key_text(const YAML::Node& key)
{
  return quoted(key.IsScalar() ? key.Scalar() : YAML::Dump(key));
}

void write(const YAML::Node& node, const std::string& indent, std::string& out)
{
  const bool map = node.IsMap();
  if (!map && !node.IsSequence()) {
    out += scalar(node);
    return;
  }
  if (node.size() == 0) {
    out += map ? "{}" : "[]";
    return;
  }
  const std::string inner = indent + "  ";
  out += map ? "{\n" : "[\n";
  bool first = true;
  for (const auto& entry : node) {
    out += (first ? "" : ",\n") + inner;
    first = false;
    if (map) {
      out += key_text(entry.first) + ": ";
      write(entry.second, inner, out);
    } else {
      write(entry, inner, out);
    }
  }
  out += "\n" + indent + (map ? "}" : "]");
}

}  // namespace

bool is_json_number(const std::string& text)
{
  size_t i = (!text.empty() && text[0] == '-') ? 1 : 0;
  if (i < text.size() && text[i] == '0')
    ++i;
  else if ((i = digits(text, i)) == std::string::npos)
    return false;
  if (i < text.size() && text[i] == '.' && (i = digits(text, i + 1)) == std::string::npos)
    return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
      ++i;
    if ((i = digits(text, i)) == std::string::npos)
      return false;
  }
  return i == text.size();
}

std::string resolved_json(const YAML::Node& tree)
{
  std::string out;
  write(tree, "", out);
  return out + "\n";
}

}  // namespace llsim

// A whole JSON file read as one document, with errors placed at their line: a syntax error, or
// a number beyond a double's range (which nlohmann's own exception does not place).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace llsim {

// The document in `text`; ConfigError "file:line: not JSON (expected <expected>)" otherwise.
nlohmann::json parse_json_text(const std::string& text, const std::string& file, const std::string& expected);
// The line each element of the top-level array starts on (empty when the document is not an
// array); `text` must be valid JSON.
std::vector<size_t> array_item_lines(const std::string& text);
// The line of byte `offset` (1-based).
size_t line_at(const std::string& text, size_t offset);

}  // namespace llsim

#include "sim/scenario/hugging_face_names.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <utility>
#include <vector>

namespace llsim {

std::string preset_of_hugging_face_name(const std::string& name)
{
  static const std::vector<std::pair<const char*, const char*>> bases = {
      {"llama-2-7b", "llama2-7b"},
      {"llama-2-13b", "llama2-13b"},
      {"llama-2-70b", "llama2-70b"},
      {"meta-llama-3-70b", "llama3-70b"},
      {"llama-3.1-8b", "llama3.1-8b"},
      {"meta-llama-3.1-8b", "llama3.1-8b"},
      {"llama-3.1-70b", "llama3.1-70b"},
      {"meta-llama-3.1-70b", "llama3.1-70b"},
      {"llama-3.1-405b", "llama3.1-405b"},
      {"meta-llama-3.1-405b", "llama3.1-405b"},
      {"mixtral-8x7b", "mixtral-8x7b"},
      {"mixtral-8x22b", "mixtral-8x22b"},
      {"qwen3-8b", "qwen3-8b"},
      {"qwen3-32b", "qwen3-32b"},
      {"qwen3-30b-a3b", "qwen3-30b-a3b"},
      {"qwen3-235b-a22b", "qwen3-235b-a22b"},
      {"deepseek-v3", "deepseek-v3"},
      {"codellama-34b", "codellama-34b"},
      {"mistral-7b", "mistral-7b"},
      {"llama-3.3-70b", "llama3.1-70b"}};  // 3.3 70B: 3.1 70B's shape
  std::string base = std::filesystem::path(name).filename().string();
  if (base.empty())
    base = std::filesystem::path(name).parent_path().filename().string();  // "dir/" names its directory
  std::transform(base.begin(), base.end(), base.begin(), [](unsigned char c) { return std::tolower(c); });
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (const char* suffix : {"-hf", "-chat", "-instruct", "-python", "-base", "-v0.1", "-v0.2", "-v0.3"}) {
      const std::string s(suffix);
      if (base.size() > s.size() && base.compare(base.size() - s.size(), s.size(), s) == 0) {
        base.resize(base.size() - s.size());
        stripped = true;
      }
    }
  }
  for (const auto& [hf, preset] : bases)
    if (base == hf)
      return preset;
  return "";
}

}  // namespace llsim

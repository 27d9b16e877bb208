// Scratch files for tests that read from disk; removed with the process's temp directory.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace llsim::test {

inline std::string write_temp_file(const std::string& name, const std::string& content)
{
  const auto dir = std::filesystem::temp_directory_path() / ("llsim_unit_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << content;
  return path.string();
}

}  // namespace llsim::test

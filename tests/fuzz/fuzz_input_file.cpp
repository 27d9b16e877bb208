#include "fuzz_input_file.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace llsim::fuzz {

namespace {

std::string& scratch_path()
{
  static std::string dir;
  return dir;
}

void remove_scratch_dir()
{
  std::error_code ignored;
  std::filesystem::remove_all(scratch_path(), ignored);
}

const std::string& scratch_dir()
{
  if (scratch_path().empty()) {
    // In memory (/dev/shm) when we may write there: rewriting a file on ext4 starts a disk write
    // at every close, which took two thirds of a fuzzer's time. libFuzzer leaves without running
    // atexit handlers after a crash or timeout, so such a run leaves its directory behind.
    char in_memory[] = "/dev/shm/llsim_fuzz_XXXXXX", on_disk[] = "/tmp/llsim_fuzz_XXXXXX";
    const char* name = mkdtemp(in_memory) != nullptr ? in_memory : mkdtemp(on_disk);
    if (name == nullptr)
      throw std::runtime_error("cannot create a scratch directory");
    scratch_path() = name;
    std::atexit(remove_scratch_dir);
  }
  return scratch_path();
}

}  // namespace

std::string scratch_file(const std::string& name)
{
  return scratch_dir() + "/" + name;
}

std::string write_input(const std::string& name, const uint8_t* data, size_t size)
{
  const std::string path = scratch_file(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace llsim::fuzz

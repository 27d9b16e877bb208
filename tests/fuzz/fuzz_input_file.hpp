// Fuzz targets hand their input to readers that take a file: one scratch directory per process,
// the same file name rewritten for every input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace llsim::fuzz {

// Writes `size` bytes to <scratch dir>/<name> and returns its path.
std::string write_input(const std::string& name, const uint8_t* data, size_t size);

// <scratch dir>/<name>, not written: where a model that reads `file:` relative to its scenario
// finds the inputs written above.
std::string scratch_file(const std::string& name);

}  // namespace llsim::fuzz

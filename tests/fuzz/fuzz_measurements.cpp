// Fuzz target: the readers of measured serving times. The first byte picks one, the rest is its
// file: Vidur's mlp.csv, all_reduce.csv, cpu_overheads.csv, attention.csv or send_recv.csv as the operators
// model's `profile:` reads them (sim/serve/cost/vidur_profile.hpp); the step times, mlp.csv,
// cpu_overheads.csv, all_reduce.csv or attention.csv as `llsim calibrate` reads them (sim/calibrate/calibration_inputs.hpp); a run's
// per-request log (strict and skipping) or vLLM's benchmark result JSON
// (sim/serve/workload/measured_requests.hpp); a GPU's measured power against utilisation
// (sim/platform/gpu_power_curve.hpp); real storage systems' results as `llsim calibrate
// --storage` reads them (sim/calibrate/storage_points.hpp). Each returns or throws ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/calibrate/calibration_inputs.hpp"
#include "sim/calibrate/storage_points.hpp"
#include "sim/core/errors.hpp"
#include "sim/platform/gpu_power_curve.hpp"
#include "sim/serve/cost/vidur_profile.hpp"
#include "sim/serve/workload/measured_requests.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace {

const llsim::LlmModel& preset(const std::string& name)
{
  for (const llsim::LlmModel& m : llsim::llm_presets())
    if (m.name == name)
      return m;
  static const llsim::LlmModel none;
  return none;
}

const llsim::LlmModel& llama2_7b()
{
  static const llsim::LlmModel& model = preset("llama2-7b");
  return model;
}

// The shape of the shipped attention.csv.
const llsim::LlmModel& llama2_70b()
{
  static const llsim::LlmModel& model = preset("llama2-70b");
  return model;
}

// A directory of its own per profile file, so that no other file is ever beside it.
std::string profile_dir(const char* name, const uint8_t* data, size_t size)
{
  const std::string dir = llsim::fuzz::scratch_file(std::string("profile_") + name);
  std::filesystem::create_directories(dir);
  llsim::fuzz::write_input(std::string("profile_") + name + "/" + name, data, size);
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  if (size == 0)
    return 0;
  const int reader = data[0] % 15;  // the seeds (tests/fuzz/seeds/measurements_*) start with bytes 0 to 14
  data += 1, size -= 1;
  try {
    switch (reader) {
    case 0:
      llsim::read_vidur_profile({profile_dir("mlp.csv", data, size)}, llama2_7b(), 1);
      break;
    case 1:
      llsim::read_vidur_profile({profile_dir("all_reduce.csv", data, size)}, llama2_7b(), 2);
      break;
    case 2:
      llsim::read_vidur_profile({profile_dir("cpu_overheads.csv", data, size)}, llama2_7b(), 2);
      break;
    case 3:
      llsim::read_step_times(llsim::fuzz::write_input("steps.csv", data, size), 1);
      break;
    case 4:
      llsim::read_profile_measurements(llsim::fuzz::write_input("mlp.csv", data, size), llama2_7b());
      break;
    case 5:
      llsim::read_cpu_measurements(llsim::fuzz::write_input("cpu_overheads.csv", data, size));
      break;
    case 6:
      llsim::read_all_reduce_measurements(llsim::fuzz::write_input("all_reduce.csv", data, size));
      break;
    case 7:
      llsim::read_request_log(llsim::fuzz::write_input("log.jsonl", data, size), false);
      break;
    case 8:
      llsim::read_request_log(llsim::fuzz::write_input("log.jsonl", data, size), true);
      break;
    case 9:
      llsim::read_vllm_benchmark(llsim::fuzz::write_input("bench.json", data, size));
      break;
    case 10:
      llsim::read_vidur_profile({profile_dir("attention.csv", data, size)}, llama2_70b(), 2);
      break;
    case 11:
      llsim::read_attention_measurements(llsim::fuzz::write_input("attention.csv", data, size), llama2_70b());
      break;
    case 12:
      llsim::read_vidur_profile({profile_dir("send_recv.csv", data, size)}, llama2_7b(), 1, 2);
      break;
    case 13:
      llsim::read_gpu_power_table(llsim::fuzz::write_input("power.csv", data, size));
      break;
    default:
      llsim::read_storage_points(llsim::fuzz::write_input("storage_points.csv", data, size));
    }
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}

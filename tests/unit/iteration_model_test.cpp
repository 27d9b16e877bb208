// The iteration models (models/iteration_model/): roofline against its closed form for a prefill,
// a decode and a mixed batch of LLaMA-2 7B on two GPUs, and table at its points, between them and
// beyond them. Expected times are worked out by hand from the models' documented formulas.
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace llsim;

namespace {

YamlRef yaml(const std::string& text, const std::string& path)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = std::string(LLSIM_TEST_DATA) + "/inputs/scenario.yaml";  // table files relative to tests/inputs
  return YamlRef(YAML::Load(text), path, source);
}

LlmModel model(const std::string& text)
{
  return parse_llm_model(Params(yaml(text, "model"), llm_model_params()));
}

// Two GPUs of 312 Tflop/s and 2 TB/s, 80 GB each.
const GpuSpec kGpus{312e12, 2e12, 80e9, 2};
const std::string kGroup = "gpu";

std::unique_ptr<IterationModel> make(const std::string& text, const LlmModel& m, const GpuSpec& gpu = kGpus)
{
  return Registry<IterationModel>::create(yaml(text, "iteration"), {m, gpu, kGroup});
}

// LLaMA-2 7B (sim/serve/cost/llm_model.cpp): 6.74e9 parameters, 32 layers, d_model 4096, 32 KV heads
// of 128, 2 bytes: weights 13.48 GB, KV 2 x 32 x 32 x 128 x 2 = 524288 B per token.
constexpr double kParams = 6.74e9, kWeights = 13.48e9, kKv = 524288, kAttn = 4.0 * 32 * 4096;
// Defaults mfu 0.5, hbm_efficiency 0.8 on 2 GPUs: 312e12 flop/s and 3.2e12 B/s together.
constexpr double kFlops = 2 * 312e12 * 0.5, kHbm = 2 * 2e12 * 0.8;

// The GPUs joined by NVLink of 300 GB/s each way (the operators model's all-reduces need a link).
GpuSpec nvlinked(GpuSpec gpus)
{
  gpus.link     = GpuLink::NvLink;
  gpus.link_Bps = 300e9;
  return gpus;
}

BatchWork prefill(int64_t context, int64_t n)
{
  BatchWork w;
  w.add_prefill(context, n);
  return w;
}

// 32 decodes of 1000 tokens of context each: 32 x 1001 context tokens attended (KV read).
BatchWork decodes()
{
  BatchWork w;
  for (int i = 0; i < 32; ++i)
    w.add_decode(1000);
  return w;
}

}  // namespace

TEST_CASE("iteration model roofline: the preset's figures", "[iteration_model]")
{
  const LlmModel m = model("{preset: llama2-7b}");
  CHECK(m.kv_B_per_token == kKv);
  CHECK(m.weight_B() == Approx(kWeights));
  CHECK(m.layers * m.d_model * 4 == kAttn);
}

TEST_CASE("iteration model roofline: a prefill is compute-bound", "[iteration_model]")
{
  const auto r = make("{impl: roofline}", model("{preset: llama2-7b}"));
  // 2048 new tokens, no context: 2048 x 2049 / 2 = 2098176 attention pairs.
  //   flop  = 2 x 6.74e9 x 2048 + 4 x 32 x 4096 x 2098176 = 2.8707e13 -> 92.01 ms at 312e12 flop/s
  //   bytes = 13.48e9 + 524288 x 2048 = 1.4554e10         ->  4.55 ms at 3.2e12 B/s
  const double flop  = 2 * kParams * 2048 + kAttn * (2048.0 * 2049 / 2);
  const double bytes = kWeights + kKv * 2048;
  CHECK(flop / kFlops > bytes / kHbm);
  CHECK(r->seconds(prefill(0, 2048)) == Approx(flop / kFlops));
  CHECK(r->seconds(prefill(0, 2048)) == Approx(0.0920099).epsilon(1e-6));
  // Half the mfu, twice the time; the HBM efficiency does not matter here.
  CHECK(make("{impl: roofline, mfu: 0.25}", model("{preset: llama2-7b}"))->seconds(prefill(0, 2048)) ==
        Approx(2 * 0.0920099).epsilon(1e-6));
  CHECK(make("{impl: roofline, hbm_efficiency: 0.4}", model("{preset: llama2-7b}"))->seconds(prefill(0, 2048)) ==
        Approx(0.0920099).epsilon(1e-6));
  // 512 new tokens after 1024 of context: 512 x 1024 + 512 x 513 / 2 = 655616 pairs.
  const double chunk = 2 * kParams * 512 + kAttn * 655616;
  CHECK(r->seconds(prefill(1024, 512)) == Approx(chunk / kFlops));
}

TEST_CASE("iteration model roofline: a decode batch is memory-bound", "[iteration_model]")
{
  const auto r = make("{impl: roofline}", model("{preset: llama2-7b}"));
  // 32 decodes, 32032 context tokens:
  //   flop  = 2 x 6.74e9 x 32 + 4 x 32 x 4096 x 32032 = 4.4815e11 -> 1.44 ms
  //   bytes = 13.48e9 + 524288 x 32032 = 3.0274e10      -> 9.46 ms
  const double flop  = 2 * kParams * 32 + kAttn * 32032;
  const double bytes = kWeights + kKv * 32032;
  CHECK(bytes / kHbm > flop / kFlops);
  CHECK(r->seconds(decodes()) == Approx(bytes / kHbm));
  CHECK(r->seconds(decodes()) == Approx(0.00946062).epsilon(1e-6));
  // The HBM efficiency halved doubles it; the mfu halved does not (compute 2.87 ms < 9.46 ms).
  CHECK(make("{impl: roofline, hbm_efficiency: 0.4}", model("{preset: llama2-7b}"))->seconds(decodes()) ==
        Approx(2 * 0.00946062).epsilon(1e-6));
  CHECK(make("{impl: roofline, mfu: 0.25}", model("{preset: llama2-7b}"))->seconds(decodes()) ==
        Approx(0.00946062).epsilon(1e-6));
  // Served in FP8 (dtype_bytes 1): weights and KV bytes halve, and so does the decode.
  CHECK(make("{impl: roofline}", model("{preset: llama2-7b, dtype_bytes: 1}"))->seconds(decodes()) ==
        Approx(0.00946062 / 2).epsilon(1e-6));
  // One GPU instead of two: twice the time.
  const GpuSpec one{312e12, 2e12, 80e9, 1};
  CHECK(make("{impl: roofline}", model("{preset: llama2-7b}"), one)->seconds(decodes()) ==
        Approx(2 * 0.00946062).epsilon(1e-6));
}

TEST_CASE("iteration model roofline: a mixed batch, the overhead and an empty batch", "[iteration_model]")
{
  const LlmModel m = model("{preset: llama2-7b}");
  BatchWork w      = decodes();
  w.add_prefill(1024, 512);
  // flop  = 2 x 6.74e9 x (512 + 32) + 4 x 32 x 4096 x (655616 + 32032) = 7.6936e12 -> 24.66 ms
  // bytes = 13.48e9 + 524288 x (1536 + 32032) = 3.1079e10                  ->  9.71 ms
  const double flop = 2 * kParams * 544 + kAttn * (655616 + 32032);
  CHECK(make("{impl: roofline}", m)->seconds(w) == Approx(flop / kFlops));
  CHECK(make("{impl: roofline}", m)->seconds(w) == Approx(0.0246591).epsilon(1e-6));
  CHECK(make("{impl: roofline, overhead: 2ms}", m)->seconds(w) == Approx(0.0246591 + 0.002).epsilon(1e-6));
  CHECK(make("{impl: roofline, overhead: 2ms}", m)->seconds(decodes()) == Approx(0.00946062 + 0.002).epsilon(1e-6));
  CHECK(make("{impl: roofline, overhead: 2ms}", m)->seconds(BatchWork{}) == 0);
}

TEST_CASE("iteration model roofline: what it needs", "[iteration_model]")
{
  const GpuSpec no_flops{0, 2e12, 80e9, 2};
  CHECK_THROWS_WITH(make("{impl: roofline}", model("{preset: llama2-7b}"), no_flops),
                    Catch::Contains("needs the GPUs' flops and hbm_bandwidth") && Catch::Contains("groups.gpu.gpu"));
  CHECK_THROWS_WITH(make("{impl: roofline}", model("{params: 7G, kv_bytes_per_token: 512KiB}")),
                    Catch::Contains("needs the model's layers and d_model"));
  CHECK_THROWS_AS(make("{impl: roofline, mfu: 0}", model("{preset: llama2-7b}")), ConfigError);
  CHECK_THROWS_AS(make("{impl: roofline, hbm_efficiency: 1.2}", model("{preset: llama2-7b}")), ConfigError);
}

TEST_CASE("iteration model table: its points, linear between them, extrapolated beyond", "[iteration_model]")
{
  // tests/inputs/serve_iteration_table.csv: prefill (0, 10 ms), (1000, 100 ms), (8000, 900 ms);
  // decode (0, 12 ms), (100000, 22 ms).
  const LlmModel m = model("{params: 7G, kv_bytes_per_token: 512KiB}");  // the table needs no shape
  const auto t     = make("{impl: table, file: serve_iteration_table.csv}", m);
  CHECK(t->seconds(prefill(0, 1000)) == Approx(0.1));
  CHECK(t->seconds(prefill(0, 8000)) == Approx(0.9));
  CHECK(t->seconds(prefill(0, 500)) == Approx(0.055));                      // 10 + 90 x 500/1000 ms
  CHECK(t->seconds(prefill(0, 4500)) == Approx(0.5));                       // 100 + 800 x 3500/7000 ms
  CHECK(t->seconds(prefill(0, 10000)) == Approx(0.9 + 0.8 * 2000 / 7000));  // beyond: the last two points
  // Only the new tokens count, not the context before them.
  CHECK(t->seconds(prefill(5000, 500)) == Approx(0.055));
  // Decodes: the context tokens attended (context + 1 each), whatever the batch size.
  BatchWork one;
  one.add_decode(49999);
  CHECK(t->seconds(one) == Approx(0.017));  // 12 + 10 x 50000/100000 ms
  BatchWork many;
  for (int i = 0; i < 100; ++i)
    many.add_decode(499);  // 100 x 500 = 50000 tokens too
  CHECK(t->seconds(many) == Approx(0.017));
  BatchWork far;
  far.add_decode(199999);
  CHECK(t->seconds(far) == Approx(0.032));  // 22 + 10 x 100000/100000 ms
  // A mixed batch: the sum of both.
  BatchWork mixed = one;
  mixed.add_prefill(0, 1000);
  CHECK(t->seconds(mixed) == Approx(0.1 + 0.017));
  CHECK(t->seconds(BatchWork{}) == 0);
}

TEST_CASE("iteration model table: extrapolation never goes below zero", "[iteration_model]")
{
  // Prefill (100, 10 ms), (200, 50 ms): 50 tokens extrapolate to 10 - 40 x 0.5 = -10 ms, so 0;
  // 150 tokens: 30 ms; decode (1000, 5 ms), (3000, 9 ms): 2000 tokens 7 ms, 500 tokens 4 ms.
  const std::string file = test::write_temp_file(
      "iteration_steep.csv", "kind,tokens,seconds\nprefill,100,0.01\nprefill,200,0.05\ndecode,1000,0.005\n"
                             "decode,3000,0.009\n");
  const auto t = make("{impl: table, file: " + file + "}", model("{params: 7G, kv_bytes_per_token: 1KiB}"));
  CHECK(t->seconds(prefill(0, 50)) == 0);
  CHECK(t->seconds(prefill(0, 150)) == Approx(0.03));
  BatchWork d;
  d.add_decode(1999);
  CHECK(t->seconds(d) == Approx(0.007));
  BatchWork short_context;
  short_context.add_decode(499);
  CHECK(t->seconds(short_context) == Approx(0.004));
}

TEST_CASE("iteration model table: bad tables", "[iteration_model]")
{
  const LlmModel m = model("{params: 7G, kv_bytes_per_token: 1KiB}");
  const auto bad   = [&](const std::string& name, const std::string& rows) {
    const std::string file = test::write_temp_file(name, "kind,tokens,seconds\n" + rows);
    return [&m, file] { make("{impl: table, file: " + file + "}", m); };
  };
  const std::string decode = "decode,0,0.01\ndecode,10,0.02\n";
  CHECK_THROWS_WITH(bad("t1.csv", "prefill,0,0.01\n" + decode)(), Catch::Contains("needs at least two prefill rows"));
  CHECK_THROWS_WITH(bad("t2.csv", "prefill,0,0.02\nprefill,10,0.01\n" + decode)(),
                    Catch::Contains("prefill times must not decrease as tokens grow (10 tokens take less than 0)"));
  CHECK_THROWS_WITH(bad("t3.csv", "prefill,0,0.01\nprefill,0,0.02\nprefill,5,0.03\n" + decode)(),
                    Catch::Contains(":3: a second prefill row for 0 tokens"));
  CHECK_THROWS_WITH(bad("t4.csv", "prefil,0,0.01\n" + decode)(),
                    Catch::Contains("unknown kind 'prefil': did you mean 'prefill'? (expected prefill or decode)"));
  CHECK_THROWS_WITH(bad("t5.csv", "prefill,0,-1\nprefill,5,0.03\n" + decode)(),
                    Catch::Contains("tokens and seconds must be >= 0"));
}

TEST_CASE("iteration model operators: async scheduling overlaps the CPU with the previous step's GPU work",
          "[iteration_model]")
{
  // LLaMA-2 7B decoding one sequence on two GPUs with an interconnect; CPU 5 ms a step, far from
  // the GPU's time, or 100 ms, far above it.
  const GpuSpec gpus = nvlinked(kGpus);
  const LlmModel m   = model("{preset: llama2-7b}");
  BatchWork w;
  w.add_decode(1000);
  for (const double cpu : {5e-3, 100e-3}) {
    const std::string keys =
        "{impl: operators, cpu_per_iteration: " + std::to_string(cpu * 1e3) + "ms, cpu_per_sequence: 0s";
    const auto serial = make(keys + ", scheduling: serial}", m, gpus);
    const auto async  = make(keys + ", scheduling: async, cpu_serial: 1ms}", m, gpus);
    const double step = serial->seconds(w), gpu = step - cpu;
    CHECK(async->seconds(w) == Approx(step).epsilon(1e-12));  // the first step after idle: in series
    BatchWork next    = w;
    next.follows_step = true;
    CHECK(serial->seconds(next) == Approx(step).epsilon(1e-12));
    CHECK(async->seconds(next) == Approx(std::max(gpu, cpu - 1e-3) + 1e-3).epsilon(1e-12));
    std::vector<double> parts(async->operator_names().size(), 0.0);
    async->add_operator_seconds(next, parts);
    double sum = 0;
    for (double p : parts)
      sum += p;
    CHECK(sum == Approx(async->seconds(next)).epsilon(1e-12));  // the breakdown adds up to the step
    // The default, auto, is async on one pipeline stage.
    CHECK(make(keys + "}", m, gpus)->seconds(next) == Approx(std::max(gpu, cpu)).epsilon(1e-12));
  }
}

TEST_CASE("iteration model operators: a CUDA graph pads the token-wise operators to its captured size",
          "[iteration_model]")
{
  const GpuSpec gpus = nvlinked(kGpus);
  const LlmModel m   = model("{preset: llama2-7b}");
  const auto parts   = [&m, &gpus](const std::string& keys, const BatchWork& w) {
    const auto model = make("{impl: operators, scheduling: serial" + keys + "}", m, gpus);
    std::vector<double> p(model->operator_names().size(), 0.0);
    model->add_operator_seconds(w, p);
    return std::make_pair(model->operator_names(), p);
  };
  // Graphs are captured at 1, 2, 4, every multiple of 8 below 256 and of 16 from 256, up to
  // cuda_graph_max_tokens.
  for (const auto& [tokens, captured, max] :
       std::vector<std::tuple<int64_t, int64_t, std::string>>{{1001, 1008, "2048"},
                                                              {3, 4, "512"},
                                                              {1001, 1001, "1003"},
                                                              {1000, 1000, "1000"},
                                                              {513, 513, "512"},
                                                              {249, 256, "512"},
                                                              {257, 272, "512"},
                                                              {270, 270, "271"}}) {
    const auto [names, graphed] = parts(", cuda_graph_max_tokens: " + max, prefill(0, tokens));
    const auto eager_own        = parts(", cuda_graphs: false", prefill(0, tokens)).second;
    const auto eager_padded     = parts(", cuda_graphs: false", prefill(0, captured)).second;
    for (size_t i = 0; i < names.size(); ++i) {
      // Attention, the logits of each sequence's last token and the CPU work run on the batch.
      const bool own = names[i] == "attn_prefill" || names[i] == "lm_head" || names[i] == "cpu_overhead";
      INFO(tokens << " tokens, largest graph " << max << ": " << names[i]);
      CHECK(graphed[i] == Approx(own ? eager_own[i] : eager_padded[i]).epsilon(1e-12));
    }
  }
}

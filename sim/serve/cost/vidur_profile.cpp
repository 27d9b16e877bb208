#include "sim/serve/cost/vidur_profile.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/cost/vidur_csv.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

namespace llsim {

namespace {

std::string listed(const std::vector<double>& values)
{
  std::vector<std::string> text;
  for (double v : values)
    text.push_back(format_number(v));
  return text.empty() ? "none" : join(text, ", ");
}

PiecewiseLinear finish(const CurveBuilder& b, const std::string& file, const std::string& what, int64_t tp,
                       const std::vector<double>& degrees)
{
  if (b.size() == 0)
    throw ConfigError(file + ": no rows for " + what + " " + std::to_string(tp) + " (it has " + listed(degrees) + ")");
  if (b.size() < 2)
    throw ConfigError(file + ": needs rows at two sizes at least for " + what + " " + std::to_string(tp));
  return b.build();
}

}  // namespace

// vocab_size is not compared: no operator of mlp.csv depends on it (Vidur pads it, 32768 for
// Llama-2's 32000).
void check_profile_shape(const CsvTable& csv, size_t row, const LlmModel& m)
{
  check_shape(csv, row,
              {{"n_embd", static_cast<double>(m.d_model), "d_model"},
               {"n_head", static_cast<double>(m.attention_width() / m.head_dim), "heads"},
               {"n_kv_head", static_cast<double>(m.kv_heads), "kv_heads"},
               {"n_expanded_embd", static_cast<double>(m.ffn), "ffn"}});
  const bool gated = python_bool_cell(csv, row, csv.column("use_gated_mlp"));
  if (gated != m.gated_mlp)
    throw ConfigError(row_location(csv, row) + ": the profile was measured with use_gated_mlp " +
                      (gated ? "True" : "False") + "; the model has gated_mlp " + (m.gated_mlp ? "true" : "false"));
}

namespace {

void read_mlp(const std::string& file, const LlmModel& m, int64_t tp, VidurProfile& p)
{
  const CsvTable csv  = read_csv_file(file);
  const size_t tokens = csv.column("num_tokens"), workers = csv.column("num_tensor_parallel_workers");
  const std::vector<std::pair<Op, size_t>> columns = mlp_time_columns(csv);
  std::map<Op, CurveBuilder> curves;
  std::vector<double> degrees;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    const double degree = positive_cell(csv, r, workers);
    if (std::find(degrees.begin(), degrees.end(), degree) == degrees.end())
      degrees.push_back(degree);
    if (degree != static_cast<double>(tp))
      continue;
    check_profile_shape(csv, r, m);
    const double x = positive_cell(csv, r, tokens);
    for (const auto& [op, col] : columns)
      curves[op].add(x, milliseconds_cell(csv, r, col));
  }
  for (const auto& [op, col] : columns)
    p.op[static_cast<size_t>(op)] = finish(curves[op], file, "num_tensor_parallel_workers", tp, degrees);
}

// A collective's time (time_stats.<collective>.median) against its bytes, from the rows of
// `workers` workers all on one node, as an instance's GPUs are.
PiecewiseLinear read_on_node(const std::string& file, const char* collective, int64_t workers)
{
  const CsvTable csv = read_csv_file(file);
  const size_t size = csv.column("size"), count = csv.column("num_workers");
  const size_t per_node = csv.column("devices_per_node");
  const size_t time     = csv.column("time_stats." + std::string(collective) + ".median");
  CurveBuilder curve;
  std::vector<double> on_node;  // worker counts the file has on one node
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    const double n = positive_cell(csv, r, count);
    if (positive_cell(csv, r, per_node) != n)
      continue;
    if (std::find(on_node.begin(), on_node.end(), n) == on_node.end())
      on_node.push_back(n);
    if (n == static_cast<double>(workers))
      curve.add(positive_cell(csv, r, size), milliseconds_cell(csv, r, time));
  }
  return finish(curve, file, "num_workers (on one node)", workers, on_node);
}

void read_cpu(const std::string& file, int64_t tp, VidurProfile& p)
{
  const CsvTable csv = read_csv_file(file);
  const size_t batch = csv.column("batch_size"), degree = csv.column("tensor_parallel_degree");
  const size_t model              = csv.column("model_name");
  const std::vector<size_t> parts = cpu_time_columns(csv);
  CurveBuilder curve;
  std::vector<double> degrees;
  std::string first_model;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    const double d = positive_cell(csv, r, degree);
    if (std::find(degrees.begin(), degrees.end(), d) == degrees.end())
      degrees.push_back(d);
    if (d != static_cast<double>(tp))
      continue;
    if (first_model.empty())
      first_model = csv.rows[r][model];
    else if (csv.rows[r][model] != first_model)
      throw ConfigError(row_location(csv, r) + ": a second model, " + csv.rows[r][model] + " after " + first_model +
                        " (keep the rows of one model)");
    double ms = 0;
    for (size_t c : parts)
      ms += milliseconds_cell(csv, r, c);
    curve.add(positive_cell(csv, r, batch), ms);
  }
  p.cpu = finish(curve, file, "tensor_parallel_degree", tp, degrees);
}

}  // namespace

const std::vector<std::pair<const char*, Op>>& vidur_mlp_operators()
{
  static const std::vector<std::pair<const char*, Op>> ops = {
      {"emb", Op::Embedding},
      {"input_layernorm", Op::InputLayernorm},
      {"attn_pre_proj", Op::AttnPreProj},
      {"attn_rope", Op::AttnRope},
      {"attn_post_proj", Op::AttnPostProj},
      {"post_attention_layernorm", Op::PostAttentionLayernorm},
      {"mlp_up_proj", Op::MlpUpProj},
      {"mlp_act", Op::MlpAct},
      {"mlp_down_proj", Op::MlpDownProj},
      {"add", Op::Add},
  };
  return ops;
}

double profile_calls(Op op, const LlmModel& m)
{
  if (op == Op::Embedding)
    return 1;
  const bool mlp = op == Op::MlpUpProj || op == Op::MlpAct || op == Op::MlpDownProj;
  return static_cast<double>(mlp && m.moe() ? m.dense_layers : m.layers);
}

VidurProfile read_vidur_profile(const std::vector<std::string>& dirs, const LlmModel& model, int64_t tp, int64_t pp)
{
  namespace fs = std::filesystem;
  std::error_code unreadable;  // a name too long for the file system is no directory either
  for (const std::string& dir : dirs)
    if (!fs::is_directory(dir, unreadable))
      throw ConfigError(dir + ": not a directory (profile: directories of Vidur profile CSVs)");
  // The one directory that holds `name`, or "".
  auto find = [&](const char* name) {
    std::string found;
    for (const std::string& dir : dirs)
      if (fs::exists(fs::path(dir) / name, unreadable)) {
        if (!found.empty())
          throw ConfigError("profile: both " + found + " and " + (fs::path(dir) / name).string() + " exist; keep one");
        found = (fs::path(dir) / name).string();
      }
    return found;
  };
  const std::string mlp = find("mlp.csv"), all_reduce = find("all_reduce.csv"), cpu = find("cpu_overheads.csv");
  const std::string attention = find("attention.csv"), send_recv = find("send_recv.csv");
  if (mlp.empty() && all_reduce.empty() && cpu.empty() && attention.empty() && send_recv.empty())
    throw ConfigError("profile: " + join(dirs, ", ") +
                      " holds none of mlp.csv, attention.csv, all_reduce.csv, send_recv.csv, cpu_overheads.csv "
                      "(Vidur's profile files)");
  VidurProfile p;
  if (!mlp.empty())
    read_mlp(mlp, model, tp, p);
  if (!all_reduce.empty() && tp > 1)
    p.all_reduce = read_on_node(all_reduce, "all_reduce", tp);
  if (!cpu.empty())
    read_cpu(cpu, tp, p);
  if (!attention.empty())
    p.attention = AttentionProfile(attention, model, tp);
  if (!send_recv.empty() && pp > 1)
    p.send_recv = read_on_node(send_recv, "send_recv", 2);  // a stage sends to the next
  return p;
}

}  // namespace llsim

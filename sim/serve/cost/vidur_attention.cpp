#include "sim/serve/cost/vidur_attention.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/cost/vidur_csv.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace llsim {

namespace {

// The median columns that add to a row's time besides its kernel, where the file has them.
std::vector<size_t> around_kernel(const CsvTable& csv)
{
  std::vector<size_t> columns;
  for (const char* op : {"attn_input_reshape", "attn_output_reshape", "attn_kv_cache_save"})
    if (const std::string c = "time_stats." + std::string(op) + ".median"; has_column(csv, c))
      columns.push_back(csv.column(c));
  return columns;
}

// A family of curves over (key, context) from rows, averaged where a point repeats.
CurveFamily family(const std::map<double, CurveBuilder>& curves)
{
  std::vector<std::pair<double, PiecewiseLinear>> built;
  for (const auto& [key, b] : curves)
    built.emplace_back(key, b.build());
  return CurveFamily(std::move(built));
}

}  // namespace

std::vector<AttentionRow> read_attention_rows(const CsvTable& csv, const LlmModel& m)
{
  if (csv.rows.empty())
    throw ConfigError(csv.file + ": no measurements");
  const size_t is_prefill = csv.column("is_prefill"), batch = csv.column("batch_size");
  const size_t chunk = csv.column("prefill_chunk_size"), context = csv.column("kv_cache_size");
  const size_t workers             = csv.column("num_tensor_parallel_workers");
  const size_t prefill_time        = csv.column("time_stats.attn_prefill.median");
  const size_t decode_time         = csv.column("time_stats.attn_decode.median");
  const std::vector<size_t> around = around_kernel(csv);
  std::vector<AttentionRow> rows;
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    check_shape(csv, r,
                {{"n_embd", static_cast<double>(m.d_model), "d_model"},
                 {"n_q_head", static_cast<double>(m.attention_width() / m.head_dim), "heads"},
                 {"n_kv_head", static_cast<double>(m.kv_heads), "kv_heads"}});
    AttentionRow row;
    row.prefill = python_bool_cell(csv, r, is_prefill);
    row.key     = positive_cell(csv, r, row.prefill ? chunk : batch);
    row.context = csv.number(r, context);
    if (!(row.context >= 0 && row.context <= 1e9) || row.key > 1e9)
      throw ConfigError(row_location(csv, r) + ": tokens, batch size and kv_cache_size must be from 0 to 1e9");
    const double degree = positive_cell(csv, r, workers);
    if (degree > 1e6 || degree != static_cast<double>(static_cast<int64_t>(degree)))
      throw ConfigError(row_location(csv, r) + ": column 'num_tensor_parallel_workers': expected a whole number");
    row.tp      = static_cast<int64_t>(degree);
    row.time_ms = milliseconds_cell(csv, r, row.prefill ? prefill_time : decode_time);
    for (size_t c : around)
      row.time_ms += milliseconds_cell(csv, r, c);
    rows.push_back(row);
  }
  return rows;
}

AttentionProfile::AttentionProfile(const std::string& file, const LlmModel& model, int64_t tp)
{
  const CsvTable csv = read_csv_file(file);
  std::map<double, CurveBuilder> prefill, decode;
  std::vector<std::string> degrees;
  for (const AttentionRow& row : read_attention_rows(csv, model)) {
    if (std::find(degrees.begin(), degrees.end(), std::to_string(row.tp)) == degrees.end())
      degrees.push_back(std::to_string(row.tp));
    if (row.tp == tp)
      (row.prefill ? prefill : decode)[row.key].add(row.context, row.time_ms);
  }
  if (prefill.empty() && decode.empty())
    throw ConfigError(file + ": no rows for num_tensor_parallel_workers " + std::to_string(tp) + " (it has " +
                      join(degrees, ", ") + ")");
  if (!prefill.empty())
    prefill_ = family(prefill);
  if (!decode.empty())
    decode_ = family(decode);
}

double AttentionProfile::prefill_seconds(const BatchWork& w) const
{
  if (w.prefills == 0)
    return 0;
  const double chunk   = std::sqrt(w.prefill_squares);
  const double context = w.prefill_kv_tokens - static_cast<double>(w.prefill_tokens);
  const double longest = prefill_.last_key();
  if (chunk <= longest)
    return prefill_.at(chunk, context);
  const auto pairs = [context](double n) { return n * context + n * (n + 1) / 2; };
  return prefill_.at(longest, context) * pairs(chunk) / pairs(longest);
}

double AttentionProfile::decode_seconds(const BatchWork& w) const
{
  if (w.decodes == 0)
    return 0;
  const double batch = static_cast<double>(w.decodes);
  return decode_.at(batch, w.decode_context / batch - 1);
}

}  // namespace llsim

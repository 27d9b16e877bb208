"""The profile's CSV files, in the layout of Vidur's profiler, which llsim reads
(sim/serve/cost/vidur_profile.hpp, vidur_attention.hpp): per operator the columns
time_stats.<operator>.{min,max,mean,median,std} in ms, then the point's keys and the model's
shape. llsim reads the medians."""
import csv
import os

STATS = ("min", "max", "mean", "median", "std")


def _time_columns(operators):
    return [f"time_stats.{op}.{s}" for op in operators for s in STATS]


def _time_cells(times):
    """{operator: stats} as time_stats cells."""
    return {f"time_stats.{op}.{s}": v[s] for op, v in times.items() for s in STATS}


def _write(path, columns, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def write_mlp(folder, model, operators, mlp):
    """mlp.csv from {(tp, tokens): {operator: stats}}; returns its rows."""
    columns = _time_columns(operators) + ["n_head", "n_kv_head", "n_embd", "n_expanded_embd", "vocab_size",
                                          "use_gated_mlp", "num_tokens", "num_tensor_parallel_workers"]
    rows = [dict(_time_cells(times), n_head=model.heads, n_kv_head=model.kv_heads, n_embd=model.d_model,
                 n_expanded_embd=model.ffn, vocab_size=model.vocab, use_gated_mlp=model.gated_mlp,
                 num_tokens=tokens, num_tensor_parallel_workers=tp)
            for (tp, tokens), times in sorted(mlp.items())]
    return _write(os.path.join(folder, "mlp.csv"), columns, rows)


def write_attention(folder, model, attention, max_model_len, backend, method):
    """attention.csv from {(tp, "prefill" | "decode", chunk | batch, context): {operator: stats}}:
    a prefill row has no attn_decode times and a decode row no attn_prefill ones; returns its
    rows."""
    columns = _time_columns(("attn_prefill", "attn_decode", "attn_kv_cache_save")) + [
        "n_embd", "n_q_head", "n_kv_head", "num_tensor_parallel_workers", "max_model_len", "batch_size",
        "prefill_chunk_size", "kv_cache_size", "is_prefill", "attention_backend", "profile_method"]
    rows = []
    for (tp, kind, key, context), times in sorted(attention.items()):
        prefill = kind == "prefill"
        rows.append(dict(_time_cells(times), n_embd=model.d_model, n_q_head=model.heads, n_kv_head=model.kv_heads,
                         num_tensor_parallel_workers=tp, max_model_len=max_model_len,
                         batch_size=1 if prefill else key, prefill_chunk_size=key if prefill else 0,
                         kv_cache_size=context, is_prefill=prefill, attention_backend=backend,
                         profile_method=method))
    return _write(os.path.join(folder, "attention.csv"), columns, rows)


def write_collective(folder, name, rows_measured, devices):
    """<name>.csv (all_reduce, all_to_all or send_recv) from the collectives' rows of that name,
    all workers on one node of `devices` devices; returns its rows."""
    columns = _time_columns((name,)) + ["rank", "num_workers", "size", "collective", "devices_per_node",
                                        "max_devices_per_node"]
    rows = [dict(_time_cells({name: r["stats"]}), rank=0, num_workers=r["num_workers"], size=r["size"],
                 collective=name, devices_per_node=r["num_workers"], max_devices_per_node=devices)
            for r in rows_measured if r["collective"] == name]
    return _write(os.path.join(folder, f"{name}.csv"), columns, rows)


def write_steps(folder, rows):
    """step_check.csv: whole steps against the sum of their operators; returns its rows."""
    columns = ["num_tensor_parallel_workers", "is_prefill", "batch_size", "prefill_chunk_size", "kv_cache_size",
               "layers", "step_ms", "sum_ms", "sum_over_step"]
    return _write(os.path.join(folder, "step_check.csv"), columns, rows)

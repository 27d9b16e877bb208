"""Whole forward steps under a CUDA graph, to check the sum of the operators measured one by one.

A step runs the operators that llsim's sum counts, in a forward pass's order and with the shapes
of one point: the embedding, then for each of the model's layers the input norm, the QKV
projection, RoPE, the KV save, the attention kernel, the output projection, the second norm, the
MLP's up projection, activation and down projection, and one residual add (Vidur's count; vLLM
fuses the other add into a norm). Every layer reuses one layer's weights: a layer's weights
are far larger than the L2 cache, so each is still read from HBM. The step is captured once in a
CUDA graph and replayed, timed as an operator is (timers.CudaTimer). Its sum is the embedding's
median plus the layers times the medians of the others at the same point.
"""
import torch

from attention_ops import decode, prefill
from layer_ops import OPERATORS, layer_operators
from timers import stats

# What one layer runs, after the embedding: the per-layer operators with attention after RoPE.
_BEFORE_ATTENTION = ("input_layernorm", "attn_pre_proj", "attn_rope")


def _graph(step):
    """`step` captured in a CUDA graph, after warm-up runs on a side stream (as capture needs)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        step()
    return graph


def _step_ms(weights, kind, key, context, timer):
    """The median time (ms) of one step: a prefill of `key` tokens or a decode of `key`
    sequences, after `context` tokens."""
    s, device = weights.shard, weights.device
    ops = layer_operators(weights, key)
    attention = (prefill if kind == "prefill" else decode)(s, key, context, weights.dtype, device)
    kernel = "attn_prefill" if kind == "prefill" else "attn_decode"
    layer = [ops[n] for n in _BEFORE_ATTENTION] + [attention["attn_kv_cache_save"], attention[kernel]]
    layer += [ops[n] for n in OPERATORS if n != "emb" and n not in _BEFORE_ATTENTION]

    def step():
        ops["emb"]()
        for _ in range(s.model.layers):
            for call in layer:
                call()

    graph = _graph(step)
    return stats(timer.milliseconds(graph.replay))["median"]


def check(weights, grid, mlp, attention, timer):
    """(rows of step_check.csv, steps that could not run) for one tensor-parallel degree: each
    step of the grid whose point was measured, with its median and the sum of the medians of its
    operators (ms); a step torch fails to capture or run is named with torch's message."""
    s = weights.shard
    points = [("prefill", n, 0) for n in grid.prefill_steps] + \
             [("decode", b, grid.step_context) for b in grid.decode_steps]
    rows, failed = [], []
    for kind, key, context in points:
        ops, att = mlp.get((s.tp, key)), attention.get((s.tp, kind, key, context))
        if ops is None or att is None:
            continue
        kernel = "attn_prefill" if kind == "prefill" else "attn_decode"
        per_layer = sum(ops[n]["median"] for n in OPERATORS if n != "emb") + \
            att[kernel]["median"] + att["attn_kv_cache_save"]["median"]
        total = ops["emb"]["median"] + s.model.layers * per_layer
        try:
            step_ms = _step_ms(weights, kind, key, context, timer)
        except RuntimeError as e:
            failed.append({"tp": s.tp, "step": kind, "tokens or sequences": key, "kv_cache_size": context,
                           "error": str(e)[:500]})
            continue
        prefill_step = kind == "prefill"
        rows.append({"num_tensor_parallel_workers": s.tp, "is_prefill": prefill_step,
                     "batch_size": 1 if prefill_step else key, "prefill_chunk_size": key if prefill_step else 0,
                     "kv_cache_size": context, "layers": s.model.layers,
                     "step_ms": step_ms, "sum_ms": total, "sum_over_step": total / step_ms})
    return rows, failed

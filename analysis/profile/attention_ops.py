"""Attention on one GPU's share of the heads, under the names of Vidur's attention.csv: a prefill
chunk of n new tokens after c tokens of context, or a decode batch of b sequences after c tokens
of context each, and the save of the new tokens' K and V into the cache.

Each sequence's cache is contiguous here ([sequences, KV heads, tokens, head_dim]), not paged
as vLLM's is. A decode groups each KV head's query heads as that head's queries, so that the
cache is read once, as a paged decode kernel reads it. A prefill attends causally: query i sees
the context and the chunk's tokens up to i. Its K and V are not copied out to the query heads:
torch (2.5 on) shares each KV head among its query heads (enable_gqa); before, each KV head's
query heads are stacked as that head's queries, as the decode does, under a mask repeated per
head. The kernel is torch's scaled_dot_product_attention where torch has it (on a GPU torch picks
FlashAttention for a causal prefill without context, and a kernel that takes a mask for one with
context), else softmax(q k^T / sqrt(head_dim)) v in torch operations.
"""
import inspect
import math

import torch
import torch.nn.functional as F

from layer_ops import normal

_sdpa = getattr(F, "scaled_dot_product_attention", None)  # torch >= 2.0


def _takes_gqa():
    try:
        return _sdpa is not None and "enable_gqa" in inspect.signature(_sdpa).parameters  # torch >= 2.5
    except (TypeError, ValueError):  # a builtin without a signature
        return False


_GQA = _takes_gqa()

BACKEND = "torch_sdpa" if _sdpa else "torch_matmul_softmax"  # attention.csv's attention_backend
KERNEL = ("torch.nn.functional.scaled_dot_product_attention" + (" (enable_gqa)" if _GQA else "") if _sdpa
          else "softmax(q k^T / sqrt(head_dim)) v in torch operations (this torch has no "
               "scaled_dot_product_attention)")


def _attend(q, k, v, mask):
    """softmax(q k^T / sqrt(head_dim)) v over the keys `mask` lets each query see (bool
    [queries, keys]; None: every key)."""
    if _sdpa:
        return _sdpa(q, k, v, attn_mask=mask)
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return scores.softmax(dim=-1) @ v


def decode_kv_bytes(shard, batch, context, element_B):
    """Bytes of one layer's K and V cache for a decode point on one GPU."""
    return 2 * batch * (context + 1) * shard.kv_heads * shard.model.head_dim * element_B


def prefill_kernel(q, k_cache, v_cache, context):
    """A call attending q [1, heads, chunk, d] over the caches [1, kv_heads, context + chunk, d]
    causally, query head h reading KV head h // (heads / kv_heads); it returns the output, as
    [1, heads, chunk, d] or, grouped, [1, kv_heads, heads / kv_heads x chunk, d]."""
    _, heads, chunk, hd = q.shape
    kv_heads, total = k_cache.shape[1], k_cache.shape[2]
    # Query i is token context + i: it sees keys 0 .. context + i.
    mask = torch.arange(total, device=q.device)[None, :] <= context + torch.arange(chunk, device=q.device)[:, None]
    if _GQA:
        if context == 0:
            return lambda: _sdpa(q, k_cache, v_cache, is_causal=True, enable_gqa=True)
        return lambda: _sdpa(q, k_cache, v_cache, attn_mask=mask, enable_gqa=True)
    # The group's queries stacked as its KV head's: a view of q, with the mask repeated.
    grouped = q.reshape(1, kv_heads, heads // kv_heads * chunk, hd)
    grouped_mask = mask.repeat(heads // kv_heads, 1)
    return lambda: _attend(grouped, k_cache, v_cache, grouped_mask)


def prefill(shard, chunk, context, dtype, device):
    """{"attn_prefill": call, "attn_kv_cache_save": call} of one chunk."""
    hd, total = shard.model.head_dim, context + chunk
    q = normal((1, shard.heads, chunk, hd), dtype, device)
    k_cache, v_cache = (normal((1, shard.kv_heads, total, hd), dtype, device) for _ in range(2))
    k_new, v_new = (normal((1, shard.kv_heads, chunk, hd), dtype, device) for _ in range(2))
    kernel = prefill_kernel(q, k_cache, v_cache, context)

    def save():
        k_cache[:, :, context:].copy_(k_new)
        v_cache[:, :, context:].copy_(v_new)

    return {"attn_prefill": kernel, "attn_kv_cache_save": save}


def decode(shard, batch, context, dtype, device):
    """{"attn_decode": call, "attn_kv_cache_save": call} of one decode batch: each sequence's
    new token sees its context and itself."""
    hd = shard.model.head_dim
    q = normal((batch, shard.kv_heads, shard.group, hd), dtype, device)
    k_cache, v_cache = (normal((batch, shard.kv_heads, context + 1, hd), dtype, device) for _ in range(2))
    k_new, v_new = (normal((batch, shard.kv_heads, hd), dtype, device) for _ in range(2))

    def save():
        k_cache[:, :, context].copy_(k_new)
        v_cache[:, :, context].copy_(v_new)

    return {"attn_decode": lambda: _attend(q, k_cache, v_cache, None), "attn_kv_cache_save": save}

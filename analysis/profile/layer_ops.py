"""One layer's operators, under the names of Vidur's mlp.csv, on one GPU's share of a model
(catalogue.Shard) at M tokens: each a call without arguments on inputs made beforehand, so that
timing it times the operator alone.

They are PyTorch's own kernels, not vLLM's: F.linear (cuBLAS on a GPU) for the projections;
torch's RMSNorm where it has one, else the norm composed of torch operations; RoPE (NeoX style)
and SiLU x up composed of torch operations. vLLM fuses the norm with the residual add, and SiLU
with the multiply, into one kernel each, so on a GPU these small operators take longer here than
under vLLM (provenance.json names the kernels used).
"""
import torch
import torch.nn.functional as F

OPERATORS = ("emb", "input_layernorm", "attn_pre_proj", "attn_rope", "attn_post_proj",
             "post_attention_layernorm", "mlp_up_proj", "mlp_act", "mlp_down_proj", "add")
EPS = 1e-5
ROPE_POSITIONS = 8192  # rows of the cos/sin table that RoPE gathers from
_rms_norm = getattr(F, "rms_norm", None)  # torch >= 2.4

KERNELS = {
    "projections": "torch.nn.functional.linear",
    "rms_norm": "torch.nn.functional.rms_norm" if _rms_norm
                else "x * rsqrt(mean(x^2) + eps) * weight, in torch operations",
    "rope": "NeoX-style rotation of q and k, in torch operations (gather, multiply, concatenate)",
    "mlp_act": "silu(gate) * up, two torch operations (gelu without a gated MLP)",
    "emb": "torch.nn.functional.embedding over the GPU's share of the vocabulary",
}


def normal(shape, dtype, device):
    """Random values of the size of trained weights and activations: kernels' speed on a GPU
    depends a little on the data (power and clocks), so not zeros."""
    return torch.empty(shape, dtype=dtype, device=device).normal_(0, 0.02)


def rms_norm(x, weight):
    if _rms_norm:
        return _rms_norm(x, (x.shape[-1],), weight, EPS)
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * weight


def rope(q, k, cos, sin):
    """q [M, heads, head_dim] and k [M, kv_heads, head_dim] rotated by their positions' angles
    (cos, sin: [M, head_dim / 2]), the halves of each head as the two coordinates."""
    c, s = cos[:, None, :], sin[:, None, :]
    rotated = []
    for x in (q, k):
        x1, x2 = x.chunk(2, dim=-1)
        rotated.append(torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1))
    return rotated


class LayerWeights:
    """One layer's weights on one GPU (each projection as nn.Linear holds it, [out, in]), the
    embedding's share and RoPE's table."""

    def __init__(self, shard, dtype, device):
        m = shard.model
        d, hd = m.d_model, m.head_dim
        self.shard, self.dtype, self.device = shard, dtype, device
        self.qkv = normal(((shard.heads + 2 * shard.kv_heads) * hd, d), dtype, device)
        self.o = normal((d, shard.heads * hd), dtype, device)
        self.up = normal(((2 if m.gated_mlp else 1) * shard.ffn, d), dtype, device)
        self.down = normal((d, shard.ffn), dtype, device)
        self.embedding = normal((shard.vocab, d), dtype, device)
        self.norm = torch.ones(d, dtype=dtype, device=device)
        inverse = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, dtype=torch.float32) / hd))
        angles = torch.outer(torch.arange(ROPE_POSITIONS, dtype=torch.float32), inverse)
        self.cos = angles.cos().to(dtype=dtype, device=device)
        self.sin = angles.sin().to(dtype=dtype, device=device)


def activation(up, shard):
    if shard.model.gated_mlp:
        return F.silu(up[:, :shard.ffn]) * up[:, shard.ffn:]
    return F.gelu(up)


def layer_operators(w, tokens):
    """{operator: call} of one layer at `tokens` tokens, in OPERATORS' order."""
    s, hd = w.shard, w.shard.model.head_dim
    q_width, kv_width = s.heads * hd, s.kv_heads * hd

    def make(shape):
        return normal(shape, w.dtype, w.device)

    x, residual = make((tokens, s.model.d_model)), make((tokens, s.model.d_model))
    ids = torch.randint(0, s.vocab, (tokens,), device=w.device)
    positions = torch.arange(tokens, device=w.device) % ROPE_POSITIONS
    qkv = F.linear(x, w.qkv)
    q = qkv[:, :q_width].view(tokens, s.heads, hd)
    k = qkv[:, q_width:q_width + kv_width].view(tokens, s.kv_heads, hd)
    attention_out = make((tokens, q_width))
    up = F.linear(x, w.up)
    act = make((tokens, s.ffn))
    return {
        "emb": lambda: F.embedding(ids, w.embedding),
        "input_layernorm": lambda: rms_norm(x, w.norm),
        "attn_pre_proj": lambda: F.linear(x, w.qkv),
        "attn_rope": lambda: rope(q, k, w.cos[positions], w.sin[positions]),
        "attn_post_proj": lambda: F.linear(attention_out, w.o),
        "post_attention_layernorm": lambda: rms_norm(x, w.norm),
        "mlp_up_proj": lambda: F.linear(x, w.up),
        "mlp_act": lambda: activation(up, s),
        "mlp_down_proj": lambda: F.linear(act, w.down),
        "add": lambda: torch.add(x, residual),
    }

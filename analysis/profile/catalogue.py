"""The dense models of llsim's catalogue (sim/serve/cost/llm_presets.cpp), by llsim's names, and the
share of each that one GPU of a tensor-parallel instance holds.

This table copies the shapes the C++ catalogue holds, so that the profiler runs where llsim is not
built. tests/llsim/test_profiler.py checks it against `llsim models`, name by name and figure by
figure. Mixtures of experts and MLA models (Mixtral, Qwen3's MoE, DeepSeek-V3) are left out: their
experts and latent attention are not profiled.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Model:
    name: str
    layers: int
    d_model: int
    heads: int      # query heads
    kv_heads: int
    head_dim: int
    ffn: int        # intermediate size of the MLP
    vocab: int
    gated_mlp: bool = True  # SwiGLU: gate and up projections, then SiLU(gate) x up


MODELS = {m.name: m for m in (
    Model("llama2-7b", 32, 4096, 32, 32, 128, 11008, 32000),
    Model("llama2-13b", 40, 5120, 40, 40, 128, 13824, 32000),
    Model("llama2-70b", 80, 8192, 64, 8, 128, 28672, 32000),
    Model("llama3-70b", 80, 8192, 64, 8, 128, 28672, 128256),
    Model("codellama-34b", 48, 8192, 64, 8, 128, 22016, 32000),
    Model("mistral-7b", 32, 4096, 32, 8, 128, 14336, 32000),
    Model("llama3.1-8b", 32, 4096, 32, 8, 128, 14336, 128256),
    Model("llama3.1-70b", 80, 8192, 64, 8, 128, 28672, 128256),
    Model("llama3.1-405b", 126, 16384, 128, 8, 128, 53248, 128256),
    Model("qwen3-8b", 36, 4096, 32, 8, 128, 12288, 151936),
    Model("qwen3-32b", 64, 5120, 64, 8, 128, 25600, 151936),
)}


@dataclass(frozen=True)
class Shard:
    """What one GPU of `tp` holds of one layer, as vLLM splits it: query heads, KV heads (each
    replicated when there are fewer than GPUs), the MLP's columns and the vocabulary."""
    model: Model
    tp: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int

    @property
    def group(self):
        """Query heads per KV head."""
        return self.heads // self.kv_heads


def find(name):
    """The model named `name`; ValueError naming the known ones otherwise."""
    if name not in MODELS:
        raise ValueError(f"unknown model {name!r}: the profiler knows llsim's dense models "
                         f"{', '.join(MODELS)} (mixtures of experts and MLA are not profiled)")
    return MODELS[name]


def shard(model, tp):
    """One GPU's share of `model` at tensor-parallel degree `tp`; ValueError when `tp` does not
    divide the heads and the MLP, or the KV heads do not split or replicate evenly."""
    if tp < 1 or model.heads % tp or model.ffn % tp:
        raise ValueError(f"{model.name}: tp {tp} must divide its {model.heads} query heads and its "
                         f"MLP of {model.ffn}")
    if model.kv_heads % tp and tp % model.kv_heads:
        raise ValueError(f"{model.name}: tp {tp} neither divides nor is a multiple of its "
                         f"{model.kv_heads} KV heads")
    return Shard(model, tp, model.heads // tp, max(1, model.kv_heads // tp), model.ffn // tp,
                 -(-model.vocab // tp))

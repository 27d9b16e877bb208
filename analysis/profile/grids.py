"""The points the profiler measures: token counts for the per-layer operators, prefill chunks and
decode batches for attention, and the whole steps. `quick` is a handful of small points, for CI on
CPU and for a first look at a GPU; the full grid follows Vidur's (every 8 tokens where cuBLAS's
tile waves show) up to 8,192 tokens."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Grid:
    tokens: tuple          # num_tokens of the per-layer operators (mlp.csv)
    prefill_chunks: tuple  # new tokens of one sequence's prefill chunk
    prefill_contexts: tuple  # tokens of context before the chunk
    decode_batches: tuple  # sequences of a decode batch
    decode_contexts: tuple  # tokens of context of each sequence
    prefill_steps: tuple   # whole prefill steps (one prompt, no context), in tokens
    decode_steps: tuple    # whole decode steps, in sequences, at step_context
    step_context: int
    max_context: int       # no prefill chunk and its context together beyond it


QUICK = Grid(tokens=(1, 2, 4, 8), prefill_chunks=(8, 16), prefill_contexts=(0, 16),
             decode_batches=(1, 2), decode_contexts=(8, 16), prefill_steps=(8,),
             decode_steps=(1, 2), step_context=16, max_context=32)


def full(max_context):
    """The full grid, contexts up to `max_context` tokens (chunk and context together for a
    prefill)."""
    tokens = (1, 2, 4, 8, *range(16, 513, 8), *range(544, 2049, 32), *range(2176, 4097, 128),
              5120, 6144, 8192)
    return Grid(tokens=tokens,
                prefill_chunks=tuple(c for c in (32, 64, 128, 256, 512, 1024, 2048, 4096)
                                     if c <= max_context),
                prefill_contexts=tuple(c for c in (0, 512, 1024, 2048, 4096, 8192, 16384, 32768)
                                       if c <= max_context),
                decode_batches=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
                decode_contexts=tuple(c for c in (128, 512, 1024, 2048, 4096, 8192, 16384, 32768)
                                      if c <= max_context),
                prefill_steps=(128, 512, 2048),
                decode_steps=(1, 16, 64, 256),
                step_context=1024, max_context=max_context)


def prefill_points(grid):
    """(chunk, context) pairs whose chunk and context together fit in max_context."""
    return [(n, c) for n in grid.prefill_chunks for c in grid.prefill_contexts
            if n + c <= grid.max_context]

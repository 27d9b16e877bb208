"""Timing one call of an operator, many times over, and the statistics Vidur's CSVs carry.

On a GPU each sample is bracketed by two CUDA events, and the time between them is what the GPU
spent on the call's kernels. Before each sample the profiler overwrites a buffer larger than the
L2 cache (so that a small weight is read from HBM, as in a real forward pass where the other
layers' weights pass through the cache in between), then queues a spin kernel
(torch.cuda._sleep) that keeps the GPU busy while the CPU queues the events and the call: the
call's kernels then run back to back, as under a CUDA graph, and the CPU's launch time is not
counted. On a CPU each sample is time.perf_counter around one call.
"""
import statistics
import time

import torch

# Bytes overwritten before each GPU sample: more than the L2 of any current GPU (50 MB on an
# H100, 126 MB on a B200).
FLUSH_B = 256 * 2**20
# Cycles of the spin kernel: about 0.5 ms at 2 GHz, longer than the CPU takes to queue one call
# of any operator here.
SPIN_CYCLES = 1_000_000


class CpuTimer:
    name = "perf_counter"  # attention.csv's profile_method
    method = "time.perf_counter around each call, after warm-up calls"

    def __init__(self, warmups, samples):
        self.warmups, self.samples = warmups, samples

    def milliseconds(self, fn):
        """The times of `samples` calls of fn, in ms."""
        for _ in range(self.warmups):
            fn()
        times = []
        for _ in range(self.samples):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return times


class CudaTimer:
    name = "cuda_events"
    method = ("CUDA events around each call, after warm-up calls; before each, a 256 MiB buffer "
              "overwritten (L2 flushed) and a spin kernel that hides the CPU's launch time")

    def __init__(self, warmups, samples, device):
        self.warmups, self.samples = warmups, samples
        self.flush = torch.empty(FLUSH_B, dtype=torch.uint8, device=device)

    def milliseconds(self, fn):
        """The times of `samples` calls of fn, in ms of GPU time."""
        for _ in range(self.warmups):
            fn()
        torch.cuda.synchronize()
        events = []
        for _ in range(self.samples):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            self.flush.zero_()
            torch.cuda._sleep(SPIN_CYCLES)
            start.record()
            fn()
            end.record()
            events.append((start, end))
        torch.cuda.synchronize()
        return [s.elapsed_time(e) for s, e in events]


def stats(times):
    """Vidur's time_stats of one operator: min, max, mean, median and (population) std, in ms."""
    return {"min": min(times), "max": max(times), "mean": statistics.fmean(times),
            "median": statistics.median(times), "std": statistics.pstdev(times)}


def make_timer(device, quick):
    """The timer for `device`: on a GPU 3 warm-ups and 20 samples (2 and 5 when quick); on a CPU,
    whose per-layer operators take milliseconds each, 1 and 5 (1 and 3)."""
    if device.type == "cuda":
        return CudaTimer(2, 5, device) if quick else CudaTimer(3, 20, device)
    return CpuTimer(1, 3) if quick else CpuTimer(1, 5)

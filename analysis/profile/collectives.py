"""Collectives between workers on one machine, one process per device (torch.distributed: NCCL
between GPUs, gloo between processes on a CPU): an all-reduce and an all-to-all among n workers,
and, with two, a send from one to the other (a pipeline stage's hand-off). Each over the message
sizes asked for, in bytes.

Every sample starts after a barrier, so that all workers enter the collective together; the time
is worker 0's: CUDA events around the call on a GPU, time.perf_counter on a CPU.
"""
import json
import math
import os
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from timers import stats

METHOD = "a barrier, then the call, timed on worker 0 (CUDA events on a GPU, time.perf_counter on a CPU)"


def _sample(fn, cuda):
    dist.barrier()
    if cuda:
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end)
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def _times(fn, cuda, warmups, samples):
    for _ in range(warmups):
        fn()
    return [_sample(fn, cuda) for _ in range(samples)]


def _send_recv(x, rank):
    if rank == 0:
        dist.send(x, 1)
    else:
        dist.recv(x, 0)


def _worker(rank, n, cuda, dtype, sizes_B, warmups, samples, folder):
    device = torch.device("cuda", rank) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if cuda else "gloo", init_method="file://" + os.path.join(folder, "rendezvous"),
                            rank=rank, world_size=n)
    element_B = torch.finfo(dtype).bits // 8
    rows = []
    for size_B in sizes_B:
        elements = math.ceil(size_B / element_B / n) * n  # all-to-all deals out equal parts
        x = torch.empty(elements, dtype=dtype, device=device).normal_()
        out = torch.empty_like(x)
        calls = {"all_reduce": lambda: dist.all_reduce(x), "all_to_all": lambda: dist.all_to_all_single(out, x)}
        if n == 2:
            calls["send_recv"] = lambda: _send_recv(x, rank)
        for name, fn in calls.items():
            rows.append({"collective": name, "size": elements * element_B,
                         "stats": stats(_times(fn, cuda, warmups, samples))})
    if rank == 0:
        with open(os.path.join(folder, "rows.json"), "w") as f:
            json.dump(rows, f)
    dist.destroy_process_group()


def measure(worker_counts, sizes_B, cuda, dtype, warmups, samples):
    """Rows {collective, size (bytes), num_workers, stats (ms)} for each count of workers."""
    rows = []
    for n in worker_counts:
        with tempfile.TemporaryDirectory() as folder:
            mp.spawn(_worker, args=(n, cuda, dtype, sizes_B, warmups, samples, folder), nprocs=n)
            with open(os.path.join(folder, "rows.json")) as f:
                rows += [dict(r, num_workers=n) for r in json.load(f)]
    return rows

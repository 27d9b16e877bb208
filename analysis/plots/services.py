"""service_<name>.png: per server (or mean and busiest server when there are many) throughput
(GB/s), operations/s, requests waiting and utilisation (0-1), one panel each; and the bytes
stored, for a service that reports them (a memory_pool). Servers whose values in a panel are the
same throughout are drawn as one line, named for all of them ('fwd-0–7 (8 identical)')."""
import re

from .common import (MAX_LINES, Figure, TimeAxis, fraction_axis, legend, levels_at, natural_key, plural, size_unit,
                     stairs, stored_levels, zero_based)


def plot_service(run, name):
    """Per server: throughput (GB/s, or MB/s when small), ops/s, requests waiting, utilisation
    (0-1), and stored bytes for a service that reports them; a metadata service's operations
    first."""
    samples = run.service(name)
    kind = run.service_kind(name)
    if samples is None:
        return None
    coarse = "\n(the run spans only a few sample periods: averages over each)" if len(samples.edges) < 4 else ""
    levels = stored_levels(run, name) if "stored_bytes" in (run.rows(f"service_{name}.csv") or [{}])[0] else None
    fig = Figure(run, f"service_{name}", f"service {name} ({kind}, {plural(samples.servers, 'server')}, "
                 f"{samples.period:g} s samples){coarse}", [1.9] * (5 if levels else 4))
    axis = TimeAxis(0.0, samples.edges[-1])
    unit, scale = byte_rate_unit(max(samples.peak["bytes"]))
    order = [1, 0] if kind == "metadata" else [0, 1]
    draw_servers(fig.axes[order[0]], samples, "bytes", axis, scale,
                 f"RPC traffic\n({unit})" if kind == "metadata" else unit)
    draw_servers(fig.axes[order[1]], samples, "operations", axis, 1.0, "ops/s")
    draw_servers(fig.axes[2], samples, "queue_length", axis, 1.0, "requests waiting")
    busy = "disks" if kind == "storage" else "threads"
    draw_servers(fig.axes[3], samples, "utilisation", axis, 1.0, f"utilisation\n(share of {busy} busy)")
    fraction_axis(fig.axes[3], fig.axes[3].get_ylabel())
    if levels:
        draw_levels(fig.axes[4], levels, axis)
    server_legends(fig.axes, samples.servers)
    axis.label(fig.axes[-1])
    return fig.save()


def server_legends(axes, servers):
    """A legend on the top panel, and on each panel whose lines stand for other servers than
    the top panel's (where identical servers were drawn as one line): a server has its colour in
    every panel. A legend of one line too, when that line is not simply the only server's."""
    top = axes[0].get_legend_handles_labels()[1]
    for ax in axes:
        labels = ax.get_legend_handles_labels()[1]
        if ax is axes[0] or labels != top:
            legend(ax, always=len(labels) < servers)


def draw_servers(ax, samples, column, axis, scale=1.0, ylabel=""):
    """A panel of one ServiceSamples column: a line per server (one for servers with the same
    values), or mean and busiest server."""
    x = axis.x(samples.edges)
    if samples.per_server is not None:
        series = {server: columns[column] for server, columns in samples.per_server.items()}
        for label, position, values in identical_groups(series):
            stairs(ax, [v * scale for v in values], x, label=label, color=f"C{position}")
    else:
        stairs(ax, [v * scale for v in samples.mean(column)], x, label=f"mean of {samples.servers} servers")
        stairs(ax, [v * scale for v in samples.peak[column]], x, label="busiest server")
    ax.set_ylabel(ylabel)
    zero_based(ax, max(samples.peak[column]) * scale)


def identical_groups(series):
    """One (label, position, values) per distinct series of {server: values}, in the natural order
    of the servers: position is the first server's place in that order (it picks the colour, so
    a server keeps its colour in every panel)."""
    names = sorted(series, key=natural_key)
    groups = {}
    for name in names:
        groups.setdefault(tuple(series[name]), []).append(name)
    return [(group_label(members), names.index(members[0]), list(values)) for values, members in groups.items()]


def group_label(names):
    """'fwd-3' for one server; 'fwd-0–7 (8 identical)' for servers numbered in a row, else
    'oss-0, oss-2 (2 identical)'."""
    if len(names) == 1:
        return names[0]
    parts = [re.fullmatch(r"(.*?)(\d+)", name) for name in names]
    if all(parts) and len({p.group(1) for p in parts}) == 1:
        numbers = [int(p.group(2)) for p in parts]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{names[0]}–{parts[-1].group(2)} ({len(names)} identical)"
    return f"{', '.join(names)} ({len(names)} identical)"


def draw_levels(ax, levels, axis):
    """Stored bytes over the run: each server's level_curve, or their total and the fullest."""
    times = sorted({t for curve in levels.values() for t, _ in curve} | {axis.end})
    values = {server: levels_at(curve, times) for server, curve in levels.items()}
    peak = max((max(v) for v in values.values()), default=0.0)
    total = [sum(column) for column in zip(*values.values())] if values else [0.0] * len(times)
    unit, scale = size_unit(max(total))
    if len(values) <= MAX_LINES:
        for label, position, series in identical_groups(values):
            ax.plot(axis.x(times), [v * scale for v in series], label=label, color=f"C{position}")
        zero_based(ax, peak * scale)
    else:
        ax.plot(axis.x(times), [v * scale for v in total], label=f"total of {len(values)} servers")
        ax.plot(axis.x(times), [max(column) * scale for column in zip(*values.values())], label="fullest server")
        zero_based(ax, max(total) * scale)
    ax.set_ylabel(f"stored\n({unit})")


def byte_rate_unit(peak_bytes_per_s):
    """('GB/s', 1e-9), or ('MB/s', 1e-6) for rates that stay under 0.1 GB/s."""
    return ("MB/s", 1e-6) if peak_bytes_per_s < 1e8 else ("GB/s", 1e-9)

"""A preprocess phase: <phase>.png, the stage Gantt and sampled busy nodes; <phase>_bytes.png,
bytes in and out per stage and the phase's corpus reads, network, shuffle and spill bytes."""
from .common import Figure, TimeAxis, gantt, human_bytes, legend, plural


def plot_preprocess(run, name, phase):
    """Stage Gantt and sampled busy nodes; bytes per stage and the phase's network bytes."""
    stages = run.rows(f"{name}_stages.csv")
    nodes = run.rows(f"{name}_nodes.csv")
    busy = busy_nodes(nodes)
    heights = [max(0.3 * len(stages) + 0.5, 1.0)] + ([2.0] if busy else [])
    fig = Figure(run, name, f"{name} (preprocess): {phase.get('documents', 0):,.0f} documents, "
                 f"{phase.get('documents_removed', 0):,.0f} removed, {plural(phase.get('tasks', 0), 'task')}", heights)
    axis = TimeAxis(phase["start_s"], phase["end_s"])
    gantt(fig.axes[0], [(f"{s['stage']} ({plural(int(s['tasks']), 'task')})", [(float(s["start_s"]), float(s["end_s"]))], "tab:blue")
                        for s in stages], axis)
    if busy:
        fig.axes[1].plot(axis.x(busy[0]), busy[1], marker="o", markersize=3, linewidth=0.8)
        fig.axes[1].set_ylabel("busy nodes\n(samples)")
        fig.axes[1].set_ylim(bottom=0)
    axis.label(fig.axes[-1])
    return [fig.save(), plot_preprocess_bytes(run, name, phase, stages)]


def busy_nodes(rows):
    """(times, busy node count) from <phase>_nodes.csv, or None when no sample shows a busy node."""
    counts = {}
    for r in rows:
        t = float(r["time_s"])
        counts[t] = counts.get(t, 0) + (r["state"] == "busy")
    if not any(counts.values()):
        return None
    times = sorted(counts)
    return times, [counts[t] for t in times]


PREPROCESS_BYTES = [("bytes_read_local", "corpus read\nlocally"), ("bytes_read_remote", "corpus read\nremotely"),
                    ("network_bytes", "network"), ("shuffle_bytes", "shuffle"), ("spill_bytes", "spilled")]


def plot_preprocess_bytes(run, name, phase, stages):
    """Bars in GB: each stage's input and output, and the phase's totals from summary.json (the
    outputs hold no network bytes over time)."""
    fig = Figure(run, f"{name}_bytes", f"{name} (preprocess): bytes per stage and for the whole phase",
                 [2.6, 2.6], sharex=False, width=9)
    x = list(range(len(stages)))
    for offset, column, label in [(-0.2, "input_bytes", "input"), (0.2, "output_bytes", "output")]:
        bars = fig.axes[0].bar([i + offset for i in x], [float(s[column]) * 1e-9 for s in stages], width=0.4, label=label)
        fig.axes[0].bar_label(bars, labels=[human_bytes(float(s[column])) for s in stages], fontsize="x-small")
    fig.axes[0].set_xticks(x, labels=[s["stage"] for s in stages])
    fig.axes[0].set_ylabel("GB per stage")
    legend(fig.axes[0])
    present = [(k, label) for k, label in PREPROCESS_BYTES if phase.get(k) is not None]
    bars = fig.axes[1].bar(range(len(present)), [phase[k] * 1e-9 for k, _ in present], color="tab:purple")
    fig.axes[1].bar_label(bars, labels=[human_bytes(phase[k]) for k, _ in present], fontsize="x-small")
    fig.axes[1].set_xticks(range(len(present)), labels=[label for _, label in present])
    fig.axes[1].set_ylabel("GB, whole phase")
    for ax in fig.axes:
        ax.margins(y=0.15)
    return fig.save()

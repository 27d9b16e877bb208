"""A dlio_checkpoint phase (MLPerf Storage's checkpoint workload): <phase>.png, each save's and
load's duration and throughput."""
from .common import Figure, legend


def plot_dlio_checkpoint(run, name, phase):
    """Per operation: duration (top) and GiB/s (bottom), saves and loads in their order."""
    rows = run.rows(f"{name}.csv")
    if not rows:
        return []
    fig = Figure(run, name, f"{name} (dlio_checkpoint): {float(phase.get('checkpoint_GiB', 0)):,.1f} GiB over "
                 f"{phase.get('processes', 0):g} ranks", [2.0, 2.0])
    labels = [f"{r['operation']} {r['index']}" for r in rows]
    colors = ["tab:blue" if r["operation"] == "save" else "tab:green" for r in rows]
    positions = range(len(rows))
    fig.axes[0].bar(positions, [float(r["duration_s"]) for r in rows], color=colors, label="duration")
    fig.axes[0].set_ylabel("duration (s)")
    fig.axes[1].bar(positions, [float(r["GiBps"]) for r in rows], color=colors, label="throughput")
    fig.axes[1].set_ylabel("GiB/s (DLIO's GB/s)")
    fig.axes[1].set_xticks(list(positions), labels, rotation=45, ha="right")
    for ax in fig.axes:
        ax.set_ylim(bottom=0)
        legend(ax)
    return [fig.save()]

"""A dlio phase (MLPerf Storage's training workload): <phase>.png, each rank's accelerator
utilisation against the workload's threshold, and the time it waited for data."""
from .common import Figure, fraction_axis, legend


def plot_dlio(run, name, phase):
    """Per-rank AU with the threshold line; per-rank data stall."""
    rows = run.rows(f"{name}.csv")
    if not rows:
        return []
    threshold = float(phase.get("au_threshold", 0))
    verdict = "passed" if phase.get("au_passed", 0) else "failed"
    fig = Figure(run, name, f"{name} (dlio): {phase.get('accelerators', 0):g} accelerators, AU "
                 f"{100 * float(phase.get('au', 0)):.1f}% ({verdict} {100 * threshold:.0f}%), "
                 f"{float(phase.get('throughput_MiBps', 0)):,.0f} MiB/s", [2.4, 2.0])
    ranks = [int(r["rank"]) for r in rows]
    fig.axes[0].bar(ranks, [float(r["au"]) for r in rows], width=1.0, label="AU")
    fig.axes[0].axhline(threshold, color="tab:red", linestyle="--", label="threshold")
    fraction_axis(fig.axes[0], "AU")
    fig.axes[1].bar(ranks, [float(r["data_stall_s"]) for r in rows], width=1.0, color="tab:orange",
                    label="waited for data")
    fig.axes[1].set_ylabel("data stall (s)")
    fig.axes[1].set_ylim(bottom=0)
    fig.axes[1].set_xlabel("rank")
    for ax in fig.axes:
        legend(ax)
    return [fig.save()]

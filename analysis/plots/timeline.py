"""timeline.png: the phases as bars, below them on the same time axis the total throughput of
every service (GB/s for storage, forwarding and memory pools; ops/s for metadata services),
dotted lines where a phase starts."""
from .common import Figure, TimeAxis, gantt, legend, plural, stairs, zero_based

BYTE_KINDS = ("storage", "forwarding", "memory_pool")


def plot_timeline(run):
    """Phases as bars; below them, on the same axis, every service's total throughput."""
    phases = run.summary.get("phases", {})
    byte_services = [n for n in run.summary.get("services", {})
                     if run.service_kind(n) in BYTE_KINDS and run.service(n)]
    op_services = [n for n in run.summary.get("services", {})
                   if run.service_kind(n) == "metadata" and run.service(n)]
    heights = [max(1.0, 0.3 * len(phases) + 0.5)] + [2.2] * (bool(byte_services) + bool(op_services))
    fig = Figure(run, "timeline", f"phases of '{run.summary.get('scenario')}' (seed {run.summary.get('seed')}) "
                 "and the services' total throughput", heights)
    axis = TimeAxis(0.0, run.end)
    colours = run.plt.rcParams["axes.prop_cycle"].by_key()["color"]
    gantt(fig.axes[0], [(f"{n} ({p['kind']})", [(p["start_s"], p["end_s"])], colours[i % len(colours)])
                        for i, (n, p) in enumerate(phases.items())], axis)
    panel = 1
    if byte_services:
        draw_totals(fig.axes[panel], run, byte_services, "bytes", 1e-9, "GB/s (all servers)", axis)
        panel += 1
    if op_services:
        draw_totals(fig.axes[panel], run, op_services, "operations", 1.0, "metadata ops/s", axis)
    for ax in fig.axes:
        for p in phases.values():
            ax.axvline(p["start_s"] / axis.seconds, color="grey", linestyle=":", linewidth=0.8)
    axis.label(fig.axes[-1])
    return fig.save()


def draw_totals(ax, run, services, column, scale, ylabel, axis):
    """Each service's total over its servers, per sample period."""
    for name in services:
        samples = run.service(name)
        stairs(ax, [v * scale for v in samples.total[column]], axis.x(samples.edges),
                  label=f"{name} ({run.service_kind(name)})")
    ax.set_ylabel(ylabel)
    zero_based(ax, max(max(run.service(n).total[column]) for n in services) * scale)
    legend(ax, always=True)
    periods = min(len(run.service(n).edges) - 1 for n in services)
    if periods < 3:
        ax.set_title(f"the run spans {plural(periods, 'sample period')} of the services' CSVs: "
                     "they cannot show changes within it", fontsize="small")

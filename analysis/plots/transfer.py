"""A transfer phase: <phase>.png, one panel per column of <phase>.csv (see series.py); its
cumulative bytes_written becomes a rate (GB/s) and a total (GB)."""
from .series import plot_series


def plot_transfer(run, name, phase):
    return plot_series(run, name, phase)

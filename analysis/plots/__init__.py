"""The plots of analysis/plot.py, one module per phase kind (train, tasks, ingest, preprocess,
serve, transfer, requests; series draws any other kind's <phase>.csv), the run-wide ones
(timeline, services) and what they share (common)."""

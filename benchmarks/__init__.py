"""riverbed benchmarks: `python -m benchmarks [--quick]` prints timings and ratios to floors."""

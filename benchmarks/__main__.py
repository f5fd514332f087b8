"""``python -m benchmarks [--quick]``: the benchmark table."""

from benchmarks.run import main

main()

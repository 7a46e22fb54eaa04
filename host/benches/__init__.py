"""The benchmarks behind ``okgin bench SUITE`` (host/bench.py): one module
per suite, each with ``run(args)``; they print figures and assert nothing.
``python -m okgin.benches.<suite>`` runs one with its own options."""

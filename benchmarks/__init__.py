"""Performance benchmarks of Dutch Scorer: ratios of the app's work to a bare baseline.

Run ``python -m benchmarks --help`` (or ``make bench``); docs/performance.md
explains each ratio. Not part of the test suite.
"""

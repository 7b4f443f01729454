"""Performance benchmarks of Dutch Scorer: ratios of the app's work to a bare baseline.

Run ``python -m benchmarks --help`` (or ``make bench``); the README's Performance
section explains each ratio. Not part of the test suite.
"""

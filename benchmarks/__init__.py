"""Accuracy and throughput benchmarks (not tests). Run all with ``make bench``."""

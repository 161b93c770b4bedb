#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A process pool computing primes in chunks."""
from multiprocessing import Pool


def count_primes(bounds):
    lo, hi = bounds
    count = 0
    for n in range(max(lo, 2), hi):
        if all(n % d for d in range(2, int(n ** 0.5) + 1)):
            count += 1
    return count


if __name__ == "__main__":
    chunks = [(i, i + 5000) for i in range(0, 20000, 5000)]
    with Pool(2) as pool:
        counts = pool.map(count_primes, chunks)
    print("primes below 20000:", sum(counts), counts)
    assert sum(counts) == 2262

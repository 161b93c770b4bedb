#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import random
import statistics

rng = random.Random(42)
samples = [rng.gauss(100, 15) for _ in range(1000)]
print(f"mean   {statistics.mean(samples):7.2f}")
print(f"median {statistics.median(samples):7.2f}")
print(f"stdev  {statistics.stdev(samples):7.2f}")
q = statistics.quantiles(samples, n=4)
print("quartiles", [round(x, 1) for x in q])
print("mode of dice", statistics.mode(rng.randint(1, 6) for _ in range(200)))

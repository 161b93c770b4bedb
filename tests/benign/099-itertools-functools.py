#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import functools
import itertools


@functools.lru_cache(maxsize=None)
def partitions(n, k):
    if n == 0:
        return 1
    if n < 0 or k == 0:
        return 0
    return partitions(n - k, k) + partitions(n, k - 1)


print("partitions of 50:", partitions(50, 50))
print(list(itertools.combinations("abcd", 2)))
print(list(itertools.accumulate([1, 2, 3, 4, 5])))
for key, group in itertools.groupby(sorted("mississippi")):
    print(key, len(list(group)), end="  ")
print()
print(functools.reduce(lambda a, b: a * b, range(1, 11)))

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import doctest
import sys


def mean(values):
    """Arithmetic mean.

    >>> mean([1, 2, 3, 4])
    2.5
    >>> mean([])
    Traceback (most recent call last):
    ...
    ValueError: empty
    """
    if not values:
        raise ValueError("empty")
    return sum(values) / len(values)


failed, attempted = doctest.testmod()
print(f"{attempted} doctests, {failed} failed")
sys.exit(1 if failed else 0)

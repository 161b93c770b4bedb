#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A seeded Monte Carlo estimate of pi and a dice simulation."""
import random

rng = random.Random(2024)
n = 200000
inside = sum(1 for _ in range(n) if rng.random() ** 2 + rng.random() ** 2 <= 1.0)
print(f"pi is about {4 * inside / n:.3f}")
rolls = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(10000)]
most = max(range(2, 13), key=rolls.count)
print("most common sum of two dice:", most)
deck = [f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK"]
rng.shuffle(deck)
print("hand:", sorted(deck[:5]))

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Write a CSV file, then read it back and aggregate by a column."""
import csv
from collections import defaultdict

rows = [
    {"city": "Oslo", "month": "Jan", "rain_mm": 49},
    {"city": "Oslo", "month": "Feb", "rain_mm": 36},
    {"city": "Lima", "month": "Jan", "rain_mm": 1},
    {"city": "Lima", "month": "Feb", "rain_mm": 0},
    {"city": "Pune", "month": "Jan", "rain_mm": 2},
]
with open("/tmp/rain.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["city", "month", "rain_mm"])
    w.writeheader()
    w.writerows(rows)

totals = defaultdict(int)
with open("/tmp/rain.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["city"]] += int(row["rain_mm"])
for city in sorted(totals):
    print(f"{city}: {totals[city]} mm")

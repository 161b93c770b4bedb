#!/usr/bin/python3
# SPDX-License-Identifier: MIT
from decimal import ROUND_HALF_UP, Decimal, getcontext
from fractions import Fraction

getcontext().prec = 30
print(Decimal(1) / Decimal(7))
price = Decimal("19.99") * 3
print("price:", price.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
print("0.1 + 0.2 as decimal:", Decimal("0.1") + Decimal("0.2"))
h = sum(Fraction(1, n) for n in range(1, 11))
print("H(10) =", h, "~", float(h))

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import string
import textwrap

para = ("A sandbox runs a program with fewer rights than the user who starts it, "
        "so that a mistake or a malicious program does less harm.")
print(textwrap.fill(para, width=40, initial_indent="  ", subsequent_indent="  "))
print(textwrap.shorten(para, width=50, placeholder=" ..."))
tmpl = string.Template("Dear $name, your order $order ships on $day.")
print(tmpl.substitute(name="Ada", order=1042, day="Monday"))
print(f"{'left':<10}|{'centre':^10}|{'right':>10}")
print(f"{3.14159:.2f} {1234567:,} {255:#x} {0.25:.0%}")

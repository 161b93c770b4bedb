#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A small command-line tool: argparse, logging, an exit code.
import argparse
import logging
import sys

p = argparse.ArgumentParser()
p.add_argument("--count", type=int, default=3)
a = p.parse_args([])
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
for i in range(a.count):
    logging.info("step %d", i)
sys.exit(0)

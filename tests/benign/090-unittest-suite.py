#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A small unittest suite for a function defined here."""
import sys
import unittest


def slugify(text):
    out = []
    for ch in text.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


class SlugifyTest(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(slugify("Hello World"), "hello-world")

    def test_punctuation(self):
        self.assertEqual(slugify("  A, B & C!  "), "a-b-c")

    def test_empty(self):
        self.assertEqual(slugify(""), "")

    def test_digits(self):
        self.assertEqual(slugify("Version 2.0"), "version-2-0")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)

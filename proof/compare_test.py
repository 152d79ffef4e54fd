#!/usr/bin/env python3
"""Unit tests of compare.py's pure parts (no GPU, torch or Triton)."""
import argparse
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare as C  # noqa: E402


class CompareTest(unittest.TestCase):
    def test_parse_bundles(self):
        self.assertEqual(C.parse_bundles(["before=a/b", "after=/x=y"]), [("before", "a/b"), ("after", "/x=y")])
        for bad in (["a"], ["=x"], ["a="], ["triton=x"], ["a=x", "a=y"]):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                C.parse_bundles(bad)

    def test_selected(self):
        ks = [{"name": "a.post"}, {"name": "b.post", "no_realistic_size": True}, {"name": "c"}]
        self.assertEqual([k["name"] for k in C.selected(ks, None)], ["a.post", "c"])
        self.assertEqual([k["name"] for k in C.selected(ks, ["*.post"])], ["a.post", "b.post"])

    def test_line(self):
        got = C.line("k", {"before": {"ms": 0.2, "pct_copy": 50.0}, "after": {"error": "boom"},
                           "triton": {"ms": 0.1, "pct_copy": 100.0}})
        self.assertIn("before 200.0 us (50.0% of copy, 50.0% of Triton)", got)
        self.assertIn("after ERROR boom", got)
        self.assertIn("triton 100.0 us (100.0% of copy)", got)


if __name__ == "__main__":
    unittest.main()

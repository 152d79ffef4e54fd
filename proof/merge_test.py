#!/usr/bin/env python3
"""Unit tests of merge.py (no GPU, torch or Triton)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import merge as M  # noqa: E402


def kernel(name, bench_ms=None, ok=True):
    k = {"name": name, "class": "memory", "variants": {"triton-ptx": {"check_ok": ok}, "layout-translate": {"check_ok": ok}}}
    if bench_ms is not None:
        b = {"kernel": {"median_ms": bench_ms, "gb_per_s": 1.0}, "pct_of_copy": 50.0}
        k["bench"] = {"variants": {"layout-translate": {"bench": b}, "triton-ptx": {"bench": b}}}
    return k


def report(kernels, ptx=(), device="GPU", seconds=10):
    return {"device": device, "triton": "3.6.0", "torch": "2", "runs": 20, "seconds": seconds, "kernels": kernels,
            "ptxas": {"ptxas": "ptxas", "results": [{"ptx": p, "ok": True} for p in ptx]}}


class MergeTest(unittest.TestCase):
    def test_checks_first_bench_last(self):
        a = report([kernel("x"), kernel("y", 2.0)], ptx=["x.lt.ptx"])
        b = report([kernel("y", 1.0, ok=False), kernel("z", 3.0)], ptx=["x.lt.ptx", "z.lt.ptx"], seconds=5)
        m = M.merge([a, b])
        self.assertEqual([k["name"] for k in m["kernels"]], ["x", "y", "z"])
        y = m["kernels"][1]
        self.assertTrue(y["variants"]["layout-translate"]["check_ok"], "checks from the first report")
        self.assertEqual(y["bench"]["variants"]["layout-translate"]["bench"]["kernel"]["median_ms"], 1.0, "bench from the last")
        self.assertEqual([x["ptx"] for x in m["ptxas"]["results"]], ["x.lt.ptx", "z.lt.ptx"])
        self.assertEqual(m["seconds"], 15)
        self.assertEqual(m["summary"]["kernels"], 3)

    def test_other_device_refused(self):
        with self.assertRaisesRegex(ValueError, "different devices"):
            M.merge([report([], device="A"), report([], device="B")])

    def test_main_writes_both_files(self):
        with tempfile.TemporaryDirectory() as d:
            for i, r in enumerate((report([kernel("x")]), report([kernel("x", 1.0)]))):
                os.makedirs(os.path.join(d, str(i)))
                with open(os.path.join(d, str(i), "report.json"), "w") as f:
                    json.dump(r, f)
            out = os.path.join(d, "out")
            self.assertEqual(M.main(["-o", out, os.path.join(d, "0"), os.path.join(d, "1", "report.json")]), 0)
            with open(os.path.join(out, "report.json")) as f:
                self.assertEqual(len(json.load(f)["merged_from"]), 2)
            with open(os.path.join(out, "report.md")) as f:
                self.assertIn("merged from 2 runs", f.read())


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Tests of recheck.py (no GPU)."""
import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import recheck


def load_json(path):
    with open(path) as f:
        return json.load(f)


def row(name, triton_ms, ours_ms, tile=False):
    k = {"name": name, "bench": {"variants": {
        "triton-ptx": {"bench": {"kernel": {"median_ms": triton_ms}}},
        "layout-translate": {"bench": {"kernel": {"median_ms": ours_ms}}}}}}
    if tile:
        k["no_realistic_size"] = "one program"
    return k


class RecheckTest(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.report = os.path.join(self.d, "report.json")
        with open(self.report, "w") as f:
            json.dump({"kernels": [
                row("fast", 1.0, 0.9), row("even", 1.0, 1.0004), row("slow", 1.0, 1.01), row("tie", 1.0, 1.002),
                row("tile", 1.0, 1.5, tile=True), {"name": "unbenched", "bench": None},
                {"name": "no-ours", "bench": {"variants": {"triton-ptx": {"bench": {"kernel": {"median_ms": 1}}}}}},
            ]}, f)

    def compare(self, name, values):
        p = os.path.join(self.d, name)
        with open(p, "w") as f:
            json.dump([{"kernel": k, "results": {"ours": {"ms": o}, "triton": {"ms": t}}}
                       for k, (o, t) in values.items()], f)
        return p

    def test_select(self):
        # "even" is 99.96% of Triton: as fast by the reports' threshold; rows
        # without both benchmarks are not close calls.
        self.assertEqual(recheck.select([self.report]), ["slow", "tie", "tile"])

    def test_summarize(self):
        c1 = self.compare("c1.json", {"slow": (1.02, 1.0), "tie": (0.99, 1.0)})
        c2 = self.compare("c2.json", {"slow": (1.01, 1.0), "tie": (1.001, 1.0)})
        out = os.path.join(self.d, "out")
        with redirect_stdout(io.StringIO()) as s:
            recheck.main(["summarize", "-o", out, self.report, "--compare", c1, c2, os.path.join(self.d, "missing.json")])
        rows = {r["kernel"]: r for r in load_json(os.path.join(out, "recheck.json"))}
        self.assertEqual(rows["slow"]["verdict"], "slower")
        self.assertEqual(rows["tie"]["verdict"], "tie")
        self.assertEqual(rows["slow"]["measurements"], 3)
        self.assertAlmostEqual(rows["tie"]["vs_triton"][1], 100 / 0.99)
        self.assertIn("3 kernels below Triton's PTX in the run, measured again: 2 slower every time, 1 ties, "
                      "0 as fast every time", s.getvalue())
        with open(os.path.join(out, "recheck.md")) as f:
            md = f.read()
        self.assertIn("| slow | 99.0% | 98.0% | 99.0% | slower |", md)
        self.assertIn("| tile | 66.7% |  |  | slower |", md)  # not measured again: its one figure

    def test_verdict(self):
        self.assertEqual(recheck.verdict([100.0, 99.96]), "as fast")
        self.assertEqual(recheck.verdict([99.9, 99.0]), "slower")
        self.assertEqual(recheck.verdict([99.9, 100.2]), "tie")

    def test_summarize_without_measurements(self):
        out = os.path.join(self.d, "out2")
        with redirect_stdout(io.StringIO()):
            recheck.main(["summarize", "-o", out, self.report, "--compare"])
        rows = load_json(os.path.join(out, "recheck.json"))
        self.assertEqual([r["measurements"] for r in rows], [1, 1, 1])


if __name__ == "__main__":
    unittest.main()

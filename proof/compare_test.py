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

    def test_changed(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            for b, text in (("a", "x"), ("b", "x"), ("c", "y")):
                os.makedirs(os.path.join(d, b, "ptx"))
                with open(os.path.join(d, b, "ptx", "k.ptx"), "w") as f:
                    f.write(text)
            man = {"k": {"ours": [{"ptx": "k.ptx"}]}}
            pair = lambda *bs: [(b, os.path.join(d, b)) for b in bs]  # noqa: E731
            self.assertFalse(C.changed("k", [man, man], pair("a", "b")))
            self.assertTrue(C.changed("k", [man, man], pair("a", "c")))
            self.assertTrue(C.changed("k", [man, {}], pair("a", "b")))

    def test_timing_order(self):
        self.assertEqual(C.timing_order(["before", "after"], False), ["before", "after", "triton"])
        self.assertEqual(C.timing_order(["ours"], True), ["triton", "ours"])

    def test_main_order(self):
        # main times Triton's PTX last, or first with --triton-first, and reports the
        # bundles' results before Triton's either way (bench and Triton's compile
        # stubbed; a stand-in torch gives the device's compute capability).
        import json
        import tempfile
        import types
        from contextlib import redirect_stdout
        from io import StringIO
        from unittest import mock
        torch = types.SimpleNamespace(cuda=types.SimpleNamespace(get_device_capability=lambda: (9, 0)))
        with tempfile.TemporaryDirectory() as d:
            b = os.path.join(d, "b")
            os.makedirs(os.path.join(b, "ptx"))
            with open(os.path.join(b, "kernels.json"), "w") as f:
                json.dump({"kernels": [{"name": "k", "ours": [{"ptx": "k.ptx"}]}]}, f)
            for first in (False, True):
                order = []

                def bench(bundle, k, ptx, meta, runs, warmup, json_file):
                    order.append(os.path.basename(json_file))
                    return {"ms": 1.0, "pct_copy": 90.0}

                argv = ["compare.py", "--no-check", "--work", os.path.join(d, "w"), "--out", os.path.join(d, "o"),
                        "ours=" + b] + (["--triton-first"] if first else [])
                with mock.patch.dict(sys.modules, {"torch": torch}), mock.patch.object(sys, "argv", argv), \
                        mock.patch.object(C, "bench", bench), \
                        mock.patch.object(C, "triton_ptx", lambda *a: ("t.ptx", "t.json")), redirect_stdout(StringIO()):
                    C.main()
                want = ["ours.compare.json", "triton.compare.json"]
                self.assertEqual(order, want[::-1] if first else want)
                rows = C.json.loads(C.T.read_text(os.path.join(d, "o", "compare.json")))
                self.assertEqual(list(rows[0]["results"]), ["ours", "triton"])

    def test_line(self):
        got = C.line("k", {"before": {"ms": 0.2, "pct_copy": 50.0}, "after": {"error": "boom"},
                           "triton": {"ms": 0.1, "pct_copy": 100.0}})
        self.assertIn("before 200.0 us (50.0% of copy, 50.0% of Triton)", got)
        self.assertIn("after ERROR boom", got)
        self.assertIn("triton 100.0 us (100.0% of copy)", got)

    def test_line_check_failed(self):
        got = C.line("k", {"a": {"ms": 0.1, "pct_copy": 90.0, "check_ok": False},
                           "b": {"ms": 0.1, "pct_copy": 90.0, "check_ok": True},
                           "c": {"error": "boom", "check_ok": False},
                           "triton": {"ms": 0.1, "pct_copy": 90.0}})
        self.assertIn("a CHECK FAILED 100.0 us", got)
        self.assertIn("b 100.0 us", got)
        self.assertNotIn("b CHECK", got)
        self.assertIn("c CHECK FAILED ERROR boom", got)


if __name__ == "__main__":
    unittest.main()

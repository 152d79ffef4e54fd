#!/usr/bin/env python3
"""Tests of triton_ref.py's selection, summary and table (no GPU, no torch):
python3 proof/triton_ref_test.py"""
import argparse
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_ref as T  # noqa: E402


def bench(ms, pct):
    return {"bench": {"kernel": {"median_ms": ms, "gb_per_s": 1000 / ms}, "pct_of_copy": pct}}


REPORT = {"kernels": [
    {"name": "a.post", "class": "memory",
     "variants": {"triton-ptx": {"check_ok": True}, "layout-translate": {"check_ok": True}},
     "triton_check": {"triton-ptx": {"ok": True}, "layout-translate": {"ok": True}},
     "bench": {"variants": {"triton-ptx": bench(1.0, 97.0), "layout-translate": bench(0.98, 99.0)},
               "triton": {"outputs_vs": {"layout-translate": {"ok": True}}}}},
    {"name": "b.post", "class": "matmul", "no_realistic_size": "one program",
     "variants": {"triton-ptx": {"check_ok": True}, "layout-translate": {"check_ok": False, "check": {"ok": False}}},
     "triton_check": {"layout-translate": {"ok": False}}},
    {"name": "c.post", "class": "memory", "error": "RuntimeError: boom", "variants": {}},
    {"name": "t.post", "class": "reduction", "no_realistic_size": "one program", "graph": 100,
     "variants": {"triton-ptx": {"check_ok": True}, "layout-translate": {"check_ok": True}},
     "triton_check": {"triton-ptx": {"ok": True}, "layout-translate": {"ok": True}},
     "bench": {"variants": {"triton-ptx": bench(0.006, 3.0), "layout-translate": bench(0.005, 3.6)}}},
], "ptxas": {"results": [{"ptx": "a.post.lt.ptx", "ok": True, "registers": 30},
                         {"ptx": "b.post.lt.ptx", "ok": False, "error": "ptxas fatal"}]}}


class TritonRefTest(unittest.TestCase):
    def test_no_triton_skips_compile(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "k.ttgir"), "w") as f:
                f.write('module attributes {ttg.target = "cuda:90"} {}\n')
            calls = []
            saved = T.compile_triton
            T.compile_triton = lambda *a: calls.append(a) or ("", {})
            try:
                k = {"name": "k", "ttgir": "k.ttgir", "args": [], "grid": "1", "check_args": [], "check_grid": "1"}
                r = T.check_kernel(dict(k, no_triton="why"), d, d, 90, 1)
                self.assertEqual((calls, r["no_triton"]), ([], "why"))
                self.assertNotIn("triton_compile_error", r)
                T.check_kernel(k, d, d, 90, 1)
                self.assertEqual(len(calls), 1)
            finally:
                T.compile_triton = saved

    def test_triton_source_unchanged(self):
        """Modules that need no fence (not sm_90, no warp_group_dot, or already
        fenced) are compiled as they are, without Triton's bindings."""
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            for cc, text in ((80, "ttng.warp_group_dot"), (90, "tt.dot"),
                             (90, "ttng.fence_async_shared\nttng.warp_group_dot")):
                path = os.path.join(d, "k.ttgir")
                with open(path, "w") as f:
                    f.write(text)
                self.assertEqual(T.triton_source(path, cc, d), path)
                self.assertFalse(os.path.exists(os.path.join(d, "triton_input.ttgir")))
        # A module that needs the fence goes through Triton, which is absent here.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "k.ttgir")
            with open(path, "w") as f:
                f.write("ttng.warp_group_dot")
            try:
                import triton  # noqa: F401
            except ImportError:
                with self.assertRaises(ImportError):
                    T.triton_source(path, 90, d)

    def test_element_types(self):
        # Every pointee type a manifest kernel takes has a numpy type to read its dumps, and the
        # ones numpy lacks (bf16, fp8) a torch type to view them as.
        here = os.path.dirname(os.path.abspath(__file__))
        kinds = set()
        for k in T.json.loads(T.read_text(os.path.join(here, "kernels.json")))["kernels"]:
            for a in k.get("args", []):
                spec = a.split("=", 1)[1].split(":")
                if len(spec) > 1 and spec[0] in ("rand", "randn", "zeros", "ones", "full", "iota"):
                    kinds.add(spec[1])
        self.assertIn("f8E4M3FN", kinds)
        for el in kinds:
            self.assertIn(el, T.NP_NAMES, el)
        for el in T.TORCH_VIEWS:  # read as unsigned integers of their width, then viewed
            self.assertIn(T.NP_NAMES[el], ("uint8", "uint16"), el)

    def test_select(self):
        ks = [{"name": n} for n in ("x.post", "x.pre-ours", "y.post", "z.post")]
        self.assertEqual([k["name"] for k in T.select(ks, ["*.post"], None)], ["x.post", "y.post", "z.post"])
        self.assertEqual([k["name"] for k in T.select(ks, None, (1, 2))], ["x.pre-ours", "z.post"])
        self.assertEqual([k["name"] for k in T.select(ks, ["*.post"], (0, 2))], ["x.post", "z.post"])
        self.assertEqual(T.parse_shard("2/3"), (2, 3))
        for bad in ("3/3", "1", "a/b"):
            with self.assertRaises(argparse.ArgumentTypeError):
                T.parse_shard(bad)

    def test_bench_selected(self):
        ks = [{"name": "x.post"}, {"name": "x.pre-ours"}, {"name": "t.post", "no_realistic_size": True},
              {"name": "copy"}]

        def names(bench, no_bench, realistic):
            return [k["name"] for k in ks if T.bench_selected(k, bench, no_bench, realistic)]
        self.assertEqual(names(None, None, False), ["x.post", "x.pre-ours", "t.post", "copy"])
        self.assertEqual(names(["none"], None, False), [])
        self.assertEqual(names(["*.post"], None, False), ["x.post", "t.post"])
        self.assertEqual(names(None, ["*.pre-ours"], True), ["x.post", "copy"])
        self.assertEqual(names(["*.post", "copy"], None, True), ["x.post", "copy"])

    def test_summary(self):
        s = T.summarize(REPORT)
        self.assertEqual(s["layout-translate"], {"ok": 2, "MISMATCH": 1, "error": 0, "—": 1})
        self.assertEqual(s["equal_to_triton"]["NO"], 1)
        self.assertEqual(s["memory_bound_pct_of_copy"]["at_least_98"], 1)
        # Tile kernels are summed up apart from the realistic sizes.
        self.assertEqual(s["speed_vs_triton"]["kernels"], 1)
        self.assertAlmostEqual(s["speed_vs_triton"]["geomean"], 100 / 0.98)
        self.assertEqual(s["tile_speed_vs_triton"]["kernels"], 1)
        self.assertAlmostEqual(s["tile_speed_vs_triton"]["geomean"], 120)
        self.assertEqual(s["ptxas"], {"files": 2, "ok": 1, "spilling": 0})

    def test_table(self):
        t = T.table(REPORT)
        self.assertIn("| a.post | memory | ok / ok | yes / full: yes | ok (30) | 980.00 / 1000.00 | 1020 | 99.0 | 97.0 |  "
                      "| 102.0% |", t)
        # A tile kernel: times and the ratio, no bandwidth.
        self.assertIn("| t.post | reduction (tile) | ok / ok | yes |  | 5.00 / 6.00 |  |  |  |  | 120.0% |", t)
        self.assertIn("Tile kernels (one program is the whole problem; timed in CUDA graphs, per launch), 1 timed: "
                      "ours vs Triton's PTX geometric mean 120.0%", t)
        self.assertIn("| b.post | matmul (tile) | ok / MISMATCH | NO | FAILED |", t)
        self.assertIn("error: RuntimeError: boom", t)
        self.assertIn("ptxas --gpu-name sm_90: 1/2 PTX files assemble", t)

    def test_write_report_whole(self):
        import json
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            T.write_report(REPORT, d)
            with self.assertRaises(TypeError):  # stopped while writing
                T.write_report({"kernels": [object()]}, d)
            with open(os.path.join(d, "report.json")) as f:
                self.assertEqual(json.load(f), json.loads(json.dumps(REPORT)))

    def test_argv(self):
        k = {"ttgir": "kernels/k.ttgir", "args": ["x=rand:f32:1024", "n=1024"], "grid": "4",
             "check_args": ["x=rand:f32:64", "n=64"], "check_grid": "1", "rtol": 1e-05}
        self.assertEqual(T.check_argv(k, "B", "k.ptx", "m.json", "c.json", "D"), [
            "B/kernels/k.ttgir", "-arg", "x=rand:f32:64", "-arg", "n=64", "-grid", "1", "-check", "-rtol", "1e-05",
            "-atol", "0", "-json", "c.json", "-dump", "D", "-ptx", "k.ptx", "-q", "-meta", "m.json"])
        self.assertEqual(T.check_argv(k, "B", "k.ptx", None, "c.json")[-5:], ["-json", "c.json", "-ptx", "k.ptx", "-q"])
        self.assertEqual(T.bench_argv(k, "B", "k.ptx", None, "b.json", 20, 3, "D"), [
            "B/kernels/k.ttgir", "-arg", "x=rand:f32:1024", "-arg", "n=1024", "-grid", "4", "-bench", "20",
            "-warmup", "3", "-dump", "D", "-json", "b.json", "-ptx", "k.ptx", "-q"])
        self.assertEqual(T.bench_argv(k, "B", "k.ptx", "m.json", "b.json", 20, 3)[-9:], [
            "-warmup", "3", "-json", "b.json", "-ptx", "k.ptx", "-q", "-meta", "m.json"])
        k["graph"] = 100
        self.assertEqual(T.bench_argv(k, "B", "k.ptx", None, "b.json", 20, 3)[7:13], [
            "-bench", "20", "-warmup", "3", "-graph", "100"])


if __name__ == "__main__":
    unittest.main()

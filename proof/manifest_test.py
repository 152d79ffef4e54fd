#!/usr/bin/env python3
"""Tests of proof/manifest.py: python3 proof/manifest_test.py"""
import glob
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest as M  # noqa: E402

SHARED = os.path.join(M.ROOT, "..", "shared", "triton36")


def ttgir_path(t):
    if t.startswith("shared:"):
        return os.path.join(SHARED, t[len("shared:"):])
    if t.startswith("prepost:"):
        return os.path.join(M.PREPOST, t[len("prepost:"):])
    return os.path.join(M.HERE, t)


def read(path):
    with open(path) as f:
        return f.read()


def params(path):
    """The parameter names of the public tt.func of a TTGIR file."""
    text = read(path)
    m = re.search(r"tt\.func public @\w+\((.*?)\)(?: attributes)? \{", text)
    return re.findall(r"%(\w+): ", m.group(1))


class ManifestTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.text = M.render()
        cls.kernels = json.loads(cls.text)["kernels"]
        cls.by_name = {k["name"]: k for k in cls.kernels}

    def resolved(self, k):
        return self.by_name[k["from"]] if "from" in k else k

    def test_up_to_date(self):
        self.assertEqual(read(M.OUT), self.text, "proof/kernels.json is stale: run python3 proof/manifest.py")

    def test_every_corpus_pair_and_shared_file(self):
        pairs = sorted(os.path.basename(p)[:-len(".post.ttgir")] for p in glob.glob(os.path.join(M.PREPOST, "*.post.ttgir")))
        self.assertEqual(len(pairs), 126)
        for p in pairs:
            self.assertIn(p + ".post", self.by_name)
            self.assertEqual(self.by_name[p + ".pre-ours"]["layout_opt"], ["-remove-redundant-conversions"])
        blocked = sorted(os.path.basename(p)[:-len(".blocked.ttgir")]
                         for p in glob.glob(os.path.join(M.PREPOST, "*.blocked.ttgir")))
        self.assertEqual(len(blocked), 5)  # the scaled dots before Triton's accelerate-matmul
        for p in blocked:
            k = self.by_name[p + ".blocked-ours"]
            self.assertEqual(k["from"], p + ".post")
            self.assertIn("accelerate-matmul", k["no_triton"])
        shared = glob.glob(os.path.join(SHARED, "ttgir", "*.ttgir"))
        if not shared:
            self.skipTest("no ../shared/triton36/ttgir")
        for p in shared:
            self.assertIn(os.path.basename(p)[:-len(".ttgir")], self.by_name)

    def test_args_name_every_parameter_in_order(self):
        for k in self.kernels:
            path = ttgir_path(k["ttgir"])
            if not os.path.exists(path):
                continue
            src = self.resolved(k)
            want = params(path)
            for key in ("args", "check_args"):
                got = [a.split("=", 1)[0] for a in src[key]]
                self.assertEqual(got, want, f"{k['name']} {key}")

    def test_realistic_sizes(self):
        for k in self.kernels:
            if "from" in k or "kernel" not in k:
                continue
            if "no_realistic_size" in k:
                continue
            if k["class"] in ("memory", "reduction", "scan"):
                self.assertGreaterEqual(k["bytes"], M.BIG, k["name"])
            if k["class"] == "matmul" and k["kernel"].startswith("matmul"):
                self.assertEqual(k["flops"], 2 * 4096 ** 3, k["name"])
                self.assertIn("M=4096", k["args"])

    def test_single_program_kernels_say_why(self):
        for k in self.kernels:
            if "from" in k or "kernel" not in k:
                continue
            if k["grid"] == "1":
                self.assertIn("no_realistic_size", k, k["name"])

    def test_missing_buffer_is_an_error(self):
        launch = M.Launch([1], "memory").inp("x_ptr", 4)
        with self.assertRaisesRegex(ValueError, "no buffer for pointer parameter y_ptr"):
            M.arg_specs(launch, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, ["x_ptr", "y_ptr"])
        launch.out("y_ptr", 4).let(n=3)
        with self.assertRaisesRegex(ValueError, r"does not have: \['n'\]"):
            M.arg_specs(launch, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, ["x_ptr", "y_ptr"])

    def test_arg_spec_text(self):
        launch = M.Launch([2], "memory").inp("idx_ptr", 8, 4, lo=0, hi=3).out("y_ptr", 32).let(eps=1e-05, n=7)
        sig = {"idx_ptr": "*i32", "y_ptr": "*fp16", "eps": "fp32", "n": "i32", "B": "constexpr"}
        self.assertEqual(M.arg_specs(launch, sig, ["idx_ptr", "y_ptr", "eps", "n", "B"]),
                         ["idx_ptr=rand:i32:8x4:lo=0:hi=3", "y_ptr=zeros:f16:32", "eps=1e-05", "n=7"])
        self.assertEqual(M.nbytes(launch, sig), 8 * 4 * 4 + 32 * 2)


if __name__ == "__main__":
    unittest.main()

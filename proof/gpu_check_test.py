"""Unit tests of gpu_check.py (no GPU: ttgir-run's runs are stubbed)."""
import os
import subprocess
import tempfile
import unittest
from unittest import mock

import gpu_check as P


class GPUCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.dir, "checks"))
        with open(os.path.join(self.dir, "checks", "k.args"), "w") as f:
            f.write("x=randn:f32:64\ngrid 2\n")
        self.write_kernel("tt.print \" x: \" {hex = false, isSigned = array<i32: 0>} : %x\n")

    def write_kernel(self, text):
        with open(os.path.join(self.dir, "checks", "k.ttgir"), "w") as f:
            f.write(text)

    def run_with(self, gpu_out, cpu_out, rc=0):
        calls = []

        def fake(argv, **kw):
            calls.append(argv)
            out = gpu_out if "-ptx" in argv else cpu_out
            return subprocess.CompletedProcess(argv, rc, out, "")
        with mock.patch.object(P.subprocess, "run", fake):
            res = P.check(self.dir, "k")
        return res, calls

    def test_duplicates_and_order_do_not_matter(self):
        cpu = "pid (0, 0, 0) idx (0) x: 1.000000\npid (0, 0, 0) idx (1) x: 2.000000\nk.ttgir @k on the interpreter\n"
        gpu = "pid (0, 0, 0) idx (1) x: 2.000000\npid (0, 0, 0) idx (0) x: 1.000000\npid (0, 0, 0) idx (1) x: 2.000000\n"
        res, calls = self.run_with(gpu, cpu)
        self.assertTrue(res["ok"], res)
        self.assertEqual(res["gpu_lines"], 3)
        self.assertIn("-arg", calls[0])
        self.assertEqual(calls[0][calls[0].index("-grid") + 1], "2")

    def test_a_wrong_value_fails(self):
        cpu = "pid (0, 0, 0) idx (0) x: 1.000000\n"
        gpu = "pid (0, 0, 0) idx (0) x: 1.500000\n"
        res, _ = self.run_with(gpu, cpu)
        self.assertFalse(res["ok"])
        self.assertEqual(res["only_gpu"], ["pid (0, 0, 0) idx (0) x: 1.500000"])


    def test_names_strip_the_extension(self):
        open(os.path.join(self.dir, "checks", "k.ptx"), "w").close()
        self.assertEqual(P.names(self.dir), ["k"])

    def test_a_kernel_without_print_runs_check(self):
        self.write_kernel("tt.func public @k(%x: !tt.ptr<f32>) { tt.return }\n")
        res, calls = self.run_with("", "")
        self.assertTrue(res["ok"], res)
        self.assertEqual(len(calls), 1)
        self.assertIn("-check", calls[0])
        self.assertIn("-ptx", calls[0])
        res, _ = self.run_with("mismatch at x[3]", "", rc=1)
        self.assertFalse(res["ok"])
        self.assertIn("mismatch", res["error"])


if __name__ == "__main__":
    unittest.main()

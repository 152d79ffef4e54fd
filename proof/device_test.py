#!/usr/bin/env python3
"""Tests of device.sh's kernel selection (bash and python3; no GPU)."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class DeviceTest(unittest.TestCase):
    def test_list(self):
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(HERE, "device.sh"), d)
            os.makedirs(os.path.join(d, "ptx"))
            ks = [{"name": "big"}, {"name": "a.post"}, {"name": "a.pre-ours"}, {"name": "b.post"},
                  {"name": "b.pre-ours"}, {"name": "t.post", "no_realistic_size": "one program"},
                  {"name": "t.pre-ours", "no_realistic_size": "one program"},
                  {"name": "sync", "class": "sync", "no_realistic_size": "a loop"}]
            with open(os.path.join(d, "kernels.json"), "w") as f:
                json.dump({"kernels": ks}, f)
            for name, text in (("a.post", "x"), ("a.pre-ours", "y"), ("b.post", "z"), ("b.pre-ours", "z"),
                               ("t.post", "u"), ("t.pre-ours", "u")):
                with open(os.path.join(d, "ptx", name + ".lt.ptx"), "w") as f:
                    f.write(text)
            run = lambda kind: subprocess.run(["bash", os.path.join(d, "device.sh"), "list", kind],
                                              capture_output=True, text=True, check=True).stdout.split()
            self.assertEqual(run("pre-ours"), ["a.pre-ours"])  # b's PTX equals its .post's
            self.assertEqual(run("tile"), ["t.post"])  # t.pre-ours likewise; sync is no speed figure
            bad = subprocess.run(["bash", os.path.join(d, "device.sh"), "nope", "x"], capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)
            # recheck needs a main or tile part's report to pick its kernels from.
            none = subprocess.run(["bash", os.path.join(d, "device.sh"), "recheck", os.path.join(d, "out")],
                                  capture_output=True, text=True)
            self.assertEqual(none.returncode, 1)
            self.assertIn("no main or tile report", none.stderr)

    def test_check(self):
        # The check part runs run.sh with nothing timed: every check, or only the
        # kernels the globs name, then without package cuda's tests and ptxas.
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(HERE, "device.sh"), d)
            with open(os.path.join(d, "run.sh"), "w") as f:
                f.write('#!/bin/bash\nprintf "%s\\n" "$@" > "$OUT/args"\n')
            os.chmod(os.path.join(d, "run.sh"), 0o755)
            out = os.path.join(d, "out")

            def args(*globs):
                subprocess.run(["bash", os.path.join(d, "device.sh"), "check", out, *globs],
                               capture_output=True, text=True, check=True)
                with open(os.path.join(out, "check", "args")) as f:
                    return f.read().split()

            every = args()
            self.assertIn("none", every[every.index("--bench") + 1:][:1])
            self.assertNotIn("--only", every)
            self.assertNotIn("--skip-tests", every)
            some = args("wgmma_*", "fp4_to_bf16")
            self.assertEqual([some[i + 1] for i, a in enumerate(some) if a == "--only"], ["wgmma_*", "fp4_to_bf16"])
            self.assertIn("--skip-tests", some)
            self.assertIn("--no-ptxas", some)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""ncu metrics of one launch: ncu.py OUTFILE LABEL=BUNDLE:KERNEL[:triton]..."""
import json, os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "cur", "bundle"))
import triton_ref as T
M = ",".join(["gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
              "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
              "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
              "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
              "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
              "smsp__average_warp_latency_issue_stalled_barrier", "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
              "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
              "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct",
              "smsp__warp_issue_stalled_drain_per_warp_active.pct",
              "dram__sectors_read.sum", "fbpa__dram_read_sectors.sum"])
out = open(sys.argv[1], "w")
for spec in sys.argv[2:]:
    label, rest = spec.split("=", 1)
    parts = rest.split(":")
    b, name = parts[0], parts[1]
    k = {x["name"]: x for x in json.load(open(os.path.join(b, "kernels.json")))["kernels"]}[name]
    if len(parts) > 2:
        kdir = os.path.join("/tmp/pw/kernels", name)
        ptx, meta = os.path.join(kdir, "triton.ptx"), os.path.join(kdir, "triton.json")
        kname = json.load(open(meta))["name"]
    else:
        o = k["ours"][0]
        ptx = os.path.join(b, "ptx", o["ptx"])
        meta = "/tmp/ncu-meta.json"
        json.dump(o["meta"], open(meta, "w"))
        kname = o["meta"]["name"]
    argv = T.bench_argv(k, b, ptx, meta, "/tmp/ncu.json", 1, 0)
    cmd = ["ncu", "--metrics", M, "-k", kname] + [os.path.join(b, "bin", "ttgir-run")] + argv
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    out.write(f"===== {label} {name}\n{r.stdout[-6000:]}\n{r.stderr[-2000:]}\n")
    out.flush()

"""Raster-order variants of the 2D tile kernels: the program ids remapped from the
launch order (x fastest) to swapped (y fastest) or grouped orders."""
import json, os, re, shutil, subprocess, sys
src_bundle, root, translate = sys.argv[1:4]
names = ["copy2d_64x64_sm90_w4", "jit_copy2d_64x64_w4_f16", "transpose_64x64_f16_sm80_w4",
         "transpose_64x64_f32_sm90_w4", "jit_transpose_64x64_w4_f32"]
man = {k["name"]: k for k in json.load(open(os.path.join(src_bundle, "kernels.json")))["kernels"]}

def block(mname, nname, order):
    L = ["    %q_x = tt.get_program_id x : i32", "    %q_y = tt.get_program_id y : i32",
         "    %q_nx = tt.get_num_programs x : i32", "    %q_ny = tt.get_num_programs y : i32",
         "    %q_t = arith.muli %q_y, %q_nx : i32", "    %q_lin = arith.addi %q_x, %q_t : i32"]
    if order == "swap":
        L += [f"    {mname} = arith.divui %q_lin, %q_ny : i32", f"    {nname} = arith.remui %q_lin, %q_ny : i32"]
    else:
        G = int(order[1:])
        L += [f"    %q_g = arith.constant {G} : i32",
              "    %q_gs = arith.muli %q_g, %q_ny : i32",
              "    %q_gid = arith.divui %q_lin, %q_gs : i32",
              "    %q_first = arith.muli %q_gid, %q_g : i32",
              "    %q_in = arith.remui %q_lin, %q_g : i32",
              f"    {mname} = arith.addi %q_first, %q_in : i32",
              "    %q_r = arith.remui %q_lin, %q_gs : i32",
              f"    {nname} = arith.divui %q_r, %q_g : i32"]
    return "\n".join(L) + "\n"

for order in ["swap", "g8", "g16", "g32", "g64"]:
    b = os.path.join(root, order, "bundle")
    shutil.rmtree(b, ignore_errors=True)
    for d in ("kernels", "ptx"):
        os.makedirs(os.path.join(b, d))
    ks = []
    for n in names:
        k = dict(man[n])
        text = open(os.path.join(src_bundle, k["ttgir"])).read()
        ids = re.findall(r"^    (%\w+) = tt.get_program_id ([xy]) : i32.*\n", text, re.M)
        d = dict((a, v) for v, a in ids)
        lines = re.findall(r"^    %\w+ = tt.get_program_id [xy] : i32.*\n", text, re.M)
        text = text.replace(lines[0], block(d["x"], d["y"], order), 1).replace(lines[1], "", 1)
        dst = os.path.join(b, "kernels", n + ".ttgir")
        open(dst, "w").write(text)
        ptx = os.path.join(b, "ptx", n + ".lt.ptx")
        subprocess.run([translate, "-ttgir-to-ptx", dst, "-o", ptx], check=True)
        ks.append(k)
    json.dump({"kernels": ks}, open(os.path.join(b, "kernels.json"), "w"), indent=1)
    print(order, "ok")

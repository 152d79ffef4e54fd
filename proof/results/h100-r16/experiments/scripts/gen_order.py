"""Writes program-order variants of a 2-D tile kernel's TTGIR.

A: groups of G along y (G=1: launch order, x fastest); B: groups of G along x
(G=1: y fastest). lin = x + y*nx is the launch position."""
import re, sys

def variant(src, fam, G):
    lines = src.split("\n")
    px = [i for i, l in enumerate(lines) if re.search(r"= tt.get_program_id x : i32", l)]
    py = [i for i, l in enumerate(lines) if re.search(r"= tt.get_program_id y : i32", l)]
    assert len(px) == 1 and len(py) == 1, (px, py)
    A = re.search(r"(%[\w.]+) = tt", lines[px[0]]).group(1)
    B = re.search(r"(%[\w.]+) = tt", lines[py[0]]).group(1)
    ind = "    "
    # A: groups of G values of y (the grouped id g, the other one o); B: of x.
    n_g, n_o, g_id, o_id = ("ny", "nx", B, A) if fam == "A" else ("nx", "ny", A, B)
    blk = f"""%q_px = tt.get_program_id x : i32
%q_py = tt.get_program_id y : i32
%q_nx = tt.get_num_programs x : i32
%q_ny = tt.get_num_programs y : i32
%q_G = arith.constant {G} : i32
%q_l0 = arith.muli %q_py, %q_nx : i32
%q_lin = arith.addi %q_l0, %q_px : i32
%q_pg = arith.muli %q_G, %q_{n_o} : i32
%q_g = arith.divsi %q_lin, %q_pg : i32
%q_f = arith.muli %q_g, %q_G : i32
%q_r = arith.subi %q_{n_g}, %q_f : i32
%q_gs = arith.minsi %q_r, %q_G : i32
%q_loc = arith.remsi %q_lin, %q_pg : i32
%q_lg = arith.remsi %q_loc, %q_gs : i32
{g_id} = arith.addi %q_f, %q_lg : i32
{o_id} = arith.divsi %q_loc, %q_gs : i32"""
    first = min(px[0], py[0])
    out = []
    for i, l in enumerate(lines):
        if i == first:
            out += [ind + b for b in blk.split("\n")]
        elif i in (px[0], py[0]):
            continue
        else:
            out.append(l)
    return "\n".join(out)

if __name__ == "__main__":
    src = open(sys.argv[1]).read()
    fam, G = sys.argv[2], int(sys.argv[3])
    sys.stdout.write(variant(src, fam, G))

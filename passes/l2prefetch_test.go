package passes

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// TestL2PrefetchTriton runs l2-prefetch on Triton 3.6's own TTGIR as
// layout-translate does (after order-programs and
// specialize-divisibility, unless order is false): only the f16 transpose,
// whose 128-byte rows program y+1 completes a grid row of launches later,
// gets the prefetch, on the loads of both its bodies; the f16 tile copy
// would too in launch order, but order-programs runs it with y fastest.
func TestL2PrefetchTriton(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "triton36", "ttgir")
	for _, c := range []struct {
		file   string
		order  bool
		marked int
		want   string
	}{
		{"transpose_64x64_f16_sm80_w4", true, 2, "L2 prefetch: 256 B for the loads at transpose_64x64_f16_sm80_w4:36:13 (rows of 128 bytes; program y+1 reads 128 bytes away, program x+1 a runtime stride away)"},
		{"jit_copy2d_64x64_w4_f16", true, 0, "L2 prefetch: none (rows of 128 bytes, but no program x+1 known to read beside them)"},
		{"jit_copy2d_64x64_w4_f16", false, 1, "L2 prefetch: 256 B for the loads at jit_copy2d_64x64_w4_f16:37:11 (rows of 128 bytes; program y+1 reads 128 bytes away, program x+1 a runtime stride away)"},
		{"transpose_64x64_f32_sm90_w4", true, 0, "L2 prefetch: none (rows of 256 bytes)"},
		{"add_b1024_sm90_w4", true, 0, "L2 prefetch: none (rows of 4096 bytes)"},
		{"jit_matmul_128x128x64_w8_s3", true, 0, "L2 prefetch: none (no global load of a tensor of pointers)"},
	} {
		m := sharedKernel(t, dir, c.file)
		if c.order {
			OrderPrograms(kernelOf(t, m))
		}
		if _, err := SpecializeDivisibility(m, 16); err != nil {
			t.Fatal(err)
		}
		got := MarkL2Prefetch(kernelOf(t, m))
		if got.Remark() != c.want || len(got.Loads) != c.marked {
			t.Errorf("%s: %d loads, %s\nwant %d, %s", c.file, len(got.Loads), got.Remark(), c.marked, c.want)
		}
		text := m.String()
		if n := strings.Count(text, L2PrefetchAttr+" = 256 : i32"); n != c.marked {
			t.Errorf("%s: %d loads carry %s, want %d", c.file, n, L2PrefetchAttr, c.marked)
		}
	}
}

// TestL2PrefetchSteps checks the rule on a 1-D load of 32 f32 (rows of
// 128 bytes) whose pointers move with program ids x and y by XV and YV
// elements: %sx (a runtime stride) or constants.
func TestL2PrefetchSteps(t *testing.T) {
	for _, c := range []struct {
		target, xv, yv string
		want           string
	}{
		{"cuda:80", "%sx", "%c32", "256 B for the loads at steps:19:10 (rows of 128 bytes; program y+1 reads 128 bytes away, program x+1 a runtime stride away)"},
		{"cuda:90", "%c64", "%c32", "256 B for the loads at steps:19:10 (rows of 128 bytes; program y+1 reads 128 bytes away, program x+1 256 bytes away)"},
		{"cuda:80", "%c32", "%c64", "none (rows of 128 bytes; program y+1 reads 256 bytes away)"},
		{"cuda:80", "%c32", "%sx", "none (rows of 128 bytes, but no program y+1 known to read beside them)"},
		{"cuda:80", "%sx", "%c16", "none (rows of 128 bytes; program y+1 reads 64 bytes away)"},
		{"cuda:80", "%c0", "%c32", "none (rows of 128 bytes; program x+1 reads the same)"},
		{"cuda:80", "%c48", "%c32", "none (rows of 128 bytes; program x+1, launched next, reads 192 bytes away)"},
		{"cuda:75", "%sx", "%c32", "none (ld.global.L2::256B needs a cuda target of sm_80 or newer)"},
	} {
		src := strings.NewReplacer("TARGET", c.target, "XV", c.xv, "YV", c.yv).Replace(`#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "TARGET"} {
  tt.func public @k(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>, %sx: i32) {
    %px = tt.get_program_id x : i32
    %py = tt.get_program_id y : i32
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c32 = arith.constant 32 : i32
    %c48 = arith.constant 48 : i32
    %c64 = arith.constant 64 : i32
    %ox = arith.muli %px, XV : i32
    %oy = arith.muli %py, YV : i32
    %o = arith.addi %ox, %oy : i32
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %os = tt.splat %o : i32 -> tensor<32xi32, #b>
    %off = arith.addi %os, %r : tensor<32xi32, #b>
    %ip = tt.splat %in : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %p = tt.addptr %ip, %off : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    %x = tt.load %p : tensor<32x!tt.ptr<f32>, #b>
    %jp = tt.splat %out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %q = tt.addptr %jp, %off : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    tt.store %q, %x : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}`)
		m, d := ir.ParseString(src, ir.ParseConfig{Filename: "steps"})
		if d.HasErrors() {
			t.Fatalf("%v\n%s", d, src)
		}
		if got := MarkL2Prefetch(kernelOf(t, m)).Remark(); got != "L2 prefetch: "+c.want {
			t.Errorf("x by %s, y by %s on %s:\n got %s\nwant L2 prefetch: %s", c.xv, c.yv, c.target, got, c.want)
		}
	}
}

// TestL2PrefetchRenumbered mirrors Triton's f16 transpose (program id x
// and y swapped): its stores now move by 128 bytes with y, so
// order-programs runs it y fastest, and its loads' 128-byte rows are
// completed by program x+1, a grid column of launches away. l2-prefetch
// reads the renumbered program ids and marks the loads; a second
// order-programs leaves the kernel as it is.
func TestL2PrefetchRenumbered(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "triton36", "ttgir")
	m := sharedKernel(t, dir, "transpose_64x64_f16_sm80_w4")
	fn := kernelOf(t, m)
	var pids []*ir.Operation
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		if op.Name() == "tt.get_program_id" {
			pids = append(pids, op)
		}
		return ir.Advance
	})
	for _, op := range pids {
		a := ir.AttrIntValue(op.Attr("axis"))
		op.SetAttr("axis", tt.ProgramIDDim.Attr(1-a))
	}
	if d := OrderPrograms(fn); !d.YFastest {
		t.Fatalf("order-programs: %s", d)
	}
	before := m.String()
	if d := OrderPrograms(fn); d.YFastest || d.Why != "its programs are renumbered already (y fastest)" || m.String() != before {
		t.Fatalf("a second order-programs: %s", d)
	}
	if _, err := SpecializeDivisibility(m, 16); err != nil {
		t.Fatal(err)
	}
	got := MarkL2Prefetch(fn)
	want := "L2 prefetch: 256 B for the loads at transpose_64x64_f16_sm80_w4:36:13 (rows of 128 bytes; program x+1 reads 128 bytes away, program y+1 a runtime stride away)"
	if len(got.Loads) != 2 || got.Remark() != want {
		t.Errorf("%d loads, %s\nwant 2, %s", len(got.Loads), got.Remark(), want)
	}
}

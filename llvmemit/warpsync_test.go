package llvmemit_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// The warp barriers of conversions through shared memory: a round trip in
// which every warp reads back only what it wrote itself (Triton's
// isCvtWarpSync) synchronises with bar.warp.sync -1, every other one, and
// Membar's barriers between ops, with bar.sync 0.

const (
	barSync  = "llvm.nvvm.barrier0"
	warpSync = "llvm.nvvm.bar.warp.sync"
)

// attentionKernel is the proof's attention_32x32x16_sm80_w2.post (Triton
// 3.6's PTX of it has bar.sync 0, bar.sync 0, bar.warp.sync -1, bar.sync
// 0 ×3, bar.warp.sync -1), its kernel renamed @k.
func attentionKernel(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "passes", "testdata", "prepost", "attention_32x32x16_sm80_w2.post.ttgir"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(src), "tt.func public @attention(", "tt.func public @k(", 1)
}

// barrierCalls returns the barrier calls of f (bar.sync and
// bar.warp.sync) in program order.
func barrierCalls(f *lir.Func) []*lir.InstCall {
	var calls []*lir.InstCall
	for _, blk := range f.Blocks {
		for _, inst := range blk.Insts {
			if c, ok := inst.(*lir.InstCall); ok {
				if g, ok := c.Callee.(*lir.Func); ok && (g.Name() == barSync || g.Name() == warpSync) {
					calls = append(calls, c)
				}
			}
		}
	}
	return calls
}

func calleeName(c *lir.InstCall) string { return c.Callee.(*lir.Func).Name() }

// runAttention lowers the attention kernel, lets edit change its function
// (nil: none), and runs it on the simulator (2 warps) with q, k, v at the
// start of global memory and o after them, stride 16 and sm_scale scale.
// It returns o's bytes and the simulator's panic.
func runAttention(t *testing.T, src string, q, k, v []byte, scale float32, edit func(f *lir.Func)) (o []byte, failure any) {
	t.Helper()
	res := lowerSource(t, src, "attention.mlir", true)
	var f *lir.Func
	for _, g := range res.Module.Funcs {
		if g.Name() == "k" {
			f = g
		}
	}
	if f == nil {
		t.Fatal("no kernel @k")
	}
	if edit != nil {
		edit(f)
	}
	n := uint64(len(q))
	mem := append(append(append(bytes.Clone(q), k...), v...), make([]byte, n)...)
	func() {
		defer func() { failure = recover() }()
		newSim(64, mem).run(f, []uint64{0, n, 2 * n, 3 * n, 16, uint64(math.Float32bits(scale)), 0, 0})
	}()
	return mem[3*n:], failure
}

// TestAttentionWarpSync lowers the attention kernel and checks its
// barriers against Triton's (the conversion of q from a blocked layout to
// the mma operand and of the mma result to the blocked store layout stay
// within warps: a warp barrier between their stores and loads), runs it on
// the simulator against the interpreter, and checks that each barrier is
// needed: without any one of them, or with a bar.sync made a warp barrier
// (but one, see membarWarpLocal), the simulator finds a shared-memory race.
func TestAttentionWarpSync(t *testing.T) {
	src := attentionKernel(t)
	const scale = 0.125
	q, k, v := filled(t, ir.F16, 32*16, 1), filled(t, ir.F16, 32*16, 2), filled(t, ir.F16, 32*16, 3)
	o := zeros(t, ir.F16, 32*16)
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "attention.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args := []interp.Arg{interp.BufArg(q), interp.BufArg(k), interp.BufArg(v), interp.BufArg(o), interp.IntArg(16), interp.FloatArg(scale)}
	if err := interp.Run(m, "k", args, [3]int{1, 1, 1}); err != nil {
		t.Fatalf("interp: %v", err)
	}

	var seq []string
	got, failure := runAttention(t, src, q.Data, k.Data, v.Data, scale, func(f *lir.Func) {
		for _, c := range barrierCalls(f) {
			seq = append(seq, strings.TrimPrefix(calleeName(c), "llvm.nvvm."))
		}
	})
	if failure != nil {
		t.Fatalf("simulator: %v", failure)
	}
	if !bytes.Equal(got, o.Data) {
		for i := range got {
			if got[i] != o.Data[i] {
				t.Fatalf("o, byte %d: the lowered kernel wrote %#x, the interpreter %#x", i, got[i], o.Data[i])
			}
		}
	}
	// Triton 3.6's PTX: bar.sync 0 ×2, bar.warp.sync -1, bar.sync 0 ×3,
	// bar.warp.sync -1.
	want := "barrier0 barrier0 bar.warp.sync barrier0 barrier0 barrier0 bar.warp.sync"
	if s := strings.Join(seq, " "); s != want {
		t.Fatalf("barriers: %s, want (as Triton) %s", s, want)
	}

	// Barrier 3 is Membar's, before v's conversion stores where q's loaded
	// (a write after read): q's and v's stores share the blocked layout and
	// the swizzle, so each warp overwrites only what it read itself and a
	// warp barrier would do; but Membar, Triton's as ours, orders ops with
	// CTA barriers only, and we keep Triton's barriers.
	const membarWarpLocal = 3
	for i, name := range seq {
		// Without barrier i.
		_, failure := runAttention(t, src, q.Data, k.Data, v.Data, scale, func(f *lir.Func) {
			c := barrierCalls(f)[i]
			for _, blk := range f.Blocks {
				for j, inst := range blk.Insts {
					if inst == c {
						blk.Insts = append(blk.Insts[:j:j], blk.Insts[j+1:]...)
						return
					}
				}
			}
		})
		if failure == nil {
			t.Errorf("barrier %d (%s) is not needed: the simulator finds no race without it", i, name)
		}
		if name != "barrier0" || i == membarWarpLocal {
			continue
		}
		// With bar.sync i a warp barrier.
		_, failure = runAttention(t, src, q.Data, k.Data, v.Data, scale, func(f *lir.Func) {
			var ws *lir.Func
			for _, g := range f.Parent.Funcs {
				if g.Name() == warpSync {
					ws = g
				}
			}
			c := barrierCalls(f)[i]
			c.Callee, c.Args = ws, []value.Value{constant.NewInt(types.I32, -1)}
		})
		if failure == nil {
			t.Errorf("barrier %d (bar.sync) could be a warp barrier: the simulator finds no race with bar.warp.sync", i)
		}
	}
}

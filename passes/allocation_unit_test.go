package passes

import (
	"errors"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
)

// bufs makes buffers of the given sizes and live intervals (alignment 1).
func bufs(spec ...[3]int) []*Buffer {
	var out []*Buffer
	for i, s := range spec {
		out = append(out, &Buffer{ID: i, Size: s[0], Alignment: 1, Live: Interval{s[1], s[2]}})
	}
	return out
}

func offsets(bs []*Buffer) []int {
	var out []int
	for _, b := range bs {
		out = append(out, b.Offset)
	}
	return out
}

func runOffsets(bs []*Buffer) *FuncAllocation {
	fa := &FuncAllocation{ranked: bs}
	computeOffsets(fa)
	return fa
}

// noOverlap checks the invariant the allocation guarantees: buffers live at
// the same time never share bytes, and all fit in the frame.
func noOverlap(t *testing.T, fa *FuncAllocation) {
	t.Helper()
	for _, x := range fa.ranked {
		if x.Offset%x.Alignment != 0 {
			t.Errorf("buffer %d at %d is not aligned to %d", x.ID, x.Offset, x.Alignment)
		}
		if x.Offset+x.Size > fa.SharedMemorySize {
			t.Errorf("buffer %d ends past the frame (%d > %d)", x.ID, x.Offset+x.Size, fa.SharedMemorySize)
		}
		for _, y := range fa.ranked {
			if x != y && x.Live.Intersects(y.Live) && x.Bytes().Intersects(y.Bytes()) {
				t.Errorf("buffers %d %v and %d %v overlap while live", x.ID, x.Bytes(), y.ID, y.Bytes())
			}
		}
	}
}

func TestComputeOffsetsDisjointLifetimesShareMemory(t *testing.T) {
	bs := bufs([3]int{64, 0, 2}, [3]int{64, 2, 4}, [3]int{32, 4, 6})
	fa := runOffsets(bs)
	if got := offsets(bs); got[0] != 0 || got[1] != 0 || got[2] != 0 || fa.SharedMemorySize != 64 {
		t.Errorf("offsets %v, size %d; want all at 0 in 64 bytes", got, fa.SharedMemorySize)
	}
	noOverlap(t, fa)
}

func TestComputeOffsetsLargestFirst(t *testing.T) {
	// All live together: stacked by size, largest at the bottom, each at the
	// next multiple of its alignment.
	bs := bufs([3]int{16, 0, 10}, [3]int{100, 0, 10}, [3]int{50, 0, 10})
	bs[0].Alignment = 64
	fa := runOffsets(bs)
	if got := offsets(bs); got[1] != 0 || got[2] != 100 || got[0] != 192 || fa.SharedMemorySize != 208 {
		t.Errorf("offsets %v, size %d; want [192 0 100], 208", got, fa.SharedMemorySize)
	}
	noOverlap(t, fa)
}

func TestComputeOffsetsColouring(t *testing.T) {
	// Triton's calculateStarts leaves a buffer that overlaps two open slots
	// for the colouring rounds: C (live over A's and B's ranges) cannot sit
	// at the offset A and B share.
	bs := bufs([3]int{64, 0, 4}, [3]int{64, 6, 10}, [3]int{32, 3, 7})
	fa := runOffsets(bs)
	if got := offsets(bs); got[0] != 0 || got[1] != 0 || got[2] != 64 || fa.SharedMemorySize != 96 {
		t.Errorf("offsets %v, size %d; want [0 0 64], 96", got, fa.SharedMemorySize)
	}
	noOverlap(t, fa)
}

func TestComputeOffsetsInvariant(t *testing.T) {
	// Pseudo-random interval sets: whatever the placement, live buffers
	// never overlap.
	seed := uint32(7)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	for round := range 200 {
		var spec [][3]int
		for range 2 + round%9 {
			s := next(40)
			spec = append(spec, [3]int{16 * (1 + next(8)), s, s + 1 + next(20)})
		}
		bs := bufs(spec...)
		for _, b := range bs {
			b.Alignment = []int{1, 16, 128}[next(3)]
		}
		noOverlap(t, runOffsets(bs))
	}
}

func parseFunc(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, diags := ir.ParseString(src, ir.ParseConfig{Filename: "t.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return m
}

const livenessSrc = `
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%lb: index, %ub: index, %st: index) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    scf.for %i = %lb to %ub step %st {
      %c = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #S, #smem, mutable>
      ttg.local_dealloc %a : !ttg.memdesc<16x16xf16, #S, #smem, mutable>
      ttg.local_dealloc %c : !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    }
    ttg.local_dealloc %b : !ttg.memdesc<16x16xf16, #S, #smem, mutable>
    tt.return
  }
}`

func TestLivenessIntervals(t *testing.T) {
	m := parseFunc(t, livenessSrc)
	alloc, err := AllocateModule(m.Op, DefaultScratchSize)
	if err != nil {
		t.Fatal(err)
	}
	// Post-order numbers: %a 0, %b 1, %c 2, dealloc a 3, dealloc c 4,
	// scf.yield 5, scf.for 6, dealloc b 7, tt.return 8, tt.func 9.
	want := map[string]Interval{"a": {0, 7}, "b": {1, 8}, "c": {2, 5}}
	fa := alloc.Funcs[alloc.Order[0]]
	if len(fa.Buffers) != 3 {
		t.Fatalf("%d buffers, want 3", len(fa.Buffers))
	}
	for i, name := range []string{"a", "b", "c"} {
		if got := fa.Buffers[i].Live; got != want[name] {
			t.Errorf("%%%s is live over %v, want %v", name, got, want[name])
		}
	}
	// %a is live through the loop (used inside it), so %c cannot take its
	// bytes; %c may not take %b's either.
	if fa.Buffers[2].Offset == fa.Buffers[0].Offset || fa.Buffers[2].Offset == fa.Buffers[1].Offset {
		t.Errorf("offsets %v: %%c overlaps a live buffer", offsets(fa.Buffers))
	}
	if fa.SharedMemorySize != 3*512 {
		t.Errorf("frame %d, want 1536", fa.SharedMemorySize)
	}
}

func TestAllocationErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, msg string }{
		{"recursion", `module {
  tt.func @f() {
    tt.call @f() : () -> ()
    tt.return
  }
}`, "recursive calls"},
		{"warp_specialize", `module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 8 : i32} {
  tt.func @f() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}`, "ttg.warp_specialize"},
	} {
		m, diags := ir.ParseString(tc.src, ir.ParseConfig{Filename: tc.name})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", tc.name, diags)
		}
		_, err := AllocateModule(m.Op, DefaultScratchSize)
		var oe *OpError
		if !errors.As(err, &oe) || oe.Op == nil || !strings.Contains(oe.Msg, tc.msg) {
			t.Errorf("%s: got %v, want a located error about %q", tc.name, err, tc.msg)
		}
	}
}

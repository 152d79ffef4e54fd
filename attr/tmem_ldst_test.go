package attr

import (
	"fmt"
	"testing"
)

// The register layouts below are ones Triton 3.6 itself produced or
// accepted for ttng.tmem_load and ttng.tmem_store (its lit tests
// TritonNvidiaGPU/tmem_layouts.mlir, TritonNvidiaGPU/invalid.mlir,
// TritonGPU/canonicalize.mlir), or the blocked layouts its
// getTmemLoadStoreLayout32x32b builds; the others are layouts no tcgen05
// access produces.
func TestIsTMemCompatible(t *testing.T) {
	for _, c := range []struct {
		name     string
		tensor   string
		shape    []int
		mem      string
		bitwidth int
		warps    int
		want     bool
	}{
		{
			name:   "canonicalize.mlir: bf16 packed two per 32-bit column, 32x32b, 8 warps",
			tensor: "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0], [0, 32]], block = []}>",
			shape:  []int{128, 64}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>",
			bitwidth: 16, warps: 8, want: true,
		},
		{
			name:   "invalid.mlir: f32 32x32b, 4 warps, one row per thread",
			tensor: "#ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>",
			shape:  []int{128, 128}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
			bitwidth: 32, warps: 4, want: true,
		},
		{
			name:   "getTmemLoadStoreLayout32x32b: f32, 8 warps split along N",
			tensor: "#ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>",
			shape:  []int{128, 128}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
			bitwidth: 32, warps: 8, want: true,
		},
		{
			name:   "tmem_layouts.mlir: the split-long-M layout of 8 warps (warp 4 and lane 16 swapped)",
			tensor: "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 64]], warp = [[32, 0], [64, 0], [16, 0]], block = []}>",
			shape:  []int{128, 128}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
			bitwidth: 32, warps: 8, want: true,
		},
		{
			name:   "tmem_layouts.mlir: split-long-M on 128x256",
			tensor: "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 128]], warp = [[32, 0], [64, 0], [16, 0]], block = []}>",
			shape:  []int{128, 256}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 256, colStride = 1>",
			bitwidth: 32, warps: 8, want: true,
		},
		{
			name:   "tmem_layouts.mlir: registers permuted (converted before its tmem_store there)",
			tensor: "#ttg.linear<{register = [[0, 64], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>",
			shape:  []int{128, 128}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
			bitwidth: 32, warps: 4, want: false,
		},
		{
			name:   "row-major across lanes",
			tensor: "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>",
			shape:  []int{128, 128}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
			bitwidth: 32, warps: 8, want: false,
		},
		{
			name:   "order [1, 0]: the same function as order [0, 1] here",
			tensor: "#ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>",
			shape:  []int{128, 128}, mem: "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
			bitwidth: 32, warps: 4, want: true,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := tmemCompatible(c.tensor, c.shape, c.mem, c.bitwidth, c.warps)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("IsTMemCompatible = %v, want %v", got, c.want)
			}
		})
	}
}

func tmemCompatible(tensor string, shape []int, mem string, bitwidth, warps int) (bool, error) {
	e, _, err := Parse(tensor, nil)
	if err != nil {
		return false, err
	}
	m, _, err := Parse(mem, nil)
	if err != nil {
		return false, err
	}
	d, ok := e.(Distributed)
	tm, ok2 := m.(*TensorMemory)
	if !ok || !ok2 {
		return false, fmt.Errorf("%s is not distributed or %s not tensor memory", tensor, mem)
	}
	return IsTMemCompatible(d, shape, tm, shape, bitwidth, warps)
}

// The 16-row atoms tile as Triton's getTileLayout draws them, and every
// atom's layout covers the buffer exactly once per warp group.
func TestTMemLdStLayouts(t *testing.T) {
	tile, err := TMemTileLayout(TMem16x256b, false, true)
	if err != nil {
		t.Fatal(err)
	}
	// register: col 1, row 8; lane: col 2, 4, row 1, 2, 4; warp: row 32, 64.
	want := map[string][][]int{
		"register": {{0, 1}, {8, 0}},
		"lane":     {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
		"warp":     {{32, 0}, {64, 0}},
	}
	for in, bases := range want {
		if got := tile.Bases(in); fmt.Sprint(got) != fmt.Sprint(bases) {
			t.Errorf("16x256b %s bases = %v, want %v", in, got, bases)
		}
	}
	mem := &TensorMemory{BlockM: 128, BlockN: 128, ColStride: 1}
	for _, atom := range []TMemAccessAtom{TMem32x32b, TMem16x64b, TMem16x128b, TMem16x256b} {
		for _, warps := range []int{4, 8} {
			l, ok, err := TMemLdStLayout(mem, []int{128, 128}, 32, atom, warps)
			if err != nil || !ok {
				t.Fatalf("%v, %d warps: ok=%v err=%v", atom, warps, ok, err)
			}
			// 128x128 f32 over 32*warps threads: every element once.
			if !l.IsSurjective() || !l.IsInjective() || l.TotalInDimSize() != 128*128 {
				t.Errorf("%v, %d warps: not a bijection onto the buffer:\n%s", atom, warps, l)
			}
		}
	}
	if _, _, err := TMemLdStLayout(mem, []int{128, 128}, 32, TMem16x32bx2, 4); err == nil {
		t.Error("16x32bx2 requested explicitly: no error")
	}
	if _, _, err := TMemLdStLayout(mem, []int{128, 128}, 32, TMem32x32b, 2); err == nil {
		t.Error("2 warps: no error")
	}
}

package llvmemit_test

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
	"github.com/layoutopt/layoutopt/passes"
)

// scratchKernel uses global scratch in the kernel (512 bytes at offset 0)
// and in a device function it calls (512 bytes, at the call's offset 512):
// each program writes i+pid to its own scratch, the helper three times
// that to its own, and the program's row of out gets what came back.
const scratchKernel = `#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @helper(%v: tensor<128xi32, #b>) -> tensor<128xi32, #b> attributes {noinline = false} {
    %s = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 512 : i32} : !tt.ptr<i32>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %sp = tt.splat %s : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %a = tt.addptr %sp, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %c3 = arith.constant dense<3> : tensor<128xi32, #b>
    %w = arith.muli %v, %c3 : tensor<128xi32, #b>
    tt.store %a, %w : tensor<128x!tt.ptr<i32>, #b>
    %x = tt.load %a : tensor<128x!tt.ptr<i32>, #b>
    tt.return %x : tensor<128xi32, #b>
  }
  tt.func public @k(%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %s = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 512 : i32} : !tt.ptr<i32>
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %pid : i32 -> tensor<128xi32, #b>
    %v = arith.addi %r, %ps : tensor<128xi32, #b>
    %sp = tt.splat %s : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %a = tt.addptr %sp, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    tt.store %a, %v : tensor<128x!tt.ptr<i32>, #b>
    %y = tt.load %a : tensor<128x!tt.ptr<i32>, #b>
    %z = tt.call @helper(%y) : (tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %c128 = arith.constant 128 : i32
    %row = arith.muli %pid, %c128 : i32
    %o0 = tt.addptr %out, %row : !tt.ptr<i32>, i32
    %op = tt.splat %o0 : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %o = tt.addptr %op, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    tt.store %o, %z : tensor<128x!tt.ptr<i32>, #b>
    tt.return
  }
}
`

// TestGlobalScratch: ttg.global_scratch_alloc in a kernel and in a device
// function, over four programs, lowered and simulated program by program
// on one buffer of ttg.global_scratch_memory_size (1024) bytes a program,
// as the launcher passes it, against the interpreter: the outputs and
// every byte of the scratch buffer agree, each program's bytes at its own
// place (i+pid at 1024·pid, 3·(i+pid) at 1024·pid+512). Kernel metadata
// carries the size and alignment.
func TestGlobalScratch(t *testing.T) {
	const programs, size = 4, 1024
	m, diags := ir.ParseString(scratchKernel, ir.ParseConfig{Filename: "scratch.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if d, err := passes.AllocateGlobalScratch(m); err != nil {
		t.Fatalf("%v %v", d, err)
	}
	if got, _ := m.Op.IntAttr("ttg.global_scratch_memory_size"); got != size {
		t.Fatalf("ttg.global_scratch_memory_size %d, want %d", got, size)
	}
	// The interpreter.
	out := zeros(t, ir.I32, programs*128)
	mem := &interp.BufferMemory{}
	mc := interp.NewMachine(m, mem)
	fn := mc.Func("k")
	vals, err := interp.BindArgs(fn, []interp.Arg{interp.BufArg(out)}, mem)
	if err != nil {
		t.Fatal(err)
	}
	if err := mc.Launch("k", vals, [3]int{programs, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if len(mem.Bufs) != 2 || len(mem.Bufs[1].Data) != programs*size {
		t.Fatalf("the interpreter's buffers: %d, the scratch one of %d bytes, want %d", len(mem.Bufs), len(mem.Bufs[len(mem.Bufs)-1].Data), programs*size)
	}
	scratch := mem.Bufs[1].Data
	word := func(b []byte, i int) int32 { return int32(binary.LittleEndian.Uint32(b[4*i:])) }
	for p := range programs {
		for i := range 128 {
			if g, w := word(scratch, p*size/4+i), int32(i+p); g != w {
				t.Fatalf("interpreter: program %d's scratch word %d = %d, want %d", p, i, g, w)
			}
			if g, w := word(scratch, (p*size+512)/4+i), int32(3*(i+p)); g != w {
				t.Fatalf("interpreter: program %d's helper scratch word %d = %d, want %d", p, i, g, w)
			}
			if g, w := out.Int(p*128+i), int64(3*(i+p)); g != w {
				t.Fatalf("interpreter: out[%d] = %d, want %d", p*128+i, g, w)
			}
		}
	}
	// The lowering, simulated program by program on one global memory:
	// out at 0, the scratch buffer after it.
	res, err := llvmemit.Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	if k := res.Kernels[0]; k.GlobalScratchSize != size || k.GlobalScratchAlign != 16 {
		t.Fatalf("kernel metadata: global scratch %d bytes, aligned %d; want %d, 16", k.GlobalScratchSize, k.GlobalScratchAlign, size)
	}
	ll := res.Module.String()
	for _, want := range []string{"@llvm.nvvm.read.ptx.sreg.nctaid.y()", ", 1024\n", ", 512\n"} {
		if !strings.Contains(ll, want) {
			t.Fatalf("no %q in\n%s", want, ll)
		}
	}
	glob := make([]byte, programs*128*4+programs*size)
	base := uint64(programs * 128 * 4)
	var kernel = res.Module.Funcs[0]
	for _, f := range res.Module.Funcs {
		if f.Name() == "k" {
			kernel = f
		}
	}
	for p := range programs {
		s := newSim(128, glob)
		s.ctaid, s.nctaid = [3]uint64{uint64(p)}, [3]uint64{programs, 1, 1}
		s.run(kernel, []uint64{0, base, 0})
	}
	if !bytes.Equal(glob[:base], out.Data) {
		t.Fatal("the lowered kernel's out differs from the interpreter's")
	}
	if !bytes.Equal(glob[base:], scratch) {
		t.Fatal("the lowered kernel's scratch buffer differs from the interpreter's")
	}
}

// TestGlobalScratchTooBig: an absurd ttg.global_scratch_memory_size is an
// error of the interpreter's launch, not an allocation that exhausts the
// host.
func TestGlobalScratchTooBig(t *testing.T) {
	m, diags := ir.ParseString(scratchKernel, ir.ParseConfig{Filename: "scratch.mlir"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if d, err := passes.AllocateGlobalScratch(m); err != nil {
		t.Fatalf("%v %v", d, err)
	}
	m.Op.SetAttr("ttg.global_scratch_memory_size", ir.Int(1<<40, ir.I32))
	err := interp.Run(m, "k", []interp.Arg{interp.BufArg(zeros(t, ir.I32, 4*128))}, [3]int{4, 1, 1})
	if err == nil || !strings.Contains(err.Error(), "more than the interpreter's") {
		t.Fatalf("error %v", err)
	}
}

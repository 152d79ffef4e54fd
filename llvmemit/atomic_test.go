package llvmemit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/llvmemit"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// TestSimAtomics checks tt.atomic_rmw and tt.atomic_cas on layouts that
// broadcast elements over warps, lanes and registers, and on a scalar,
// with their results read (shared through scratch memory), against the
// interpreter: every element's atomic happens once, and every holder sees
// its old value.
func TestSimAtomics(t *testing.T) {
	body := `
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #w>
    %cp = tt.splat %in : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #w>
    %ca = tt.addptr %cp, %r : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %one = arith.constant dense<3> : tensor<64xi32, #w>
    %old = tt.atomic_rmw add, acq_rel, gpu, %ca, %one : (tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>) -> tensor<64xi32, #w>
    %two = arith.constant dense<2> : tensor<64xi32, #w>
    %rem = arith.remsi %r, %two : tensor<64xi32, #w>
    %x = tt.load %ca : tensor<64x!tt.ptr<i32>, #w>
    %zero = arith.constant dense<0> : tensor<64xi32, #w>
    %odd = arith.cmpi ne, %rem, %zero : tensor<64xi32, #w>
    %cmp = arith.select %odd, %r, %x : tensor<64xi1, #w>, tensor<64xi32, #w>
    %c64 = arith.constant 64 : i32
    %in2 = tt.addptr %in, %c64 : !tt.ptr<i32>, i32
    %cp2 = tt.splat %in2 : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #w>
    %ca2 = tt.addptr %cp2, %r : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %y = tt.load %ca2 : tensor<64x!tt.ptr<i32>, #w>
    %cas = tt.atomic_cas acq_rel, gpu, %ca2, %y, %r : (tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>, tensor<64xi32, #w>) -> tensor<64xi32, #w>
    %cas2 = tt.atomic_cas acq_rel, gpu, %ca, %cmp, %r : (tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>, tensor<64xi32, #w>) -> tensor<64xi32, #w>
    %r2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #d>
    %c128 = arith.constant 128 : i32
    %in3 = tt.addptr %in, %c128 : !tt.ptr<i32>, i32
    %dp = tt.splat %in3 : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>, #d>
    %da = tt.addptr %dp, %r2 : tensor<2x!tt.ptr<i32>, #d>, tensor<2xi32, #d>
    %five = arith.constant dense<5> : tensor<2xi32, #d>
    %dmax = tt.atomic_rmw max, acq_rel, gpu, %da, %five : (tensor<2x!tt.ptr<i32>, #d>, tensor<2xi32, #d>) -> tensor<2xi32, #d>
    %c7 = arith.constant 7 : i32
    %s = tt.atomic_rmw add, acq_rel, gpu, %in3, %c7 : (!tt.ptr<i32>, i32) -> i32
    %ss = tt.splat %s : i32 -> tensor<64xi32, #w>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #w>
    %oa = tt.addptr %op, %r : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %v0 = arith.addi %old, %ss : tensor<64xi32, #w>
    tt.store %oa, %v0 : tensor<64x!tt.ptr<i32>, #w>
    %c64t = arith.constant dense<64> : tensor<64xi32, #w>
    %oc = tt.addptr %oa, %c64t : tensor<64x!tt.ptr<i32>, #w>, tensor<64xi32, #w>
    %v1 = arith.addi %cas, %cas2 : tensor<64xi32, #w>
    tt.store %oc, %v1 : tensor<64x!tt.ptr<i32>, #w>
    %o3 = tt.addptr %out, %c128 : !tt.ptr<i32>, i32
    %dq = tt.splat %o3 : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>, #d>
    %dqa = tt.addptr %dq, %r2 : tensor<2x!tt.ptr<i32>, #d>, tensor<2xi32, #d>
    tt.store %dqa, %dmax : tensor<2x!tt.ptr<i32>, #d>`
	src := module(4, `#w = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#d = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
`, body)
	in := filled(t, ir.I32, 130, 1)
	in.SetInt(129, 9) // max(9, 5) keeps 9; element 128 is below 5
	crossCheck(t, src, 4, []*interp.Buffer{in, zeros(t, ir.I32, 130)})
}

// TestSimAtomicForms checks the forms of fadd that cover several elements
// per instruction (Triton's vector atomics on sm_90, f16x2 pairs below
// it), red for relaxed and release atomics whose result is unused, and
// the scalar forms a mask or a layout leave, against the interpreter.
func TestSimAtomicForms(t *testing.T) {
	as, llc := llvmTools(t)
	cases := []struct {
		name, target, elem string
		perThread, n       int
		sem, mask          string
		used               bool
		want               string
	}{
		{"v4-f32", "cuda:90", "f32", 4, 512, "acq_rel", "", true, "atom.acq_rel.gpu.global.add.v4.f32 {"},
		{"red-v4-f32", "cuda:90", "f32", 4, 512, "relaxed", "", false, "red.relaxed.gpu.global.add.v4.f32 ["},
		{"red-f32-sm80", "cuda:80", "f32", 4, 512, "release", "", false, "red.release.gpu.global.add.f32 ["},
		{"acq_rel-unused-f32", "cuda:80", "f32", 4, 512, "acq_rel", "", false, "atom.acq_rel.gpu.global.add.f32 $0"},
		{"v2-f32-masked", "cuda:90", "f32", 4, 256, "acq_rel", "pairs", true, "atom.acq_rel.gpu.global.add.v2.f32 {"},
		{"scalar-f32-masked", "cuda:90", "f32", 4, 256, "acq_rel", "ragged", true, "atom.acq_rel.gpu.global.add.f32 $0"},
		{"f16x2", "cuda:80", "f16", 2, 256, "acq_rel", "", true, "atom.acq_rel.gpu.global.add.noftz.f16x2 $0"},
		{"f16", "cuda:80", "f16", 1, 128, "acq_rel", "", true, "atom.acq_rel.gpu.global.add.noftz.f16 $0"},
		{"v8-f16", "cuda:90", "f16", 8, 1024, "acq_rel", "", true, "atom.acq_rel.gpu.global.add.noftz.v8.f16 {"},
		{"v2-bf16", "cuda:90", "bf16", 2, 256, "relaxed", "", true, "atom.relaxed.gpu.global.add.noftz.v2.bf16 {"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lay := fmt.Sprintf("#b = #ttg.blocked<{sizePerThread = [%d], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n", c.perThread)
			ty := func(e string) string { return fmt.Sprintf("tensor<%dx%s, #b>", c.n, e) }
			pt := ty("!tt.ptr<" + c.elem + ">")
			body := inOutBody(c.n, c.elem, c.mask) + fmt.Sprintf(`
    %%x = tt.load %%ja : %s`, pt)
			mask := ""
			if c.mask != "" {
				mask = ", %m"
			}
			maskTy := ""
			if mask != "" {
				maskTy = ", " + ty("i1")
			}
			body += fmt.Sprintf(`
    %%old = tt.atomic_rmw fadd, %s, gpu, %%ia, %%x%s : (%s, %s%s) -> %s`, c.sem, mask, pt, ty(c.elem), maskTy, ty(c.elem))
			if c.used {
				body += fmt.Sprintf(`
    tt.store %%ja, %%old : %s`, pt)
			}
			src := lay + fmt.Sprintf(`
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = %q, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%%in: !tt.ptr<%s> {tt.divisibility = 16 : i32}, %%out: !tt.ptr<%s> {tt.divisibility = 16 : i32}, %%lim: i32) {`, c.target, c.elem, c.elem) + body + `
    tt.return
  }
}
`
			res := lowerSource(t, src, c.name+".mlir", true)
			if ll := res.Module.String(); !strings.Contains(ll, c.want) {
				t.Fatalf("no %q in the LLVM IR:\n%s", c.want, ll)
			}
			// llc passes the inline PTX through: its operands must compile.
			ptx, err := compile(t, as, llc, res.Module.String())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(ptx), strings.Fields(c.want)[0]) {
				t.Errorf("no %s in the PTX", strings.Fields(c.want)[0])
			}
			vector := strings.Contains(c.want, ".v")
			if res.Hopper != vector || vector && res.PTXVersion != llvmemit.VectorAtomicPTXVersion {
				t.Errorf("Hopper %v, PTX %q; want Hopper %v with PTX %s for vector atomics", res.Hopper, res.PTXVersion, vector, llvmemit.VectorAtomicPTXVersion)
			}
			et := ir.Type(&ir.FloatType{Kind: c.elem})
			crossCheckArgs(t, src, 4, []*interp.Buffer{filled(t, et, c.n, 1), filled(t, et, c.n, 2)}, []int64{int64(c.n) - 37})
		})
	}
}

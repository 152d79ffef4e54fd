package llvmemit_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
)

// TestLinkLibdevice links libdevice into test/llvmemit/libdevice.mlir's
// kernel as layout-translate does, optimizes and compiles it: no libdevice
// function is left to call (all inlined), no __nvvm_reflect query is left,
// the flush-to-zero paths were taken (nvvm-reflect-ftz), and ptxas, where
// there is one, assembles the PTX. It skips without libdevice.10.bc
// ($LIBDEVICE; .ci/run unpacks Debian's).
func TestLinkLibdevice(t *testing.T) {
	_, llc := llvmTools(t)
	lib, err := llvmemit.FindLibdevice(os.Getenv)
	if err != nil {
		t.Skip(err)
	}
	link, err := llvmemit.FindLLVMLink(os.Getenv)
	if err != nil {
		t.Skip(err)
	}
	opt, err := llvmemit.FindOpt(os.Getenv)
	if err != nil {
		t.Skip(err)
	}
	res, err := lower(t, filepath.Join("..", "test", "llvmemit", "libdevice.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Libdevice {
		t.Fatal("Result.Libdevice is false for a kernel calling __nv_tanhf")
	}
	ctx := context.Background()
	ll, err := llvmemit.LinkLibdevice(ctx, link, opt, lib, []byte(res.Module.String()), res.KernelNames())
	if err != nil {
		t.Fatal(err)
	}
	if ll, err = llvmemit.Optimize(ctx, opt, ll); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"call float @__nv_", "__nvvm_reflect"} {
		if strings.Contains(string(ll), s) {
			t.Errorf("the linked, optimized module still has %q", s)
		}
	}
	if !strings.Contains(string(ll), ".ftz.") {
		t.Error("no flush-to-zero intrinsic: nvvm-reflect-ftz was not honoured")
	}
	ptx, err := llvmemit.CompilePTX(ctx, llc, ll)
	if err != nil {
		t.Fatal(err)
	}
	c := newPTXAS(t)
	writePTX(t, c, "libdevice", "", res, ptx)
	c.wait(t)
}

// TestExternErrors checks the tt.extern_elementwise calls libdevice cannot
// serve: a bf16 operand, and one symbol called with two signatures.
func TestExternErrors(t *testing.T) {
	head := `#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: f32, %h: bf16, %d: f64) {
`
	for _, c := range []struct{ body, want string }{
		{`%v = tt.extern_elementwise %h {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_expf"} : (bf16) -> f32`,
			"operand 0: libdevice has no functions of bf16"},
		{`%v = tt.extern_elementwise %x {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_exp"} : (f32) -> f32
    %w = tt.extern_elementwise %d {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_exp"} : (f64) -> f64`,
			"@__nv_exp is called as double (double) and as float (float)"},
	} {
		m, diags := ir.ParseString(head+"    "+c.body+"\n    tt.return\n  }\n}\n", ir.ParseConfig{Filename: "extern.mlir"})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, err := llvmemit.Emit(m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.body, err, c.want)
		}
	}
}

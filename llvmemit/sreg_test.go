package llvmemit_test

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
)

// TestSregRange: the reads of %tid.x and %ctaid.x/y/z carry !range with
// CUDA's limits, as newer LLVMs (Triton's) attach them, so that O3 can
// widen a non-negative program offset with zext (mul.wide.u32) as
// Triton's code does.
func TestSregRange(t *testing.T) {
	m := ir.MustParse(`module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>) {
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %z = tt.get_program_id z : i32
    %n = tt.get_num_programs x : i32
    %a = arith.addi %x, %y : i32
    %b = arith.addi %a, %z : i32
    %c = arith.addi %b, %n : i32
    tt.store %p, %c : !tt.ptr<i32>
    tt.return
  }
}`)
	res, err := llvmemit.Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	ll := res.Module.String()
	rng := map[string]string{}
	for _, line := range strings.Split(ll, "\n") {
		if i := strings.Index(line, "!range "); i >= 0 && strings.Contains(line, "@llvm.nvvm.read.ptx.sreg.") {
			reg := line[strings.Index(line, "sreg.")+5 : strings.Index(line, "()")]
			rng[reg] = strings.TrimSpace(line[i+len("!range "):])
		}
	}
	node := func(id string) string { // "!3" -> "!{i32 0, i32 u0xFFFF}"
		for _, line := range strings.Split(ll, "\n") {
			if v, ok := strings.CutPrefix(line, id+" = "); ok {
				return v
			}
		}
		return "?"
	}
	// (llir writes 2³¹-1 and 65535 in LLVM's unsigned hexadecimal form.)
	for reg, want := range map[string]string{"tid.x": "!{i32 0, i32 1024}", "ctaid.x": "!{i32 0, i32 u0x7FFFFFFF}",
		"ctaid.y": "!{i32 0, i32 u0xFFFF}", "ctaid.z": "!{i32 0, i32 u0xFFFF}"} {
		if got := node(rng[reg]); got != want {
			t.Errorf("%s: !range %s = %s, want %s", reg, rng[reg], got, want)
		}
	}
	if _, ok := rng["nctaid.x"]; ok {
		t.Errorf("nctaid.x has a !range")
	}
}

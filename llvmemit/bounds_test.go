package llvmemit_test

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
)

const boundsSrc = `module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @a(%x: !tt.ptr<f32>) {
    %c = arith.constant 1.0 : f32
    tt.store %x, %c : !tt.ptr<f32>
    tt.return
  }
  tt.func public @b(%x: !tt.ptr<f32>) {
    tt.return
  }
}
`

func emitBounds(t *testing.T) *llvmemit.Result {
	t.Helper()
	m, d := ir.Parse([]byte(boundsSrc), ir.ParseConfig{Filename: "bounds.ttgir"})
	if d.HasErrors() {
		t.Fatal(d)
	}
	res, err := llvmemit.Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSetLaunchBounds(t *testing.T) {
	res := emitBounds(t)
	if err := res.SetLaunchBounds(llvmemit.LaunchBounds{MinCTAsPerSM: 2, MaxRegs: 96}); err != nil {
		t.Fatal(err)
	}
	ll := res.Module.String()
	for _, k := range []string{"a", "b"} {
		for _, want := range []string{`@` + k + `, !"minctasm", i32 2}`, `@` + k + `, !"maxnreg", i32 96}`} {
			if !strings.Contains(ll, want) {
				t.Errorf("no %s in\n%s", want, ll)
			}
		}
	}
	as, llc := llvmTools(t)
	ptx, err := compile(t, as, llc, ll)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".minnctapersm 2", ".maxnreg 96"} {
		if n := strings.Count(string(ptx), want); n != 2 {
			t.Errorf("%d of %q in the PTX, want one per kernel:\n%s", n, want, ptx)
		}
	}

	// Only what is asked for is emitted.
	res = emitBounds(t)
	if err := res.SetLaunchBounds(llvmemit.LaunchBounds{MinCTAsPerSM: 1}); err != nil {
		t.Fatal(err)
	}
	if ll := res.Module.String(); strings.Count(ll, `!"minctasm", i32 1}`) != 2 || strings.Contains(ll, "maxnreg") {
		t.Errorf("want minctasm 1 for both kernels and no maxnreg:\n%s", ll)
	}
	res = emitBounds(t)
	before := res.Module.String()
	if err := res.SetLaunchBounds(llvmemit.LaunchBounds{}); err != nil {
		t.Fatal(err)
	}
	if res.Module.String() != before {
		t.Error("the zero LaunchBounds changed the module")
	}
}

func TestSetLaunchBoundsErrors(t *testing.T) {
	for _, c := range []struct {
		b    llvmemit.LaunchBounds
		want string
	}{
		{llvmemit.LaunchBounds{MaxRegs: 256}, "maxnreg 256: give 1 to 255"},
		{llvmemit.LaunchBounds{MaxRegs: -1}, "maxnreg -1"},
		{llvmemit.LaunchBounds{MinCTAsPerSM: -2}, "min-ctas-per-sm -2"},
		// 17 programs of 128 threads: 2176 threads.
		{llvmemit.LaunchBounds{MinCTAsPerSM: 17}, "17 programs of kernel a's 128 threads are 2176 threads, more than the 2048"},
	} {
		res := emitBounds(t)
		before := res.Module.String()
		err := res.SetLaunchBounds(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.b, err, c.want)
		}
		if res.Module.String() != before {
			t.Errorf("%+v: the module changed on error", c.b)
		}
	}
	if err := emitBounds(t).SetLaunchBounds(llvmemit.LaunchBounds{MinCTAsPerSM: 16}); err != nil {
		t.Errorf("16 programs of 128 threads: %v", err)
	}
}

func TestSetKernelLaunchBounds(t *testing.T) {
	res := emitBounds(t)
	if err := res.SetKernelLaunchBounds("b", llvmemit.LaunchBounds{MinCTAsPerSM: 1}); err != nil {
		t.Fatal(err)
	}
	// Set again: the second replaces the first.
	if err := res.SetKernelLaunchBounds("b", llvmemit.LaunchBounds{MinCTAsPerSM: 3, MaxRegs: 40}); err != nil {
		t.Fatal(err)
	}
	ll := res.Module.String()
	if strings.Contains(ll, `@a, !"minctasm"`) || strings.Count(ll, `!"minctasm"`) != 1 || !strings.Contains(ll, `@b, !"minctasm", i32 3}`) ||
		!strings.Contains(ll, `@b, !"maxnreg", i32 40}`) {
		t.Errorf("want only b's minctasm 3 and maxnreg 40:\n%s", ll)
	}
	as, llc := llvmTools(t)
	if _, err := compile(t, as, llc, ll); err != nil {
		t.Fatal(err)
	}
	if err := res.SetKernelLaunchBounds("c", llvmemit.LaunchBounds{MinCTAsPerSM: 1}); err == nil || !strings.Contains(err.Error(), "no kernel c") {
		t.Errorf("kernel c: %v", err)
	}
	if err := res.SetKernelLaunchBounds("a", llvmemit.LaunchBounds{MinCTAsPerSM: 17}); err == nil {
		t.Error("17 programs of 128 threads accepted")
	}
}

func TestDecideLaunchBounds(t *testing.T) {
	const head = `module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
`
	for _, c := range []struct {
		name, body string
		want       int
		why        string
	}{
		{"no program id", `tt.func public @k(%x: !tt.ptr<f32>) {
    %c = arith.constant 1.0 : f32
    tt.store %x, %c : !tt.ptr<f32>
    tt.return
  }`, 1, "it reads no program id"},
		{"program id", `tt.func public @k(%x: !tt.ptr<f32>) {
    %p = tt.get_program_id y : i32
    %q = tt.addptr %x, %p : !tt.ptr<f32>, i32
    %c = arith.constant 1.0 : f32
    tt.store %q, %c : !tt.ptr<f32>
    tt.return
  }`, 0, "it reads tt.get_program_id"},
		{"number of programs", `tt.func public @k(%x: !tt.ptr<i32>) {
    %n = tt.get_num_programs x : i32
    tt.store %x, %n : !tt.ptr<i32>
    tt.return
  }`, 0, "it reads tt.get_num_programs"},
		{"atomic counter", `tt.func public @k(%x: !tt.ptr<i32>) {
    %c = arith.constant 1 : i32
    %t = arith.constant true
    %o = tt.atomic_rmw add, acq_rel, gpu, %x, %c, %t : (!tt.ptr<i32>, i32, i1) -> i32
    tt.return
  }`, 0, "it has tt.atomic_rmw"},
		{"program id in a callee", `tt.func private @pid() -> i32 {
    %p = tt.get_program_id x : i32
    tt.return %p : i32
  }
  tt.func public @k(%x: !tt.ptr<i32>) {
    %p = tt.call @pid() : () -> i32
    tt.store %x, %p : !tt.ptr<i32>
    tt.return
  }`, 0, "it reads tt.get_program_id"},
		{"dot", `tt.func public @k(%x: !tt.ptr<f32>) {
    %a = arith.constant dense<1.0> : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = arith.constant dense<1.0> : tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %z = arith.constant dense<0.0> : tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %z : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    tt.return
  }`, 0, "it has tt.dot"},
	} {
		src := head + "  " + c.body + "\n}\n"
		if c.name == "dot" {
			src = "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n" + src
		}
		m, d := ir.Parse([]byte(src), ir.ParseConfig{Filename: c.name})
		if d.HasErrors() {
			t.Fatalf("%s: %v", c.name, d)
		}
		var k *ir.Operation
		for _, op := range m.Body().Ops() {
			if n, ok := op.Attr("sym_name").(*ir.StringAttr); ok && n.Value == "k" {
				k = op
			}
		}
		got := llvmemit.DecideLaunchBounds(k)
		if got.Bounds.MinCTAsPerSM != c.want || !strings.Contains(got.Why, c.why) {
			t.Errorf("%s: %+v (%s), want .minnctapersm %d because %q", c.name, got, got.Remark(), c.want, c.why)
		}
		if c.name == "program id in a callee" {
			if p := llvmemit.DecideLaunchBounds(m.Body().Ops()[0]); p.Bounds.MinCTAsPerSM != 0 || p.Why != "not a kernel" {
				t.Errorf("the private callee: %+v", p)
			}
		}
	}
}

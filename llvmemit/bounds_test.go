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

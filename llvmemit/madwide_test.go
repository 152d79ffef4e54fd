package llvmemit_test

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/llvmemit"
)

func TestFuseMadWide(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		fused          int
	}{
		{"param base", `
.visible .entry k(
	.param .u64 k_param_0
)
{
	ld.param.u64 	%rd1, [k_param_0];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.f32 	%f1, [%rd4];
	ret;
}`, `
.visible .entry k(
	.param .u64 k_param_0
)
{
	ld.param.u64 	%rd1, [k_param_0];
	mov.u32 	%r1, %tid.x;
	mad.wide.u32 	%rd4, %r1, 4, %rd1;
	ld.global.f32 	%f1, [%rd4];
	ret;
}`, 1},
		{"signed, product first, register factor", `
.entry k()
{
	mul.wide.s32 	%rd3, %r1, %r2;
	add.s64 	%rd4, %rd3, %rd1;
}`, `
.entry k()
{
	mad.wide.s32 	%rd4, %r1, %r2, %rd1;
}`, 1},
		{"a product two adds read stays, as in Triton's PTX", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	add.s64 	%rd5, %rd2, %rd3;
}`, "", 0},
		{"a product something else reads", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.f32 	%f1, [%rd3];
}`, "", 0},
		{"a factor written between two adds", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	mov.u32 	%r1, 0;
	add.s64 	%rd5, %rd2, %rd3;
}`, "", 0},
		{"a factor written between", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	add.s32 	%r1, %r1, 1;
	add.s64 	%rd4, %rd1, %rd3;
}`, "", 0},
		{"a factor in a vector destination between", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, %r2;
	ld.global.v2.u32 	{%r7, %r2}, [%rd9];
	add.s64 	%rd4, %rd1, %rd3;
}`, "", 0},
		{"a factor read between, and a store of it", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	add.s32 	%r5, %r1, 1;
	st.global.u32 	[%rd9], %r1;
	add.s64 	%rd4, %rd1, %rd3;
}`, `
.entry k()
{
	add.s32 	%r5, %r1, 1;
	st.global.u32 	[%rd9], %r1;
	mad.wide.u32 	%rd4, %r1, 4, %rd1;
}`, 1},
		{"another block", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
$L__BB0_1:
	add.s64 	%rd4, %rd1, %rd3;
}`, "", 0},
		{"a guarded branch between", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	@%p1 bra.uni 	$L__BB0_2;
	add.s64 	%rd4, %rd1, %rd3;
}`, "", 0},
		{"registers are per function", `
.entry k()
{
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
}
.visible .func f()
{
	add.s64 	%rd5, %rd3, %rd3;
}`, `
.entry k()
{
	mad.wide.u32 	%rd4, %r1, 4, %rd1;
}
.visible .func f()
{
	add.s64 	%rd5, %rd3, %rd3;
}`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, n := llvmemit.FuseMadWide([]byte(c.in))
			want := c.want
			if want == "" {
				want = c.in
			}
			if string(got) != want || n != c.fused {
				t.Errorf("fused %d, want %d; got\n%s\nwant\n%s", n, c.fused, got, want)
			}
		})
	}
}

// TestFuseMadWideCompiled fuses llc's PTX of a kernel: every fused pair's
// product register is gone and the mad reads what the mul and add did.
func TestFuseMadWideCompiled(t *testing.T) {
	as, llc := llvmTools(t)
	res, err := lower(t, "../passes/testdata/prepost/reshape_16x64_sm80_w2.post.ttgir")
	if err != nil {
		t.Fatal(err)
	}
	ptx, _, err := compileResult(t, as, llc, res)
	if err != nil {
		t.Fatal(err)
	}
	got, n := llvmemit.FuseMadWide(ptx)
	if n == 0 {
		t.Fatalf("nothing fused in\n%s", ptx)
	}
	if strings.Count(string(got), "mad.wide.") != strings.Count(string(ptx), "mad.wide.")+n {
		t.Errorf("%d fused, but the mad.wide count moved by another number", n)
	}
	if strings.Count(string(got), "mul.wide.") != strings.Count(string(ptx), "mul.wide.")-n {
		t.Errorf("%d fused, but the mul.wide count moved by another number", n)
	}
	if again, m := llvmemit.FuseMadWide(got); m != 0 || string(again) != string(got) {
		t.Errorf("a second pass fused %d more", m)
	}
}

// FuzzFuseMadWide: any text is fused without a panic, and fusing is
// idempotent and never changes the count of adds plus mads.
func FuzzFuseMadWide(f *testing.F) {
	f.Add(".entry k()\n{\n\tmul.wide.u32 \t%rd3, %r1, 4;\n\tadd.s64 \t%rd4, %rd1, %rd3;\n}")
	f.Add(".entry k()\n{\n\tmul.wide.s32 \t%rd3, %r1, %r2;\n\t@%p1 bra.uni \t$L__BB0_2;\n\tadd.s64 \t%rd4, %rd3, %rd1;\n}")
	f.Fuzz(func(t *testing.T, ptx string) {
		got, n := llvmemit.FuseMadWide([]byte(ptx))
		again, m := llvmemit.FuseMadWide(got)
		if m != 0 || string(again) != string(got) {
			t.Fatalf("not idempotent: %d more fused", m)
		}
		count := func(s, sub string) int { return strings.Count(s, sub) }
		if n > 0 && count(string(got), "mad.wide.")-count(ptx, "mad.wide.") != n {
			t.Fatalf("%d fused, mad.wide count moved by %d", n, count(string(got), "mad.wide.")-count(ptx, "mad.wide."))
		}
	})
}

package ir

import (
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/attr"
)

const irSrc = blockedDef + `module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %s : tensor<128xi32, #blocked>
    %x = arith.addi %r, %r : tensor<128xi32, #blocked>
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ptrs, %x : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a, %m : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %a, %v, %m : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
`

func mustParse(t *testing.T, src string) *Module {
	t.Helper()
	m, d := ParseString(src, ParseConfig{Filename: "t.mlir"})
	if d.HasErrors() {
		t.Fatal(d)
	}
	return m
}

// findOp returns the first op called name.
func findOp(m *Module, name string) *Operation {
	var found *Operation
	m.Walk(func(op *Operation) WalkResult {
		if op.Name() == name {
			found = op
			return Interrupt
		}
		return Advance
	})
	return found
}

func TestUseLists(t *testing.T) {
	m := mustParse(t, irSrc)
	r := findOp(m, "tt.make_range").Result(0)
	if got := r.NumUses(); got != 3 {
		t.Fatalf("make_range uses = %d, want 3", got)
	}
	s := findOp(m, "tt.splat").Result(0)
	if !s.HasOneUse() || s.Users()[0].Name() != "arith.cmpi" {
		t.Fatalf("splat uses: %v", s.Uses())
	}
	add := findOp(m, "arith.addi")
	add.Result(0).ReplaceAllUsesWith(r)
	if !add.Result(0).UseEmpty() || r.NumUses() != 4 {
		t.Fatalf("after RAUW: addi uses %d, range uses %d", add.Result(0).NumUses(), r.NumUses())
	}
	if err := add.Erase(); err != nil {
		t.Fatal(err)
	}
	if got := r.NumUses(); got != 2 {
		t.Fatalf("range uses after erasing addi = %d, want 2 (cmpi, addptr)", got)
	}
	if err := findOp(m, "tt.make_range").Erase(); err == nil {
		t.Fatal("erasing an op with uses succeeded")
	}
	if d := Verify(m); len(d) > 0 {
		t.Fatal(d)
	}
	if out := keep(m); !strings.Contains(out, "%a = tt.addptr %ptrs, %r :") || strings.Contains(out, "arith.addi") {
		t.Errorf("unexpected output:\n%s", out)
	}
}

func TestBlockListEditing(t *testing.T) {
	b := NewBlock(I32)
	a := b.Arg(0)
	op1 := NewOperation("arith.addi", []*Value{a, a}, []Type{I32}, nil, 0)
	op2 := NewOperation("arith.muli", []*Value{op1.Result(0), a}, []Type{I32}, nil, 0)
	op3 := NewOperation("arith.subi", []*Value{op2.Result(0), a}, []Type{I32}, nil, 0)
	b.Append(op1)
	b.Append(op3)
	b.InsertBefore(op3, op2)
	names := func() string {
		var s []string
		for o := b.First(); o != nil; o = o.Next() {
			s = append(s, o.Name())
		}
		return strings.Join(s, ",")
	}
	if got := names(); got != "arith.addi,arith.muli,arith.subi" {
		t.Fatal(got)
	}
	op1.MoveAfter(op3)
	if got := names(); got != "arith.muli,arith.subi,arith.addi" || b.Last() != op1 || b.First() != op2 {
		t.Fatal(got)
	}
	op3.Remove()
	if got := names(); got != "arith.muli,arith.addi" || op3.Block() != nil || op2.Next() != op1 || op1.Prev() != op2 {
		t.Fatal(got)
	}
	if a.NumUses() != 4 {
		t.Fatalf("arg uses = %d, want 4", a.NumUses())
	}
	b.InsertAfter(nil, op3)
	if b.First() != op3 || !op3.IsBefore(op1) || op1.IsBefore(op3) {
		t.Fatal("InsertAfter(nil) did not insert at the start")
	}
}

func TestWalkOrder(t *testing.T) {
	m := mustParse(t, irSrc)
	var pre, post []string
	m.Walk(func(op *Operation) WalkResult {
		pre = append(pre, op.Name())
		if op.Name() == "tt.func" {
			return Skip
		}
		return Advance
	})
	m.Op.WalkPost(func(op *Operation) WalkResult {
		post = append(post, op.Name())
		return Advance
	})
	if strings.Join(pre, " ") != "builtin.module tt.func" {
		t.Errorf("pre-order with Skip: %v", pre)
	}
	if len(post) != 11 || post[len(post)-1] != "builtin.module" || post[len(post)-2] != "tt.func" || post[0] != "tt.make_range" {
		t.Errorf("post-order: %v", post)
	}
}

func TestCloneIsDeep(t *testing.T) {
	m := mustParse(t, irSrc)
	c := m.Clone()
	if keep(c) != keep(m) {
		t.Fatalf("clone prints differently:\n%s", firstDiff(keep(m), keep(c)))
	}
	add := findOp(c, "arith.addi")
	add.SetOperand(1, findOp(c, "tt.splat").Result(0))
	if keep(c) == keep(m) {
		t.Fatal("editing the clone did not change it")
	}
	if !strings.Contains(keep(m), "arith.addi %r, %r") {
		t.Fatal("editing the clone changed the original")
	}
	if findOp(m, "tt.make_range").Result(0).NumUses() != 3 {
		t.Fatal("clone shares use lists with the original")
	}
}

func TestAttrs(t *testing.T) {
	op := NewOperation("tt.make_range", nil, []Type{I32}, []NamedAttr{{"start", Int(0, I32)}, {"foo", Unit}}, 0)
	if len(op.Props) != 1 || op.Props[0].Name != "start" || len(op.Attrs) != 1 {
		t.Fatalf("props %v attrs %v", op.Props, op.Attrs)
	}
	op.SetAttr("end", Int(4, I32))
	op.SetAttr("start", Int(2, I32))
	if v, _ := op.IntAttr("start"); v != 2 || len(op.Props) != 2 {
		t.Fatalf("SetAttr: %v", op.Props)
	}
	if !op.RemoveAttr("foo") || op.RemoveAttr("foo") || op.Attr("foo") != nil {
		t.Fatal("RemoveAttr")
	}
}

func parseEnc(t *testing.T, text string) *EncodingAttr {
	t.Helper()
	e, _, err := attr.Parse(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &EncodingAttr{Enc: e}
}

// A pass that introduces a new layout gets a fresh Triton-style alias; a
// layout that is no longer used loses its alias.
func TestAliasRegeneration(t *testing.T) {
	m := mustParse(t, irSrc)
	enc := parseEnc(t, "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>")
	r := findOp(m, "tt.make_range")
	rt := r.Result(0).Type().(*RankedTensorType)
	cvt := NewOperation("ttg.convert_layout", []*Value{r.Result(0)}, []Type{rt.WithEncoding(enc)}, nil, 0)
	r.Block().InsertAfter(r, cvt)
	out := keep(m)
	wantDefs := blockedDef + "#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\nmodule"
	if !strings.HasPrefix(out, wantDefs) {
		t.Fatalf("aliases:\n%s", out)
	}
	if !strings.Contains(out, "%0 = ttg.convert_layout %r : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>\n") {
		t.Fatalf("convert_layout:\n%s", out)
	}
	// Rewrite every use of #blocked to the new layout: #blocked disappears
	// and the new layout is still called #blocked1.
	m2 := mustParse(t, out)
	m2.Walk(func(op *Operation) WalkResult {
		for _, v := range op.Results() {
			if t, ok := v.Type().(*RankedTensorType); ok {
				v.SetType(t.WithEncoding(enc))
			}
		}
		return Advance
	})
	out2 := keep(m2)
	if strings.Contains(out2, "#blocked ") || !strings.HasPrefix(out2, "#blocked1 = ") {
		t.Fatalf("after rewrite:\n%s", out2)
	}
	// A module without input aliases numbers them in first-use order.
	m3 := NewModule()
	f := NewOperation("tt.func", nil, nil, []NamedAttr{{"sym_name", Str("f")},
		{"function_type", &TypeAttr{&FunctionType{}}}}, 1)
	f.Region(0).AddBlock(NewBlock())
	m3.Body().Append(f)
	for _, e := range []*EncodingAttr{enc, parseEnc(t, "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>")} {
		f.Region(0).Entry().Append(NewOperation("tt.make_range", nil,
			[]Type{&RankedTensorType{Shape: []int64{128}, Elem: I32, Encoding: e}},
			[]NamedAttr{{"start", Int(0, I32)}, {"end", Int(128, I32)}}, 0))
	}
	f.Region(0).Entry().Append(NewOperation("tt.return", nil, nil, nil, 0))
	out3 := keep(m3)
	if !strings.HasPrefix(out3, "#blocked = #ttg.blocked<{sizePerThread = [4]") ||
		!strings.Contains(out3, "\n#blocked1 = #ttg.blocked<{sizePerThread = [1]") ||
		!strings.Contains(out3, "%0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>\n    %1 = tt.make_range") {
		t.Fatalf("fresh aliases:\n%s", out3)
	}
	if d := Verify(m3); len(d) > 0 {
		t.Fatal(d)
	}
}

func TestVerifyErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		edit func(m *Module)
		want string
	}{
		{"dominance", irSrc, func(m *Module) {
			r := findOp(m, "tt.make_range")
			r.MoveAfter(findOp(m, "arith.addi"))
		}, "t.mlir:6:10: error: operand #0 does not dominate this use"},
		{"same encoding", irSrc, func(m *Module) {
			enc := parseEnc(t, "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>")
			s := findOp(m, "tt.splat").Result(0)
			s.SetType(s.Type().(*RankedTensorType).WithEncoding(enc))
		}, "t.mlir:6:10: error: 'arith.cmpi' op requires the same encoding for all operands and results"},
		{"encoding vs num-warps", strings.Replace(irSrc, `"ttg.num-warps" = 4`, `"ttg.num-warps" = 8`, 1), nil,
			"t.mlir:4:10: error: 'tt.make_range' op invalid encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>: Layout has 4 warps per CTA, but the context requires 8 warps per CTA"},
		{"make_range size", strings.Replace(irSrc, "end = 128", "end = 64", 1), nil,
			"t.mlir:4:10: error: 'tt.make_range' op number of elements in returned tensor, 128, must match size of range, 64"},
		{"splat element type", irSrc, func(m *Module) {
			s := findOp(m, "tt.splat").Result(0)
			rt := s.Type().(*RankedTensorType)
			s.SetType(&RankedTensorType{Shape: rt.Shape, Elem: I64, Encoding: rt.Encoding})
		},
			"t.mlir:5:10: error: 'tt.splat' op operand type 'i32' does not match the result element type 'i64'"},
		{"broadcast", blockedDef + "#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>\n" +
			"tt.func @f(%x: tensor<2x1xi32, #b2>) {\n  %0 = tt.broadcast %x : tensor<2x1xi32, #b2> -> tensor<4x8xi32, #b2>\n  tt.return\n}\n", nil,
			"t.mlir:4:8: error: 'tt.broadcast' op Different dimensions at index 0 between source and result.  Broadcast requires the source dimension to be 1."},
		{"trans", blockedDef + "#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>\n" +
			"tt.func @f(%x: tensor<2x4xi32, #b2>) {\n  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<2x4xi32, #b2> -> tensor<2x4xi32, #b2>\n  tt.return\n}\n", nil,
			"t.mlir:4:8: error: 'tt.trans' op result dimension 0 must be operand dimension 1"},
		{"terminator", irSrc, func(m *Module) {
			findOp(m, "tt.return").Erase()
		}, "t.mlir:11:5: error: block with no terminator, has \"tt.store\"(%a, %v, %m)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if tc.edit != nil {
				tc.edit(m)
			}
			d := Verify(m)
			if len(d) == 0 {
				t.Fatal("no diagnostics")
			}
			if got := d[0].Pos.String() + ": error: " + d[0].Msg; !strings.HasPrefix(got, tc.want) {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if len(d[0].Notes) == 0 || !strings.HasPrefix(d[0].Notes[0].Msg, "see current operation: ") {
				t.Errorf("notes: %v", d[0].Notes)
			}
		})
	}
}

func TestLocationsAndLiterals(t *testing.T) {
	src := `#loc = loc("f.py":1:2)
module attributes {a = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, b = array<i32: 1, 0>, c = "q\"\\\n\01", d = [1.5 : f32, @f::@g, unit, -7 : i8, 2.5], e = {x, y = true}, f = dense<true> : tensor<2xi1>, g = i32, h = 0x7F800000 : f32, i = array<f32: 1.0>} {
  "x.op"() : () -> () loc(fused["a.py":1:2, callsite("g"(#loc) at unknown)])
  "x.op"() : () -> () loc(fused<"meta">[#loc])
  "x.op"() : () -> () loc("name")
  "x.op"() : () -> () loc(#loc9)
} loc(#loc)
#loc9 = loc("late.py":3:4)
`
	m, d := ParseString(src, ParseConfig{Filename: "t.mlir", AllowUnregistered: true})
	if d.HasErrors() {
		t.Fatal(d)
	}
	var b strings.Builder
	Print(&b, m, PrintConfig{DebugInfo: true})
	want := `#loc = loc("f.py":1:2)
module attributes {a = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, b = array<i32: 1, 0>, c = "q\22\\\0A\01", d = [1.500000e+00 : f32, @f::@g, unit, -7 : i8, 2.500000e+00], e = {x, y = true}, f = dense<true> : tensor<2xi1>, g = i32, h = 0x7F800000 : f32, i = array<f32: 1.000000e+00>} {
  "x.op"() : () -> () loc(fused["a.py":1:2, callsite("g"(#loc) at unknown)])
  "x.op"() : () -> () loc(fused<"meta">[#loc])
  "x.op"() : () -> () loc("name")
  "x.op"() : () -> () loc(#loc9)
} loc(#loc)
#loc9 = loc("late.py":3:4)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s\n%s", b.String(), want, firstDiff(want, b.String()))
	}
	if l, ok := Resolve(findOp(m, "x.op").Next().Next().Next().Loc).(FileLineColLoc); !ok || l.File != "late.py" || l.Line != 3 {
		t.Errorf("Resolve: %#v", l)
	}
}

func TestTypeAliases(t *testing.T) {
	src := blockedDef + `#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!md = !ttg.memdesc<128xi32, #shared, #smem, mutable>
module {
  tt.func @f(%t: tensor<128xi32, #blocked>) {
    %0 = ttg.local_alloc %t : (tensor<128xi32, #blocked>) -> !md
    %1 = ttg.local_load %0 : !md -> tensor<128xi32, #blocked>
    tt.return
  }
}
`
	m := mustParse(t, src)
	if out := keep(m); out != src {
		t.Errorf("type alias not kept:\n%s", firstDiff(src, out))
	}
}

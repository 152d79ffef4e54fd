package opgen_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/layoutopt/layoutopt/dialect"
	"github.com/layoutopt/layoutopt/internal/opgen"
	"github.com/layoutopt/layoutopt/ir"
)

// TestGeneratedUpToDate regenerates every dialect's accessors in memory
// and fails when a checked-in ops_gen.go differs: after adding or changing
// an op declaration, run `go generate ./dialect/...`.
func TestGeneratedUpToDate(t *testing.T) {
	for _, d := range dialect.All {
		dir := filepath.Join("..", "..", "dialect", d.Name)
		file := filepath.ToSlash(filepath.Join("dialect", d.Name, opgen.FileName))
		pkg := packageName(t, dir, d.Name)
		want, err := opgen.Generate(d, pkg)
		if err != nil {
			t.Errorf("dialect %s: %v", d.Name, err)
			continue
		}
		gen, err := os.ReadFile(filepath.Join(dir, "generate.go"))
		if err != nil || !bytes.Contains(gen, []byte("//go:generate go run ../../internal/opgen/cmd/opgen -dialect "+d.Name+" ")) {
			t.Errorf("dialect/%s/generate.go lacks the line\n\t//go:generate go run ../../internal/opgen/cmd/opgen -dialect %s -o %s\nadd it, then run: %s",
				d.Name, d.Name, opgen.FileName, opgen.Command)
		}
		got, err := os.ReadFile(filepath.Join(dir, opgen.FileName))
		if err != nil {
			t.Errorf("%s is missing; run: %s", file, opgen.Command)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: regenerating it from the declarations of dialect %s would change it (%s); run: %s",
				file, d.Name, firstDiff(got, want), opgen.Command)
		}
	}
}

// packageName returns the package clause of the dialect's Go files.
func packageName(t *testing.T, dir, def string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly)
		if err == nil {
			return af.Name.Name
		}
	}
	return def
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "first difference at line " + strconv.Itoa(i+1) + ": checked in " + strings.TrimSpace(gl) + " | generated " + strings.TrimSpace(wl)
		}
	}
	return "same lines"
}

func TestTypeName(t *testing.T) {
	for op, want := range map[string]string{
		"ttg.convert_layout":                  "ConvertLayoutOp",
		"tt.load":                             "LoadOp",
		"scf.for":                             "ForOp",
		"tt.reduce.return":                    "ReduceReturnOp",
		"tt.addptr":                           "AddPtrOp",
		"tt.atomic_rmw":                       "AtomicRMWOp",
		"ttg.memdesc_index":                   "MemDescIndexOp",
		"ttng.tmem_alloc":                     "TMEMAllocOp",
		"ttng.tc_gen5_mma":                    "TCGen5MMAOp",
		"ttng.async_tma_copy_local_to_global": "AsyncTMACopyLocalToGlobalOp",
		"arith.addi":                          "AddIOp",
		"arith.cmpi":                          "CmpIOp",
		"arith.xori":                          "XOrIOp",
		"arith.sitofp":                        "SIToFPOp",
		"arith.constant":                      "ConstantOp",
		"arith.index_cast":                    "IndexCastOp",
		"math.exp2":                           "Exp2Op",
		"math.ctlz":                           "CountLeadingZerosOp",
		"cf.cond_br":                          "CondBranchOp",
		"llvm.intr.assume":                    "AssumeOp",
		"x.new_op":                            "NewOpOp",
	} {
		if got := opgen.TypeName(op); got != want {
			t.Errorf("TypeName(%q) = %q, want %q", op, got, want)
		}
	}
	if got := opgen.CastName("ConvertLayoutOp"); got != "AsConvertLayout" {
		t.Errorf("CastName = %q", got)
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"src": "Src", "maxNumImpreciseAcc": "MaxNumImpreciseAcc", "a_scale": "AScale",
		"outLHS": "OutLHS", "N": "N", "op_bundle_operands": "OpBundleOperands", "x_offsets": "XOffsets",
	} {
		if got := opgen.GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A synthetic dialect: names that collide with *ir.Operation's members
// get a suffix; names that collide among themselves are an error.
func TestGenerateNames(t *testing.T) {
	d := &ir.Dialect{Name: "x", Ops: []*ir.OpDef{{
		Name: "x.op", Summary: "an op",
		Operands: []ir.ArgDef{ir.Arg("name"), ir.Opt("opt"), ir.Vars("operands")},
		Results:  []ir.ArgDef{ir.Arg("result")},
		Regions:  []ir.ArgDef{ir.Arg("region"), ir.Arg("body")},
		Attrs: []ir.AttrDef{{Name: "block", Kind: ir.I64Attr}, {Name: "kind", Kind: ir.EnumAttrKind, Enum: &ir.Enum{Name: "k", Cases: []string{"a"}}},
			{Name: "flag", Kind: ir.UnitAttrKind}, {Name: "ty", Kind: ir.TypeAttrKind}, {Name: "any"}},
	}}}
	src, err := opgen.Generate(d, "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"type OpOp struct{ *ir.Operation }", "func AsOp(op *ir.Operation) (OpOp, bool)",
		"func (op OpOp) NameValue() *ir.Value", "func (op OpOp) Opt() *ir.Value", "func (op OpOp) OperandsValue() []*ir.Value",
		"func (op OpOp) ResultValue() *ir.Value", "func (op OpOp) RegionRegion() *ir.Region", "func (op OpOp) Body() *ir.Region",
		"func (op OpOp) BlockAttr() int64", "func (op OpOp) BlockAttrAttr() ir.Attribute",
		"func (op OpOp) Kind() int64", "func (op OpOp) KindName() string", "func (op OpOp) KindAttr() ir.Attribute",
		"func (op OpOp) Flag() bool", "func (op OpOp) Ty() ir.Type", "func (op OpOp) Any() ir.Attribute",
		"// OpOp is the x.op op: an op.",
	} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	again, _ := opgen.Generate(d, "x")
	if !bytes.Equal(src, again) {
		t.Error("Generate is not deterministic")
	}

	dup := &ir.Dialect{Name: "x", Ops: []*ir.OpDef{{Name: "x.op", Operands: []ir.ArgDef{ir.Arg("kind_name")},
		Attrs: []ir.AttrDef{{Name: "kind", Kind: ir.EnumAttrKind, Enum: &ir.Enum{Name: "k"}}}}}}
	if _, err := opgen.Generate(dup, "x"); err == nil || !strings.Contains(err.Error(), "KindName") {
		t.Errorf("accessor collision: err = %v", err)
	}
	twice := &ir.Dialect{Name: "x", Ops: []*ir.OpDef{{Name: "x.a_b"}, {Name: "x.a.b"}}}
	if _, err := opgen.Generate(twice, "x"); err == nil || !strings.Contains(err.Error(), "ABOp") {
		t.Errorf("type collision: err = %v", err)
	}
}

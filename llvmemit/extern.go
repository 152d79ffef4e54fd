package llvmemit

import (
	"fmt"
	"strings"

	lir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/layoutopt/layoutopt/ir"
)

// tt.extern_elementwise calls its symbol, a function of CUDA's libdevice
// (__nv_expf, __nv_powf, ...), once per register, as Triton 3.6's
// ExternElementwiseOpConversion does: the module declares it (readnone
// when the first op calling it is pure) and Result.Libdevice says so; LinkLibdevice then
// links libdevice's definitions in, as Triton's make_llir links its
// extern_libs, before the module is optimized. The module carries
// nvvm-reflect-ftz = 1, as Triton sets it (enable_reflect_ftz, on by
// default): libdevice takes its flush-to-zero paths. Other libraries'
// functions (ROCm's __ocml_*) are an error, as are bf16 and fp8
// operands (libdevice has no functions of them).
func init() {
	Register("tt.extern_elementwise", lowerExtern)
}

func lowerExtern(l *Lowerer, op *ir.Operation) error {
	sym := ir.AttrStringValue(op.Attr("symbol"))
	if !strings.HasPrefix(sym, "__nv_") {
		return errorf(op, "%q is not a libdevice function (__nv_*): NVIDIA kernels link libdevice only", sym)
	}
	var params []types.Type
	for i, v := range op.Operands() {
		t, err := libdeviceType(ir.ElementType(v.Type()))
		if err != nil {
			return errorf(op, "operand %d: %v", i, err)
		}
		params = append(params, t)
	}
	ret, err := libdeviceType(ir.ElementType(op.Result(0).Type()))
	if err != nil {
		return errorf(op, "result: %v", err)
	}
	var attrs []lir.FuncAttribute
	if ir.AttrBoolValue(op.Attr("pure")) {
		attrs = attrsPure
	}
	f := l.e.nv.get(sym, ret, attrs, params...) // the first call's op declares it
	if want := types.NewFunc(ret, params...); !f.Sig.Equal(want) {
		return errorf(op, "@%s is called as %s and as %s", sym, want.LLString(), f.Sig.LLString())
	}
	l.e.libdevice = true
	return elementwise(l, op, func(a []value.Value) value.Value { return l.cur.NewCall(f, a...) })
}

// libdeviceType is the LLVM type of a libdevice argument or result of
// element type t: integers, f32 and f64 (f16 as half, for the few __nv_h*
// functions).
func libdeviceType(t ir.Type) (types.Type, error) {
	if f, ok := t.(*ir.FloatType); ok && f.Kind != "f16" && f.Kind != "f32" && f.Kind != "f64" {
		return nil, fmt.Errorf("libdevice has no functions of %s", f.Kind)
	}
	return llvmType(t)
}

// reflectFTZ adds Triton's module flag nvvm-reflect-ftz = 1.
func (e *emitter) reflectFTZ() {
	flag := &metadata.Tuple{MetadataID: -1, Fields: []metadata.Field{i32(4), &metadata.String{Value: "nvvm-reflect-ftz"}, i32(1)}}
	e.m.MetadataDefs = append(e.m.MetadataDefs, flag)
	e.m.NamedMetadataDefs["llvm.module.flags"] = &metadata.NamedDef{Name: "llvm.module.flags", Nodes: []metadata.Node{flag}}
}

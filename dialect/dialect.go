// Package dialect registers every dialect of Triton 3.6's TTGIR: importing
// it (usually for its side effect, `import _ ".../dialect"`) makes the ops
// of tt, ttg, ttng, scf, arith, math, cf and the AMD, LLVM, ROCDL, gpu and ub ops
// that Triton's tests use known to ir.Default(), which ir.Parse,
// ir.NewOperation and the verifier use. Each dialect is a package of its
// own under this directory, holding the declarations of its ops (see
// ir.OpDef); a Go program that wants only some of them imports those.
//
// Registry returns a fresh registry holding all of them, for programs that
// keep registries apart (see ir.ParseConfig.Registry).
package dialect

import (
	"github.com/layoutopt/layoutopt/dialect/amdg"
	"github.com/layoutopt/layoutopt/dialect/arith"
	"github.com/layoutopt/layoutopt/dialect/cf"
	"github.com/layoutopt/layoutopt/dialect/gpu"
	"github.com/layoutopt/layoutopt/dialect/llvm"
	"github.com/layoutopt/layoutopt/dialect/math"
	"github.com/layoutopt/layoutopt/dialect/rocdl"
	"github.com/layoutopt/layoutopt/dialect/scf"
	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/dialect/ttg"
	"github.com/layoutopt/layoutopt/dialect/ttng"
	"github.com/layoutopt/layoutopt/dialect/ub"
	"github.com/layoutopt/layoutopt/ir"
)

// All lists the dialects this package registers, in registration order.
var All = []*ir.Dialect{
	tt.Dialect,
	ttg.Dialect,
	arith.Dialect,
	math.Dialect,
	scf.Dialect,
	cf.Dialect,
	ttng.Dialect,
	amdg.Dialect,
	llvm.Dialect,
	gpu.Dialect,
	ub.Dialect,
	rocdl.Dialect,
}

// Registry returns a new registry holding every dialect of All.
func Registry() (*ir.Registry, error) {
	r := ir.NewRegistry()
	for _, d := range All {
		if err := r.RegisterDialect(d); err != nil {
			return nil, err
		}
	}
	return r, nil
}

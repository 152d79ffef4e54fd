package interp_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// The layout passes checked on every kernel: each must leave what the
// kernel computes unchanged.
var layoutPasses = []string{
	"remove-redundant-conversions",
	"canonicalize-layouts",
	"insert-shared-round-trips",
	"tritongpu-reduce-data-duplication",
	"cse",
	"canonicalize",
	"order-programs",
	"coalesce",
	"specialize-divisibility",
	"triton-rewrite-tensor-pointer",
	"tritongpu-decompose-scaled-blocked",
	"tritongpu-reorder-instructions",
	"tritongpu-combine-tensor-select-and-if",
	// as make_ttgir orders them (the encodings first, which descriptors
	// of Triton's lit tests lack), with the global scratch the tensor maps
	// made on the device take
	"triton-nvidia-optimize-descriptor-encoding,triton-nvidia-tma-lowering,tritongpu-global-scratch-memory-allocation",
}

// How a kernel is run without knowing its buffers (the rule of
// runKernel):
//
//   - every pointer parameter addresses its own region of an
//     interp.LazyMemory, unbounded, whose unwritten elements read as
//     deterministic pseudo-random values of the pointee type (floats in
//     [-2, 2), integers in [0, 16)), so no access is out of bounds;
//   - a tensor or memdesc parameter (lit tests have them) gets
//     pseudo-random elements, or pointers to consecutive elements of a
//     fresh region; a token parameter a Token;
//   - every integer parameter is kernelInt (not a power of two, so masks
//     cut tiles and loops run a partial last iteration), every float
//     parameter kernelFloat;
//   - the grid is kernelGrid;
//   - a program may evaluate at most kernelMaxOps ops and compute at most
//     kernelMaxWork elements (Machine.MaxOps, MaxWork): loops that never
//     end, as in some lit tests, are not run, and are counted as such; a
//     kernel over the work bound with kernelInt (a 128³ dot in a loop of
//     kernelInt iterations would take minutes) runs with every integer
//     parameter kernelSmallInt instead (fewer iterations; still not a
//     power of two), before and after each pass alike.
//
// The output is the set of bytes written (address and value). Two runs are
// equal when they write the same bytes at the same addresses, bit for bit:
// the interpreter's reduction, scan and dot orders depend only on shapes,
// so layout changes may not change a single bit. With -reduce-order=layout
// reductions follow Triton's layout-dependent order and float elements
// may differ within layoutTolerance (compareRuns).
const (
	kernelInt      = 80
	kernelSmallInt = 15
	kernelFloat    = 0.5
	kernelMaxOps   = 1 << 22
	kernelMaxWork  = 1 << 26
)

var kernelGrid = [3]int{2, 2, 1}

// kernelFunc returns the name of the module's first public tt.func with a
// body (the kernel; others are callees).
func kernelFunc(m *ir.Module) string {
	for op := m.Body().First(); op != nil; op = op.Next() {
		if f, ok := tt.AsFunc(op); ok && f.SymVisibility() != "private" && f.Body() != nil && f.Body().Entry() != nil {
			return f.SymName()
		}
	}
	return ""
}

// runKernel runs the kernel of m by the rule above and returns its writes.
func runKernel(m *ir.Module, seed uint64) (*interp.LazyMemory, error) {
	return runKernelInt(m, seed, kernelInt)
}

// runKernelInt is runKernel with every integer parameter intArg.
func runKernelInt(m *ir.Module, seed uint64, intArg int64) (*interp.LazyMemory, error) {
	return runKernelBounded(m, seed, kernelGrid, kernelMaxOps, kernelMaxWork, intArg)
}

// overWork reports whether err is the interpreter's work bound (Machine.MaxWork).
func overWork(err error) bool {
	return err != nil && strings.Contains(err.Error(), "(Machine.MaxWork)")
}

func runKernelBounded(m *ir.Module, seed uint64, grid [3]int, maxOps, maxWork, intArg int64) (*interp.LazyMemory, error) {
	name := kernelFunc(m)
	if name == "" {
		return nil, fmt.Errorf("no public tt.func")
	}
	mc := interp.NewMachine(m, nil)
	fn, _ := tt.AsFunc(mc.Func(name))
	ft, _ := fn.FunctionType().(*ir.FunctionType)
	mem := &interp.LazyMemory{Seed: seed}
	scales := scaleParams(fn)
	var args []interp.Value
	for k, t := range ft.Inputs {
		if _, ok := t.(*ir.AsyncTokenType); ok {
			args = append(args, interp.Token{})
			continue
		}
		if dt, ok := t.(*ir.TensorDescType); ok && dt.Block != nil {
			// A tensor descriptor (a host-side TMA descriptor): a
			// row-major tensor twice the block in every dimension, so that
			// blocks at the kernel's indices are partly out of bounds.
			e, err := interp.ElemOf(dt.Block.Elem)
			if err != nil {
				return nil, fmt.Errorf("parameter of type %s: %v", ir.TypeString(t), err)
			}
			block := shapeInts(dt.Block)
			shape, strides := make([]int64, len(block)), make([]int64, len(block))
			stride := int64(1)
			for d := len(block) - 1; d >= 0; d-- {
				shape[d], strides[d] = 2*int64(block[d]), stride
				stride *= shape[d]
			}
			mem.Elems = append(mem.Elems, e)
			args = append(args, &interp.TensorDesc{Base: int64(len(mem.Elems)) << 40, Elem: e, Block: block, Shape: shape, Strides: strides})
			continue
		}
		e, err := interp.ElemOf(ir.ElementType(t))
		if err != nil {
			return nil, fmt.Errorf("parameter of type %s: %v", ir.TypeString(t), err)
		}
		md, isMem := t.(*ir.MemDescType)
		if _, ok := t.(*ir.RankedTensorType); ok || isMem {
			// A tensor parameter (lit tests have them): pseudo-random
			// elements; pointers to consecutive elements of a region.
			var shape []int
			if isMem {
				for _, d := range md.Shape {
					shape = append(shape, int(d))
				}
			} else {
				shape = shapeInts(t)
			}
			if n := len(shape); n > 4 || numElemsOf(shape) > 1<<20 || numElemsOf(shape) < 0 {
				return nil, fmt.Errorf("parameter of type %s is too large to fill", ir.TypeString(t))
			}
			v := interp.NewTensor(e, shape)
			for i := 0; i < v.Len(); i++ {
				h := mix(seed, uint64(k), uint64(i))
				switch {
				case e.IsPtr():
					pe, err := interp.ElemOf(e.Pointee)
					if err != nil {
						return nil, err
					}
					if i == 0 {
						mem.Elems = append(mem.Elems, pe)
					}
					v.I[i] = int64(len(mem.Elems))<<40 + int64(i*pe.Bytes())
				case e.IsInt() && scales[k]:
					// e8m0 scales of tt.dot_scaled: 2^-7 .. 2^8, where
					// the 0..15 of other integers would be 2^-127 ..
					// 2^-112 and every product would flush to zero.
					v.I[i] = 120 + int64(h%16)
				case e.IsInt():
					v.I[i] = int64(h % 16)
				default:
					v.F[i] = e.Float.Round(float64(h>>11)/(1<<53)*4-2, interp.NearestEven, false)
				}
			}
			if isMem {
				m, err := interp.NewMemDesc(e, shape, v)
				if err != nil {
					return nil, err
				}
				args = append(args, m)
				continue
			}
			args = append(args, v)
			continue
		}
		switch {
		case e.IsPtr():
			pe, err := interp.ElemOf(e.Pointee)
			if err != nil {
				return nil, err
			}
			mem.Elems = append(mem.Elems, pe)
			args = append(args, interp.Scalar(e, int64(len(mem.Elems))<<40, 0))
		case e.IsInt():
			args = append(args, interp.Scalar(e, intArg, 0))
		default:
			args = append(args, interp.Scalar(e, 0, kernelFloat))
		}
	}
	mc.Mem = mem
	if *reduceOrder == "layout" {
		mc.ReduceOrder = interp.LayoutOrder
	}
	mc.MaxOps = maxOps
	mc.MaxWork = maxWork
	if err := mc.Launch(name, args, grid); err != nil {
		return nil, err
	}
	return mem, nil
}

// scaleParams returns the parameters of fn that reach a scale operand of
// a tt.dot_scaled, or its decomposition's e8m0 decoding, through ops that
// only move or reshape data (the lit kernels take their scales as tensor
// parameters): the same parameters before and after
// tritongpu-decompose-scaled-blocked.
func scaleParams(fn tt.FuncOp) map[int]bool {
	out := map[int]bool{}
	entry := fn.Body().Entry()
	mark := func(v *ir.Value) {
		for v != nil && !v.IsBlockArg() {
			switch def := v.DefiningOp(); def.Name() {
			case "ttg.convert_layout", "tt.trans", "tt.reshape", "tt.broadcast", "tt.expand_dims":
				v = def.Operand(0)
			default:
				v = nil
			}
		}
		if v != nil && v.OwnerBlock() == entry {
			out[v.ArgIndex()] = true
		}
	}
	fn.Walk(func(op *ir.Operation) ir.WalkResult {
		if d, ok := tt.AsDotScaled(op); ok {
			mark(d.AScale())
			mark(d.BScale())
		}
		// The same scales after tritongpu-decompose-scaled-blocked: the
		// e8m0 byte zero-extended, shifted into a float's exponent and
		// bit-cast (bitcast(shli(extui(scale), c))).
		if op.Name() == "tt.bitcast" {
			if sh := op.Operand(0).DefiningOp(); sh != nil && sh.Name() == "arith.shli" {
				if ext := sh.Operand(0).DefiningOp(); ext != nil && ext.Name() == "arith.extui" {
					mark(ext.Operand(0))
				}
			}
		}
		return ir.Advance
	})
	return out
}

func shapeInts(t ir.Type) []int {
	s, _ := ir.ShapeOf(t)
	out := make([]int, len(s))
	for i, d := range s {
		out[i] = int(d)
	}
	return out
}

func numElemsOf(shape []int) int {
	n := 1
	for _, d := range shape {
		if d < 0 || d > 1<<20 {
			return -1
		}
		n *= d
	}
	return n
}

// mix hashes a seed and two indices (splitmix64 steps).
func mix(seed, a, b uint64) uint64 {
	x := seed ^ a<<32 ^ b*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// compareRuns compares two runs: bit for bit with -reduce-order=shape;
// with -reduce-order=layout a float element may differ within
// layoutTolerance, since a pass that changes the layout of a reduction's
// operand changes Triton's association order. It returns a description
// of the first mismatch ("" when none) and the number of float elements
// that differ within the tolerance.
func compareRuns(a, b *interp.LazyMemory) (string, int) {
	d := diffWrites(a, b)
	if d == "" || *reduceOrder != "layout" {
		return d, 0
	}
	seen := map[int64]bool{}
	var bad []int64
	within := 0
	check := func(addr int64) {
		_, wa := a.ReadWritten(addr)
		_, wb := b.ReadWritten(addr)
		k := int(addr>>40) - 1
		if k < 0 || k >= len(a.Elems) {
			bad = append(bad, addr)
			return
		}
		e := a.Elems[k]
		n := int64(e.Bytes())
		base := int64(k+1) << 40
		start := base + (addr-base)/n*n
		if seen[start] {
			return
		}
		seen[start] = true
		x, y := readElem(a, e, start), readElem(b, e, start)
		if x == y {
			return
		}
		if wa != wb || e.Float == nil {
			bad = append(bad, start)
			return
		}
		fx, fy := decodeFloat(e, x), decodeFloat(e, y)
		if layoutTolerance(e.Float).Agree(fx, fy) {
			within++
			return
		}
		bad = append(bad, start)
	}
	a.EachWritten(check)
	b.EachWritten(check)
	if len(bad) == 0 {
		return "", within
	}
	return fmt.Sprintf("%d elements beyond the tolerance (%s)", len(bad), d), within
}

// layoutTolerance is the tolerance model of -reduce-order=layout:
// |a - b| <= 64·u·(1 + |b|) for the format's unit roundoff u, that is, a
// few dozen roundings of results of magnitude about one (the inputs are
// in [-2, 2)); reassociating a sum of n such terms moves it by at most
// about n·u·Σ|x|, which this covers for the short reductions of the
// corpus and which a wrong value (a lost or doubled term) exceeds.
func layoutTolerance(f *interp.FloatFormat) interp.Tolerance {
	u := f.Unit()
	return interp.Tolerance{Abs: 64 * u, Rel: 64 * u}
}

func readElem(m *interp.LazyMemory, e interp.Elem, addr int64) uint64 {
	buf := make([]byte, e.Bytes())
	_ = m.Load(addr, buf)
	var u uint64
	for i := len(buf) - 1; i >= 0; i-- {
		u = u<<8 | uint64(buf[i])
	}
	return u
}

func decodeFloat(e interp.Elem, bits uint64) float64 { return e.Float.FromBits(bits) }

// diffWrites describes the first difference between two sets of writes.
func diffWrites(a, b *interp.LazyMemory) string {
	n, k := interp.DiffWrites(a, b)
	if n == 0 {
		return ""
	}
	show := func(m *interp.LazyMemory) string {
		if v, ok := m.ReadWritten(k); ok {
			return fmt.Sprintf("%#02x", v)
		}
		return "not written"
	}
	return fmt.Sprintf("%d bytes differ; first: pointer argument %d, byte offset %d: %s before, %s after",
		n, k>>40-1, k&(1<<40-1), show(a), show(b))
}

func parseChunk(src []byte, name string) (*ir.Module, error) {
	m, diags := ir.Parse(src, ir.ParseConfig{Filename: name})
	if diags.HasErrors() {
		return nil, diags
	}
	return m, nil
}

func runPass(m *ir.Module, pass string) (*ir.Module, error) {
	pl, err := passes.ParsePipeline("builtin.module(" + pass + ")")
	if err != nil {
		return nil, err
	}
	c := m.Clone()
	if _, err := pl.Run(c, passes.RunConfig{}); err != nil {
		return nil, err
	}
	// Print and parse again: what a pass prints is what users run.
	var buf bytes.Buffer
	if err := ir.Print(&buf, c, ir.PrintConfig{}); err != nil {
		return nil, err
	}
	return parseChunk(buf.Bytes(), pass+".mlir")
}

// corpusStats counts what TestEveryPassEveryFile did.
type corpusStats struct {
	files, runs, passChecks, pairChecks, mismatches int
	withinTol                                       int            // float elements that differ within the tolerance
	smallInt                                        int            // files run with kernelSmallInt
	notRun                                          map[string]int // reason -> files
	passFailed                                      map[string]int
}

type kernelFile struct {
	name  string
	src   []byte
	post  []byte // Triton's next stage: the .post of a .pre, the .pre of a .blocked
	isLit bool
}

func corpusFiles(t *testing.T) []kernelFile {
	var files []kernelFile
	add := func(glob string) {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := kernelFile{name: p, src: src}
			for from, to := range map[string]string{".pre.ttgir": ".post.ttgir", ".blocked.ttgir": ".pre.ttgir"} {
				if strings.HasSuffix(p, from) {
					if post, err := os.ReadFile(strings.TrimSuffix(p, from) + to); err == nil {
						f.post = post
					}
				}
			}
			files = append(files, f)
		}
	}
	shared := testenv.SharedDir()
	if shared == "" {
		t.Skip("../shared not present")
	}
	add(filepath.Join(shared, "triton36/ttgir/*.ttgir"))
	add(filepath.Join(shared, "triton36/prepost/*.pre.ttgir"))
	add("../passes/testdata/prepost/*.pre.ttgir")
	// The scaled dots before Triton's accelerate-matmul: the interpreter's
	// tt.dot_scaled against Triton's decomposition (the .pre).
	add("../passes/testdata/prepost/*.blocked.ttgir")
	var lits []string
	filepath.WalkDir(filepath.Join(shared, "triton36/lit"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".mlir") {
			lits = append(lits, p)
		}
		return nil
	})
	sort.Strings(lits)
	for _, p := range lits {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, chunk := range splitChunks(src) {
			name := fmt.Sprintf("%s#%d", p, i)
			mods := splitModules(chunk, name)
			for k, mod := range mods {
				// a whole kernel: stores its results to memory
				if !bytes.Contains(mod, []byte("tt.store")) && !bytes.Contains(mod, []byte("tt.atomic_rmw")) && !bytes.Contains(mod, []byte("tt.descriptor_store")) {
					continue
				}
				if len(mods) > 1 {
					name = fmt.Sprintf("%s#%d.%d", p, i, k)
				}
				files = append(files, kernelFile{name: name, src: mod, isLit: true})
			}
		}
	}
	return files
}

// splitModules returns the modules of a chunk holding several top-level
// builtin.module ops (some lit chunks do), each printed as a file of its
// own, or else the chunk itself.
func splitModules(chunk []byte, name string) [][]byte {
	m, err := parseChunk(chunk, name)
	if err != nil || !m.Implicit {
		return [][]byte{chunk}
	}
	ops := m.Body().Ops()
	for _, op := range ops {
		if op.Name() != "builtin.module" {
			return [][]byte{chunk}
		}
	}
	if len(ops) < 2 {
		return [][]byte{chunk}
	}
	var out [][]byte
	for _, op := range ops {
		var buf bytes.Buffer
		if err := ir.Print(&buf, &ir.Module{Op: op, Aliases: m.Aliases, Registry: m.Registry}, ir.PrintConfig{}); err != nil {
			return [][]byte{chunk}
		}
		out = append(out, buf.Bytes())
	}
	return out
}

// splitChunks splits a lit file at its "// -----" lines.
func splitChunks(src []byte) [][]byte {
	var out [][]byte
	var cur []byte
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if string(bytes.TrimSpace(line)) == "// -----" {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, line...)
	}
	return append(out, cur)
}

var reduceOrder = flag.String("reduce-order", "shape", "tt.reduce order of TestEveryPassEveryFile: shape (bit-exact comparison) or layout (Triton's order; floats compared within layoutTolerance)")

var corpusFilter = flag.String("files", "", "run TestEveryPassEveryFile on the files whose path contains this string")

// TestEveryPassEveryFile runs every kernel of the shared Triton 3.6 TTGIR,
// the shared and our before/after corpora (.pre files) and Triton's lit
// files (chunks that store to memory) before and after each layout pass,
// on the same random inputs, and requires equal writes; for a .pre file it
// also requires Triton's .post to write what .pre writes.
func TestEveryPassEveryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every layout pass on every kernel")
	}
	files := corpusFiles(t)
	if len(files) == 0 {
		t.Skip("no ../shared")
	}
	st := corpusStats{notRun: map[string]int{}, passFailed: map[string]int{}}
	for _, f := range files {
		if !strings.Contains(f.name, *corpusFilter) {
			continue
		}
		start := time.Now()
		m, err := parseChunk(f.src, filepath.Base(f.name))
		if err != nil {
			if !f.isLit {
				t.Errorf("%s: %v", f.name, err)
			}
			st.notRun["does not parse"]++
			continue
		}
		if ir.Verify(m).HasErrors() {
			// Triton's invalid.mlir files: the passes verify their output
			// and fail on these, so there is nothing to compare.
			if !f.isLit {
				t.Errorf("%s: does not verify: %v", f.name, ir.Verify(m))
			}
			st.notRun["does not verify"]++
			continue
		}
		intArg := int64(kernelInt)
		before, err := runKernelInt(m, 1, intArg)
		if overWork(err) {
			intArg = kernelSmallInt
			if before, err = runKernelInt(m, 1, intArg); err == nil {
				st.smallInt++
			}
		}
		if err != nil {
			reason := err.Error()
			if e, ok := err.(*interp.Error); ok {
				reason = e.Op + ": " + e.Msg
				if strings.Contains(reason, "does not implement this op") {
					reason = "unimplemented op " + e.Op
				}
			}
			if !f.isLit {
				t.Errorf("%s: %v", f.name, err)
			}
			st.notRun[reason]++
			if testing.Verbose() {
				t.Logf("%s: not run: %s", f.name, reason)
			}
			continue
		}
		st.files++
		st.runs++
		if f.post != nil {
			pm, err := parseChunk(f.post, filepath.Base(f.name))
			if err != nil {
				t.Errorf("%s: Triton's next stage: %v", f.name, err)
			} else if after, err := runKernelInt(pm, 1, intArg); err != nil {
				t.Errorf("%s: Triton's next stage: %v", f.name, err)
			} else {
				st.runs++
				st.pairChecks++
				d, within := compareRuns(before, after)
				st.withinTol += within
				if d != "" {
					st.mismatches++
					t.Errorf("%s: Triton's next stage (.post of a .pre, .pre of a .blocked) computes something else: %s", f.name, d)
				}
			}
		}
		for _, p := range layoutPasses {
			pm, err := runPass(m, p)
			if err != nil {
				st.passFailed[p]++
				if !f.isLit || testing.Verbose() {
					t.Logf("%s: %s failed: %v", f.name, p, firstLine(err.Error()))
				}
				continue
			}
			after, err := runKernelInt(pm, 1, intArg)
			st.runs++
			st.passChecks++
			if err != nil {
				st.mismatches++
				t.Errorf("%s: after %s: %v", f.name, p, err)
				continue
			}
			d, within := compareRuns(before, after)
			st.withinTol += within
			if d != "" {
				st.mismatches++
				t.Errorf("%s: %s changed what the kernel computes: %s", f.name, p, d)
			}
		}
		if testing.Verbose() {
			t.Logf("%s: %v", f.name, time.Since(start).Round(time.Millisecond))
		}
	}
	t.Logf("reduce order %s; files run: %d (%d with integer parameters %d); kernel runs: %d; pass checks: %d; checks against Triton's next stage: %d; mismatches: %d; float elements differing within the tolerance: %d",
		*reduceOrder, st.files, st.smallInt, kernelSmallInt, st.runs, st.passChecks, st.pairChecks, st.mismatches, st.withinTol)
	for _, r := range sortedKeys(st.notRun) {
		t.Logf("not run (%d): %s", st.notRun[r], r)
	}
	for _, r := range sortedKeys(st.passFailed) {
		t.Logf("pass failed (%d files): %s", st.passFailed[r], r)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func sortedKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

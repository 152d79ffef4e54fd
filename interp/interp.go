package interp

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"

	"github.com/layoutopt/layoutopt/dialect/tt"
	"github.com/layoutopt/layoutopt/ir"
)

// OpFunc evaluates one op. args holds the values of the op's operands, in
// order; it returns the values of the op's results. Ops with regions run
// them with Exec.RunBlock. An error is located at op by the interpreter
// (an OpFunc returns a plain error; an *Error from a nested op passes
// through unchanged).
type OpFunc func(ex *Exec, op *ir.Operation, args []Value) ([]Value, error)

// Ops is a table of evaluators by op name ("arith.addi"). DefaultOps returns
// the package's; a program adds or replaces entries for its own ops.
type Ops map[string]OpFunc

var defaultOps = Ops{}

// register adds evaluators to the package's table (from init functions).
func register(fns map[string]OpFunc) {
	for name, f := range fns {
		if defaultOps[name] != nil {
			panic("interp: op " + name + " registered twice")
		}
		defaultOps[name] = f
	}
}

// isDefault reports whether ops evaluates name with the package's own
// evaluator (fast paths may then bypass it).
func isDefault(ops Ops, name string) bool {
	f, g := ops[name], defaultOps[name]
	return f != nil && g != nil && reflect.ValueOf(f).Pointer() == reflect.ValueOf(g).Pointer()
}

// DefaultOps returns a new copy of the table of every op this package
// evaluates.
func DefaultOps() Ops {
	out := make(Ops, len(defaultOps))
	for k, v := range defaultOps {
		out[k] = v
	}
	return out
}

// Machine runs the functions of one module over a grid of programs on a
// Memory. Programs run one after another in launch order (x fastest, then
// y, then z), each op over whole tensors.
type Machine struct {
	Module *ir.Module
	Ops    Ops    // nil: DefaultOps
	Mem    Memory // global memory that pointer values address
	// MaxOps, when positive, bounds the ops one program may evaluate (ops
	// inside loops count once per iteration): a program that runs longer
	// fails with an error at the op that crossed the bound, which turns
	// an endless loop into a diagnostic.
	MaxOps int64
	// MaxWork, when positive, bounds the work of one program: the sum over
	// the ops it evaluates of the elements of their results (a dot counts
	// M·N·K). Like MaxOps, crossing it is an error at the op.
	MaxWork int64
	// ReduceOrder is the association order of tt.reduce: ShapeOrder (the
	// default) or LayoutOrder (Triton's order on the GPU).
	ReduceOrder ReduceOrder
	// Progress, when set, is called by Launch after each program with the
	// number of programs done and the total (one call at a time, done
	// increasing, also when programs run in parallel).
	Progress func(done, total int)
	// Workers is the number of goroutines Launch runs programs on; 0 or 1
	// runs them one after another. See Launch for when it runs them in
	// parallel and why the results are those of the sequential order.
	Workers int
	// Print receives tt.print's lines (nil: it prints nothing); a module
	// that prints then runs its programs in launch order.
	Print io.Writer
	funcs map[string]*ir.Operation
	// scratchBase and scratchSize: the launch's global scratch buffer and
	// each program's bytes of it (see Launch).
	scratchBase, scratchSize int64
	// tensorMaps are the tensor maps ttng.tensormap_create wrote, by
	// address (ops_tma.go).
	tensorMaps sync.Map
}

// NewMachine makes a Machine for m with the default op table.
func NewMachine(m *ir.Module, mem Memory) *Machine {
	return &Machine{Module: m, Ops: DefaultOps(), Mem: mem}
}

// Func returns the tt.func named name, or nil.
func (mc *Machine) Func(name string) *ir.Operation {
	if mc.funcs == nil {
		mc.funcs = map[string]*ir.Operation{}
		for op := mc.Module.Body().First(); op != nil; op = op.Next() {
			if f, ok := tt.AsFunc(op); ok {
				mc.funcs[f.SymName()] = op
			}
		}
	}
	return mc.funcs[name]
}

// Exec is the state of one program: its id in the grid and the values of
// the SSA values it has computed.
type Exec struct {
	M    *Machine
	PID  [3]int
	Grid [3]int
	env  map[*ir.Value]Value
	// Scratch is the address of the current function's global scratch
	// (ttg.global_scratch_alloc): the program's slice of the launch's
	// buffer, plus a call's offset inside a device function; 0: none.
	Scratch int64
	// depth of tt.call nesting, to stop runaway recursion.
	depth int
	ops   int64 // ops evaluated so far
	work  int64 // work done so far (see Machine.MaxWork)
}

// AddWork counts n units of work (elements computed) against
// Machine.MaxWork; evaluators of expensive ops call it.
func (ex *Exec) AddWork(n int64) { ex.work += n }

// Error is an error at an op of the interpreted program: a located,
// MLIR-style diagnostic naming the op and the program it happened in.
type Error struct {
	Pos ir.Pos
	Op  string
	PID [3]int
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: error: '%s' op %s (program %d, %d, %d)", e.Pos, e.Op, e.Msg, e.PID[0], e.PID[1], e.PID[2])
}

func (ex *Exec) errorAt(op *ir.Operation, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Pos: op.Pos(), Op: op.Name(), PID: ex.PID, Msg: err.Error()}
}

// Get returns the value of v, computed earlier in this program.
func (ex *Exec) Get(v *ir.Value) Value { return ex.env[v] }

// Set binds v to val.
func (ex *Exec) Set(v *ir.Value, val Value) { ex.env[v] = val }

// RunBlock binds the block's arguments to args, evaluates its ops but the
// last, and returns the values of the last op's operands: the block's
// terminator (scf.yield, tt.return, tt.reduce.return, scf.condition, ...).
func (ex *Exec) RunBlock(b *ir.Block, args []Value) ([]Value, error) {
	if len(args) != b.NumArgs() {
		return nil, fmt.Errorf("block takes %d arguments, given %d", b.NumArgs(), len(args))
	}
	for i, a := range b.Args() {
		ex.env[a] = args[i]
	}
	last := b.Last()
	for op := b.First(); op != nil && op != last; op = op.Next() {
		if err := ex.Eval(op); err != nil {
			return nil, err
		}
	}
	if last == nil {
		return nil, nil
	}
	if !last.HasTrait(ir.Terminator) {
		// A block without a terminator (builtin.module's): evaluate it all.
		return nil, ex.Eval(last)
	}
	out := make([]Value, last.NumOperands())
	for i, v := range last.Operands() {
		out[i] = ex.env[v]
		if out[i] == nil {
			return nil, ex.errorAt(last, fmt.Errorf("operand %d has no value", i))
		}
	}
	return out, nil
}

// Eval evaluates one op and binds its results.
func (ex *Exec) Eval(op *ir.Operation) error {
	ex.ops++
	if ex.M.MaxOps > 0 && ex.ops > ex.M.MaxOps {
		return ex.errorAt(op, fmt.Errorf("the program evaluated more than %d ops (Machine.MaxOps): an endless loop?", ex.M.MaxOps))
	}
	fn := ex.M.Ops[op.Name()]
	if fn == nil {
		return ex.errorAt(op, fmt.Errorf("the interpreter does not implement this op"))
	}
	args := make([]Value, op.NumOperands())
	for i, v := range op.Operands() {
		args[i] = ex.env[v]
		if args[i] == nil {
			return ex.errorAt(op, fmt.Errorf("operand %d has no value", i))
		}
	}
	res, err := fn(ex, op, args)
	if err != nil {
		return ex.errorAt(op, err)
	}
	if len(res) != op.NumResults() {
		return ex.errorAt(op, fmt.Errorf("evaluator returned %d values for %d results", len(res), op.NumResults()))
	}
	for i, r := range op.Results() {
		ex.env[r] = res[i]
		if t, ok := res[i].(*Tensor); ok {
			ex.work += int64(t.Len())
		}
	}
	if ex.M.MaxWork > 0 && ex.work > ex.M.MaxWork {
		return ex.errorAt(op, fmt.Errorf("the program computed more than %d elements (Machine.MaxWork)", ex.M.MaxWork))
	}
	return nil
}

// maxCallDepth bounds tt.call nesting.
const maxCallDepth = 64

// Call runs function fn of the module in this program with args and
// returns the operands of its tt.return.
func (ex *Exec) Call(fn *ir.Operation, args []Value) ([]Value, error) {
	f, ok := tt.AsFunc(fn)
	if !ok || f.Body() == nil || f.Body().Entry() == nil {
		return nil, fmt.Errorf("%s is not a tt.func with a body", fn.Name())
	}
	if ex.depth >= maxCallDepth {
		return nil, fmt.Errorf("calls nested deeper than %d", maxCallDepth)
	}
	ex.depth++
	defer func() { ex.depth-- }()
	return ex.RunBlock(f.Body().Entry(), args)
}

// RunProgram runs function name as program pid of a launch over grid.
func (mc *Machine) RunProgram(name string, args []Value, pid, grid [3]int) ([]Value, error) {
	fn := mc.Func(name)
	if fn == nil {
		return nil, fmt.Errorf("no tt.func @%s in the module", name)
	}
	if mc.Ops == nil {
		mc.Ops = DefaultOps()
	}
	ex := &Exec{M: mc, PID: pid, Grid: grid, env: map[*ir.Value]Value{}}
	if mc.scratchSize > 0 {
		// Triton's linear program id: x + nx·(y + ny·z), launch order.
		ex.Scratch = mc.scratchBase + mc.scratchSize*int64(pid[0]+grid[0]*(pid[1]+grid[1]*pid[2]))
	}
	return ex.Call(fn, args)
}

// Launch runs function name once for every program of grid, in launch
// order (x fastest, then y, then z), and stops at the first error.
//
// With Workers > 1 the programs run on that many goroutines. The result is
// the sequential one for kernels whose programs do not communicate through
// memory (no program reads or writes bytes another one writes), which is
// all a GPU launch guarantees anyway: each program computes what it would
// alone. Programs of a module that holds an atomic op (tt.atomic_rmw,
// tt.atomic_cas) may well share bytes, and atomic float adds round
// differently in another order, so such modules run one program after
// another whatever Workers says. On an error, Launch returns the error of
// the first failing program in launch order, as the sequential run does
// (programs after it may have run, and written, before it failed).
//
// A module that needs global scratch (ttg.global_scratch_memory_size,
// which Triton's global scratch allocation sets) gets that many bytes per
// program from Mem, which must then be a ScratchMemory, as Triton's
// launcher allocates a buffer for the grid.
func (mc *Machine) Launch(name string, args []Value, grid [3]int) error {
	for _, g := range grid {
		if g < 1 {
			return fmt.Errorf("grid %v: every dimension must be at least 1", grid)
		}
	}
	total := grid[0] * grid[1] * grid[2]
	if err := mc.allocScratch(total); err != nil {
		return err
	}
	workers := min(mc.Workers, total)
	if workers > 1 && !hasAtomics(mc.Module) && !(mc.Print != nil && mc.Module.HasOp("tt.print")) {
		return mc.launchParallel(name, args, grid, workers)
	}
	for i := range total {
		if _, err := mc.RunProgram(name, args, programID(i, grid), grid); err != nil {
			return err
		}
		if mc.Progress != nil {
			mc.Progress(i+1, total)
		}
	}
	return nil
}

// maxScratch bounds the global scratch buffer of one launch (4 GiB), so
// that a module asking for absurd sizes gets an error, not an exhausted
// host.
const maxScratch = 1 << 32

// allocScratch makes the launch's global scratch buffer, for total
// programs, when the module asks for one.
func (mc *Machine) allocScratch(total int) error {
	mc.scratchBase, mc.scratchSize = 0, 0
	size, _ := mc.Module.Op.IntAttr("ttg.global_scratch_memory_size")
	if size <= 0 {
		return nil
	}
	mem, ok := mc.Mem.(ScratchMemory)
	if !ok {
		return fmt.Errorf("the module needs %d bytes of global scratch per program, which a %T cannot give", size, mc.Mem)
	}
	if size > maxScratch/int64(total) {
		return fmt.Errorf("global scratch of %d bytes per program over %d programs is more than the interpreter's %d", size, total, int64(maxScratch))
	}
	base, err := mem.AllocScratch(size * int64(total))
	if err != nil {
		return err
	}
	mc.scratchBase, mc.scratchSize = base, size
	return nil
}

// programID is the id of the i-th program of grid in launch order.
func programID(i int, grid [3]int) [3]int {
	return [3]int{i % grid[0], i / grid[0] % grid[1], i / (grid[0] * grid[1])}
}

// launchParallel runs the programs of grid on workers goroutines, handing
// them out in launch order; after an error it hands out only programs
// before the failing one, so the error returned is the first in launch
// order.
func (mc *Machine) launchParallel(name string, args []Value, grid [3]int, workers int) error {
	if mc.Func(name) == nil { // also fills mc.funcs before the goroutines read it
		return fmt.Errorf("no tt.func @%s in the module", name)
	}
	if mc.Ops == nil {
		mc.Ops = DefaultOps()
	}
	total := grid[0] * grid[1] * grid[2]
	var (
		mu       sync.Mutex
		next     int     // the next program to hand out
		failAt   = total // the first failing program so far
		firstErr error   // its error
		done     int     // programs finished, for Progress
	)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				if i >= failAt {
					mu.Unlock()
					return
				}
				next++
				mu.Unlock()
				_, err := mc.RunProgram(name, args, programID(i, grid), grid)
				mu.Lock()
				if err != nil {
					if i < failAt {
						failAt, firstErr = i, err
					}
				} else {
					done++
					if mc.Progress != nil {
						mc.Progress(done, total)
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return firstErr
}

// hasAtomics reports whether m holds an atomic memory op, whose programs
// Launch runs in order.
func hasAtomics(m *ir.Module) bool {
	return m.HasOp("tt.atomic_rmw", "tt.atomic_cas")
}

// Arg is one argument of a kernel launch: a buffer for a pointer
// parameter, an integer for an integer parameter, a float for a float
// parameter, a strided tensor in a buffer for a tensor descriptor (a
// host-side TMA descriptor). Make one with BufArg, IntArg, FloatArg or
// DescArg.
type Arg struct {
	Buf   *Buffer
	Int   int64
	Float float64
	// Shape and Strides (in elements) of a descriptor's tensor, which
	// starts at Buf's first element; PadNaN: float loads out of bounds
	// read NaN instead of 0.
	Shape, Strides []int64
	PadNaN         bool
	kind           argKind
}

type argKind uint8

const (
	argNone argKind = iota
	argBuf
	argInt
	argFloat
	argDesc
)

// BufArg passes buffer b to a pointer parameter; the kernel sees the
// address of its first element.
func BufArg(b *Buffer) Arg { return Arg{Buf: b, kind: argBuf} }

// IntArg passes v to an integer parameter (truncated to its width).
func IntArg(v int64) Arg { return Arg{Int: v, kind: argInt} }

// FloatArg passes v to a float parameter (rounded to its type, to nearest
// even).
func FloatArg(v float64) Arg { return Arg{Float: v, kind: argFloat} }

// DescArg passes a tensor descriptor over the tensor of shape and strides
// (in elements, outermost first) whose element (0, ..., 0) is b's first
// to a !tt.tensordesc parameter: what Triton's TensorDescriptor(base,
// shape, strides, block_shape) is on the host.
func DescArg(b *Buffer, shape, strides []int64, padNaN bool) Arg {
	return Arg{Buf: b, Shape: shape, Strides: strides, PadNaN: padNaN, kind: argDesc}
}

// Run runs the tt.func funcName of m over grid with args, one per
// parameter, on host memory: every pointer parameter gets its own Buffer
// (Arg.Buf) and an access outside it is an error located at the load or
// store. The kernel's writes land in the buffers. Programs run in launch
// order; errors are *Error values (located at the op) or argument errors.
func Run(m *ir.Module, funcName string, args []Arg, grid [3]int) error {
	return RunWith(m, funcName, args, grid, Options{})
}

// Options are the settings of RunWith; the zero value is Run's.
type Options struct {
	ReduceOrder ReduceOrder           // see Machine.ReduceOrder
	MaxOps      int64                 // see Machine.MaxOps
	MaxWork     int64                 // see Machine.MaxWork
	Progress    func(done, total int) // see Machine.Progress
	Ops         Ops                   // nil: DefaultOps()
	Workers     int                   // see Machine.Workers
	Print       io.Writer             // see Machine.Print
}

// RunWith is Run with options.
func RunWith(m *ir.Module, funcName string, args []Arg, grid [3]int, opts Options) error {
	mem := &BufferMemory{}
	mc := NewMachine(m, mem)
	mc.ReduceOrder, mc.MaxOps, mc.MaxWork, mc.Progress, mc.Workers, mc.Print = opts.ReduceOrder, opts.MaxOps, opts.MaxWork, opts.Progress, opts.Workers, opts.Print
	if opts.Ops != nil {
		mc.Ops = opts.Ops
	}
	fn := mc.Func(funcName)
	if fn == nil {
		return fmt.Errorf("no tt.func @%s in the module", funcName)
	}
	vals, err := BindArgs(fn, args, mem)
	if err != nil {
		return err
	}
	return mc.Launch(funcName, vals, grid)
}

// BindArgs turns launch arguments into the values of fn's parameters,
// placing each buffer in mem.
func BindArgs(fn *ir.Operation, args []Arg, mem *BufferMemory) ([]Value, error) {
	f, _ := tt.AsFunc(fn)
	ft, _ := f.FunctionType().(*ir.FunctionType)
	if ft == nil {
		return nil, fmt.Errorf("@%s has no function type", f.SymName())
	}
	if len(args) != len(ft.Inputs) {
		return nil, fmt.Errorf("@%s takes %d arguments, given %d", f.SymName(), len(ft.Inputs), len(args))
	}
	vals := make([]Value, len(args))
	for i, t := range ft.Inputs {
		a := args[i]
		if _, ok := t.(*ir.TensorDescType); ok {
			d, err := bindDesc(t, a, mem, fmt.Sprintf("argument %d", i))
			if err != nil {
				return nil, fmt.Errorf("argument %d: %v", i, err)
			}
			vals[i] = d
			continue
		}
		e, err := ElemOf(t)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %v", i, err)
		}
		switch {
		case e.IsPtr():
			if a.kind != argBuf || a.Buf == nil {
				return nil, fmt.Errorf("argument %d: parameter of type %s needs a buffer", i, ir.TypeString(t))
			}
			be, err := ElemOf(a.Buf.Elem)
			if err != nil {
				return nil, fmt.Errorf("argument %d: buffer: %v", i, err)
			}
			if len(a.Buf.Data)%be.Bytes() != 0 {
				return nil, fmt.Errorf("argument %d: buffer of %d bytes is not a whole number of %s", i, len(a.Buf.Data), ir.TypeString(a.Buf.Elem))
			}
			vals[i] = scalarInt(e, mem.Add(a.Buf, fmt.Sprintf("argument %d", i)))
		case e.IsInt():
			if a.kind != argInt {
				return nil, fmt.Errorf("argument %d: parameter of type %s needs an integer", i, ir.TypeString(t))
			}
			vals[i] = scalarInt(e, a.Int)
		default:
			if a.kind != argFloat {
				return nil, fmt.Errorf("argument %d: parameter of type %s needs a float", i, ir.TypeString(t))
			}
			vals[i] = scalarFloat(e, e.Float.Round(a.Float, NearestEven, false))
		}
	}
	return vals, nil
}

package passes

import (
	"slices"
	"sync"

	"github.com/layoutopt/layoutopt/ir"
)

// This file is MLIR's greedy pattern rewrite driver
// (GreedyPatternRewriteDriver, applyPatternsGreedily) with its
// OperationFolder, the engine of -canonicalize. The canonicalizations
// themselves — each op's folder and patterns — are registered per op name
// with RegisterCanonicalization (canonicalize_patterns.go registers those
// of the tt, ttg and arith ops).

// FoldResult is one result of a fold: an existing value, or a constant
// attribute that the driver materializes as an arith.constant.
type FoldResult struct {
	Value *ir.Value
	Attr  ir.Attribute
}

// Folder folds op (MLIR's OpFoldResult fold(FoldAdaptor)). operands holds
// the constant value of each operand (the value attribute of a constant
// op defining it) or nil. It returns ok false when op does not fold; ok
// true with nil results after changing op in place; or one FoldResult per
// result of op, which then replace op.
type Folder func(op *ir.Operation, operands []ir.Attribute) (results []FoldResult, ok bool)

// Pattern is a canonicalization pattern rooted at one op kind (MLIR's
// OpRewritePattern). Rewrite either changes the IR through rw and returns
// true, or returns false and leaves the IR as it was. Patterns of an op
// are tried by decreasing Benefit, then in registration order.
type Pattern struct {
	Name    string
	Benefit int
	Rewrite func(rw *Rewriter, op *ir.Operation) bool
}

type canonicalization struct {
	fold     Folder
	patterns []Pattern
}

var (
	canonMu sync.RWMutex
	canon   = map[string]*canonicalization{}
)

// RegisterCanonicalization adds a folder (nil for none) and patterns to
// what -canonicalize applies to ops named opName. A folder may be set once
// per op; patterns accumulate. It is meant for init functions: a dialect
// outside this module registers its ops' canonicalizations next to ours.
func RegisterCanonicalization(opName string, fold Folder, patterns ...Pattern) {
	canonMu.Lock()
	defer canonMu.Unlock()
	c := canon[opName]
	if c == nil {
		c = &canonicalization{}
		canon[opName] = c
	}
	if fold != nil {
		if c.fold != nil {
			panic("passes: a folder for " + opName + " is already registered")
		}
		c.fold = fold
	}
	c.patterns = append(c.patterns, patterns...)
	slices.SortStableFunc(c.patterns, func(a, b Pattern) int { return b.Benefit - a.Benefit })
}

func lookupCanon(name string) *canonicalization {
	canonMu.RLock()
	defer canonMu.RUnlock()
	return canon[name]
}

// greedyConfig is GreedyRewriteConfig's part that we use.
type greedyConfig struct {
	maxIterations int // MLIR's default: 10
	fold          bool
	cseConstants  bool
	// patterns, when set, gives the patterns to try on an op instead of
	// its registered ones (a pass's own pattern set, as a
	// RewritePatternSet passed to applyPatternsGreedily).
	patterns func(op *ir.Operation) []Pattern
	// folds, when set, says which ops fold (all do when it is nil).
	folds func(op *ir.Operation) bool
}

// Rewriter is the PatternRewriter a pattern changes the IR through: every
// change goes through it so that the driver revisits what it touched.
type Rewriter struct {
	worklist []*ir.Operation
	inList   map[*ir.Operation]bool
	erased   map[*ir.Operation]bool

	// The OperationFolder: uniqued constants per insertion region.
	constants map[*ir.Region]map[string]*ir.Operation
	owned     map[*ir.Operation]constKey
}

type constKey struct {
	region *ir.Region
	key    string
}

func newPatternRewriter() *Rewriter {
	return &Rewriter{
		inList:    map[*ir.Operation]bool{},
		erased:    map[*ir.Operation]bool{},
		constants: map[*ir.Region]map[string]*ir.Operation{},
		owned:     map[*ir.Operation]constKey{},
	}
}

func (rw *Rewriter) add(op *ir.Operation) {
	if op == nil || rw.inList[op] || rw.erased[op] {
		return
	}
	rw.inList[op] = true
	rw.worklist = append(rw.worklist, op)
}

func (rw *Rewriter) pop() *ir.Operation {
	for len(rw.worklist) > 0 {
		op := rw.worklist[len(rw.worklist)-1]
		rw.worklist = rw.worklist[:len(rw.worklist)-1]
		delete(rw.inList, op)
		if !rw.erased[op] && op.Block() != nil {
			return op
		}
	}
	return nil
}

// Create makes an op and inserts it right before at; attributes named in
// the op's definition become properties. Its location is at's.
func (rw *Rewriter) Create(at *ir.Operation, name string, operands []*ir.Value, results []ir.Type, attrs []ir.NamedAttr) *ir.Operation {
	op := ir.NewOperation(name, operands, results, attrs, 0)
	op.Loc = at.Loc
	at.Block().InsertBefore(at, op)
	rw.add(op)
	return op
}

// ReplaceOp replaces the results of op by vals and erases op.
func (rw *Rewriter) ReplaceOp(op *ir.Operation, vals ...*ir.Value) {
	for i, r := range op.Results() {
		rw.ReplaceAllUsesWith(r, vals[i])
	}
	rw.EraseOp(op)
}

// ReplaceOpWithNew creates an op right before op, with op's location, and
// replaces op by it (MLIR's replaceOpWithNewOp).
func (rw *Rewriter) ReplaceOpWithNew(op *ir.Operation, name string, operands []*ir.Value, results []ir.Type, attrs []ir.NamedAttr) *ir.Operation {
	n := rw.Create(op, name, operands, results, attrs)
	rw.ReplaceOp(op, n.Results()...)
	return n
}

// replaceKeptResults replaces op by n, which keeps only op's results keep
// (result j of n stands for result keep[j] of op and takes its name hint;
// the others must be unused), and erases op.
func (rw *Rewriter) replaceKeptResults(op, n *ir.Operation, keep []int) {
	for j, k := range keep {
		n.Result(j).NameHint = op.Result(k).NameHint
		rw.ReplaceAllUsesWith(op.Result(k), n.Result(j))
	}
	rw.EraseOp(op)
}

// ReplaceAllUsesWith makes every use of v use w, revisiting the users.
func (rw *Rewriter) ReplaceAllUsesWith(v, w *ir.Value) {
	if v == w {
		return
	}
	for _, u := range v.Users() {
		rw.add(u)
	}
	v.ReplaceAllUsesWith(w)
}

// SetOperand changes operand i of op in place.
func (rw *Rewriter) SetOperand(op *ir.Operation, i int, v *ir.Value) {
	if d := op.Operand(i).DefiningOp(); d != nil {
		rw.add(d)
	}
	op.SetOperand(i, v)
	rw.Modified(op)
}

// Modified records that op was changed in place.
func (rw *Rewriter) Modified(op *ir.Operation) { rw.add(op) }

// EraseOp erases op (its results must be unused) and the ops nested in it;
// the producers of its operands are revisited, as they may have become
// dead.
func (rw *Rewriter) EraseOp(op *ir.Operation) {
	for _, v := range op.Operands() {
		if d := v.DefiningOp(); d != nil {
			rw.add(d)
		}
	}
	op.Walk(func(o *ir.Operation) ir.WalkResult {
		rw.erased[o] = true
		if k, ok := rw.owned[o]; ok {
			delete(rw.constants[k.region], k.key)
			delete(rw.owned, o)
		}
		return ir.Advance
	})
	if err := op.Erase(); err != nil {
		panic("passes: canonicalize: " + err.Error())
	}
}

// constantValue returns the value attribute of v's defining op when that
// op is constant-like, or nil.
func constantValue(v *ir.Value) ir.Attribute {
	if v == nil {
		return nil
	}
	d := v.DefiningOp()
	if d == nil || !d.HasTrait(ir.ConstantLike) || d.NumResults() != 1 {
		return nil
	}
	return d.Attr("value")
}

// insertionRegion is where the folder keeps the constants of block b: the
// nearest enclosing region whose op is isolated from above (or
// unregistered, or top-level).
func insertionRegion(b *ir.Block) *ir.Region {
	for {
		r := b.Parent()
		if r == nil {
			return nil
		}
		p := r.ParentOp()
		if p == nil || p.Def() == nil || p.HasTrait(ir.IsolatedFromAbove) || p.Block() == nil {
			return r
		}
		b = p.Block()
	}
}

// insertKnownConstant uniques the constant op cst (OperationFolder's
// insertKnownConstant): when its region already has the same constant, cst
// is replaced by it and false returned; otherwise cst is recorded and moved
// to the front of the region's entry block unless it is already among the
// constants there.
func (rw *Rewriter) insertKnownConstant(cst *ir.Operation, value ir.Attribute) bool {
	r := insertionRegion(cst.Block())
	if r == nil {
		return true
	}
	key := cst.Name() + " " + ir.AttrString(value) + " : " + ir.TypeString(cst.Result(0).Type())
	m := rw.constants[r]
	if m == nil {
		m = map[string]*ir.Operation{}
		rw.constants[r] = m
	}
	if prev, ok := m[key]; ok && prev != cst {
		rw.ReplaceOp(cst, prev.Result(0))
		return false
	}
	m[key] = cst
	rw.owned[cst] = constKey{r, key}
	entry := r.Entry()
	if cst.Block() != entry || entry.First() != cst && !rw.isOwned(cst.Prev()) {
		cst.MoveBefore(entry.First())
		cst.Loc = nil
	}
	return true
}

func (rw *Rewriter) isOwned(op *ir.Operation) bool {
	if op == nil {
		return false
	}
	_, ok := rw.owned[op]
	return ok
}

// materializeConstant creates the constant value of type t before at, as
// the dialects of Triton do (arith.constant), or returns nil when value
// cannot be the value of such a constant.
func (rw *Rewriter) materializeConstant(at *ir.Operation, value ir.Attribute, t ir.Type) *ir.Value {
	switch a := value.(type) {
	case *ir.IntegerAttr:
		if !ir.TypesEqual(a.Type, t) {
			return nil
		}
	case *ir.FloatAttr:
		if !ir.TypesEqual(a.Type, t) {
			return nil
		}
	case *ir.BoolAttr:
		if !ir.TypesEqual(t, ir.I1) {
			return nil
		}
	case *ir.DenseElementsAttr:
		if !ir.TypesEqual(a.Type, t) {
			return nil
		}
	default:
		return nil
	}
	return rw.Create(at, "arith.constant", nil, []ir.Type{t}, []ir.NamedAttr{{Name: "value", Value: value}}).Result(0)
}

// applyGreedily runs the driver on the ops nested in root until nothing
// changes or maxIterations rounds have run. It reports whether anything
// changed.
func applyGreedily(root *ir.Operation, cfg greedyConfig) bool {
	rw := newPatternRewriter()
	changedAny := false
	for it := 0; it < cfg.maxIterations; it++ {
		rw.worklist = rw.worklist[:0]
		clear(rw.inList)
		// The folder forgets its constants between rounds, as MLIR's
		// driver clears it before each population of the worklist.
		clear(rw.constants)
		clear(rw.owned)
		for _, r := range root.Regions() {
			for _, b := range r.Blocks {
				for o := b.First(); o != nil; {
					next := o.Next()
					o.Walk(func(op *ir.Operation) ir.WalkResult {
						if cfg.cseConstants && op.HasTrait(ir.ConstantLike) {
							if v := constantValue(op.Result(0)); v != nil && op.NumResults() == 1 {
								if !rw.insertKnownConstant(op, v) {
									return ir.Skip
								}
							}
						}
						rw.add(op)
						return ir.Advance
					})
					o = next
				}
			}
		}
		slices.Reverse(rw.worklist)
		changed := rw.processWorklist(cfg)
		if changed {
			changedAny = true
		} else {
			break
		}
	}
	return changedAny
}

func (rw *Rewriter) processWorklist(cfg greedyConfig) bool {
	changed := false
	for {
		op := rw.pop()
		if op == nil {
			return changed
		}
		if triviallyDead(op) {
			rw.EraseOp(op)
			changed = true
			continue
		}
		if cfg.fold && !op.HasTrait(ir.ConstantLike) && (cfg.folds == nil || cfg.folds(op)) && rw.tryFold(op) {
			changed = true
			continue
		}
		if rw.applyPatterns(op, cfg) {
			changed = true
		}
	}
}

// tryFold folds op with its folder and the generic trait folders.
func (rw *Rewriter) tryFold(op *ir.Operation) bool {
	c := lookupCanon(op.Name())
	var res []FoldResult
	ok := false
	if c != nil && c.fold != nil {
		operands := make([]ir.Attribute, op.NumOperands())
		for i, v := range op.Operands() {
			operands[i] = constantValue(v)
		}
		res, ok = c.fold(op, operands)
		if ok && len(res) == 1 && res[0].Value != nil && res[0].Value.DefiningOp() == op {
			res = nil // returned its own result: folded in place
		}
	}
	if !ok || res == nil {
		if foldTraits(op) {
			rw.Modified(op)
			return true
		}
		if ok {
			rw.Modified(op)
			return true
		}
		return false
	}
	if len(res) != op.NumResults() {
		return false
	}
	vals := make([]*ir.Value, len(res))
	var created []*ir.Operation
	for i, r := range res {
		if r.Value != nil {
			vals[i] = r.Value
			continue
		}
		v := rw.materializeConstant(op, r.Attr, op.Result(i).Type())
		if v == nil {
			for _, c := range created {
				rw.EraseOp(c)
			}
			return false
		}
		created = append(created, v.DefiningOp())
		vals[i] = v
	}
	rw.ReplaceOp(op, vals...)
	return true
}

// foldTraits applies the folds MLIR derives from traits: a commutative op
// with a constant first operand and a non-constant second one gets them
// swapped (constants go right).
func foldTraits(op *ir.Operation) bool {
	if op.HasTrait(ir.Commutative) && op.NumOperands() == 2 {
		a, b := op.Operand(0), op.Operand(1)
		if constantValue(a) != nil && constantValue(b) == nil {
			op.SetOperand(0, b)
			op.SetOperand(1, a)
			return true
		}
	}
	return false
}

func (rw *Rewriter) applyPatterns(op *ir.Operation, cfg greedyConfig) bool {
	var ps []Pattern
	if cfg.patterns != nil {
		ps = cfg.patterns(op)
	} else if c := lookupCanon(op.Name()); c != nil {
		ps = c.patterns
	}
	for _, p := range ps {
		if p.Rewrite(rw, op) {
			return true
		}
	}
	return false
}

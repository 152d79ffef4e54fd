package ir

import "unsafe"

// opArena hands out the parser's operations, results and operands from
// slabs: one allocation per slab instead of one per op, and the slabs
// of a large parse are sized and advised for huge pages (see
// adviseHuge), so that building the IR takes few page faults. An op
// keeps its whole slab alive; for a parsed module that is the module.
type opArena struct {
	ops  []Operation
	vals []Value
	uses []opOperand
	locs []FileLineColLoc
	// nOps, nVals, nUses and nLocs are the lengths of the next slabs.
	nOps, nVals, nUses, nLocs int
}

// slabMax is the largest slab, in bytes: a multiple of the 2 MiB huge
// page, and small enough that the last, partly used slab of a parse
// costs little.
const slabMax = 4 << 20

// slabMin is the first slab's length, in elements; each further slab is
// twice the last up to slabMax.
const slabMin = 32

func (a *opArena) op() *Operation {
	if len(a.ops) == 0 {
		a.ops = newSlab[Operation](&a.nOps, 1)
	}
	op := &a.ops[0]
	a.ops = a.ops[1:]
	return op
}

func (a *opArena) results(n int) []Value {
	if n == 0 {
		return nil
	}
	if len(a.vals) < n {
		a.vals = newSlab[Value](&a.nVals, n)
	}
	s := a.vals[:n:n]
	a.vals = a.vals[n:]
	return s
}

func (a *opArena) operands(n int) []opOperand {
	if n == 0 {
		return nil
	}
	if len(a.uses) < n {
		a.uses = newSlab[opOperand](&a.nUses, n)
	}
	s := a.uses[:n:n]
	a.uses = a.uses[n:]
	return s
}

// newSlab allocates the next slab of Ts (at least need of them) and
// updates *next, the length of the one after it.
func newSlab[T any](next *int, need int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	n := max(*next, slabMin)
	*next = min(2*n, slabMax/size)
	if n < need {
		return make([]T, need)
	}
	s := make([]T, n)
	if n*size >= hugePage {
		adviseHuge(unsafe.Pointer(&s[0]), uintptr(n*size))
	}
	return s
}

// value returns a new value (a block argument) from the values' slab.
func (a *opArena) value() *Value { return &a.results(1)[0] }

// fileLoc returns FileLineColLoc{file, line, col} as a Location whose
// data is a slab entry: converting the struct to the interface would
// allocate 32 bytes per op. The entry is never written again, as an
// interface's data must not be.
func (a *opArena) fileLoc(file string, line, col int) Location {
	if len(a.locs) == 0 {
		a.locs = newSlab[FileLineColLoc](&a.nLocs, 1)
	}
	l := &a.locs[0]
	a.locs = a.locs[1:]
	*l = FileLineColLoc{File: file, Line: line, Col: col}
	var loc Location = FileLineColLoc{}
	// An interface value is two words, its type and a pointer to its
	// data: point the data at the slab entry.
	(*[2]unsafe.Pointer)(unsafe.Pointer(&loc))[1] = unsafe.Pointer(l)
	return loc
}

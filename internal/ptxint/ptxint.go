// Package ptxint runs straight-line PTX of 32-bit instructions, the
// subset that inline asm over packed values is usually made of: and, or,
// xor, not, shl, shr (.u32, .s32, .b32), add, sub, mul.lo, mov and prmt
// (its default mode) on 32-bit integers, and add, sub, mul (.rn, the
// default), fma.rn, neg, abs, min, max and mov on f32, with cvt between f32
// and 32-bit integers (cvt.rn.f32.s32/u32, cvt.rzi.s32/u32.f32), on "r" and
// "f" registers, $k operands and immediates (integers, 0fXXXXXXXX f32 bits,
// decimal floats), as the PTX ISA defines them. No .ftz: subnormals are
// kept. An f32 result that is NaN is the canonical NaN 0x7fffffff, as
// NVIDIA GPUs make it; neg and abs flip and clear the sign bit (the ISA
// leaves a NaN input's result unspecified); min and max return the operand
// that is not NaN and order -0 below +0. The interpreter runs
// tt.elementwise_inline_asm with it, and llvmemit's simulator the inline
// PTX the lowering emits.
package ptxint

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Program is parsed inline PTX with its constraints: outputs $0..$(Outs-1),
// then inputs.
type Program struct {
	Outs, Ins int
	tied      map[int]int // input index -> the output whose register it starts in
	instrs    []instr
}

type instr struct {
	op   string
	args []string // destination first
	line int
}

// arity is the operand count of each instruction, destination included.
var arity = map[string]int{
	"and.b32": 3, "or.b32": 3, "xor.b32": 3, "not.b32": 2,
	"shl.b32": 3, "shr.u32": 3, "shr.b32": 3, "shr.s32": 3,
	"add.u32": 3, "add.s32": 3, "sub.u32": 3, "sub.s32": 3,
	"mul.lo.u32": 3, "mul.lo.s32": 3,
	"mov.b32": 2, "mov.u32": 2, "mov.s32": 2,
	"prmt.b32": 4,
	"add.f32":  3, "add.rn.f32": 3, "sub.f32": 3, "sub.rn.f32": 3, "mul.f32": 3, "mul.rn.f32": 3,
	"fma.rn.f32": 4, "neg.f32": 2, "abs.f32": 2, "min.f32": 3, "max.f32": 3, "mov.f32": 2,
	"cvt.rn.f32.s32": 2, "cvt.rn.f32.u32": 2, "cvt.rzi.s32.f32": 2, "cvt.rzi.u32.f32": 2,
}

// Parse reads asm (instructions separated by newlines or semicolons; braces,
// .reg declarations and // comments aside) with its LLVM constraint string
// ("=r" outputs first, then "r" inputs or a digit tying an input to an
// output; "~{…}" clobbers ignored; "f" as "r": 32-bit registers). Every
// register operand is 32 bits.
func Parse(asm, constraints string) (*Program, error) {
	p := &Program{tied: map[int]int{}}
	for _, c := range strings.Split(constraints, ",") {
		c = strings.TrimSpace(c)
		switch {
		case c == "" || strings.HasPrefix(c, "~"):
		case strings.HasPrefix(c, "="):
			if r := strings.TrimLeft(c, "=&"); r != "r" && r != "f" {
				return nil, fmt.Errorf("output constraint %q: only 32-bit registers (r, f) are supported", c)
			}
			p.Outs++
		default:
			if k, err := strconv.Atoi(c); err == nil {
				if k < 0 || k >= p.Outs {
					return nil, fmt.Errorf("input constraint %q ties to no output", c)
				}
				p.tied[p.Ins] = k
			} else if c != "r" && c != "f" {
				return nil, fmt.Errorf("input constraint %q: only 32-bit registers (r, f) are supported", c)
			}
			p.Ins++
		}
	}
	for n, line := range strings.Split(asm, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		for _, stmt := range strings.Split(line, ";") {
			stmt = strings.TrimSpace(strings.Trim(strings.TrimSpace(stmt), "{}"))
			if stmt == "" || strings.HasPrefix(stmt, ".reg") {
				continue
			}
			op, rest, _ := strings.Cut(stmt, " ")
			want, ok := arity[op]
			if !ok {
				return nil, fmt.Errorf("line %d: %q is not an instruction this evaluator runs (32-bit integer and, or, xor, not, shl, shr, add, sub, mul.lo, mov, prmt; f32 add, sub, mul, fma.rn, neg, abs, min, max, mov; cvt between f32 and 32-bit integers)", n+1, stmt)
			}
			args := strings.Split(rest, ",")
			for i := range args {
				args[i] = strings.TrimSpace(args[i])
			}
			if len(args) != want || args[0] == "" {
				return nil, fmt.Errorf("line %d: %s takes %d operands, not %q", n+1, op, want, rest)
			}
			for _, a := range args {
				if err := p.checkOperand(a); err != nil {
					return nil, fmt.Errorf("line %d: %v", n+1, err)
				}
			}
			if isImmediate(args[0]) {
				return nil, fmt.Errorf("line %d: %s writes an immediate", n+1, op)
			}
			p.instrs = append(p.instrs, instr{op, args, n + 1})
		}
	}
	return p, nil
}

func isImmediate(a string) bool {
	return a != "" && (a[0] >= '0' && a[0] <= '9' || a[0] == '-')
}

func (p *Program) checkOperand(a string) error {
	switch {
	case strings.HasPrefix(a, "$"):
		k, err := strconv.Atoi(a[1:])
		if err != nil || k < 0 || k >= p.Outs+p.Ins {
			return fmt.Errorf("operand %s names none of the %d operands", a, p.Outs+p.Ins)
		}
	case isImmediate(a):
		if _, err := immediate(a); err != nil {
			return err
		}
	case a == "" || strings.ContainsAny(a, " []{}"):
		return fmt.Errorf("operand %q is not a register or an immediate", a)
	}
	return nil
}

// immediate reads a PTX literal as 32 bits: an integer (decimal, 0x
// hexadecimal, 0b binary or 0 octal, maybe negative, maybe with a U
// suffix; 32 bits kept), an f32 given by its bits (0fXXXXXXXX) or a
// decimal float (rounded to f32, as PTX converts a literal to the
// instruction's type).
func immediate(a string) (uint32, error) {
	m := strings.TrimPrefix(a, "-")
	if len(m) == 10 && (m[:2] == "0f" || m[:2] == "0F") {
		b, err := strconv.ParseUint(m[2:], 16, 32)
		if err != nil {
			return 0, fmt.Errorf("immediate %q: %v", a, err)
		}
		if m != a {
			b ^= 1 << 31
		}
		return uint32(b), nil
	}
	if !strings.HasPrefix(m, "0x") && !strings.HasPrefix(m, "0X") && strings.ContainsAny(m, ".eE") {
		f, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return 0, fmt.Errorf("immediate %q: %v", a, err)
		}
		return math.Float32bits(float32(f)), nil
	}
	v, err := strconv.ParseInt(strings.TrimSuffix(a, "U"), 0, 64)
	if err != nil {
		if u, uerr := strconv.ParseUint(strings.TrimSuffix(a, "U"), 0, 64); uerr == nil {
			return uint32(u), nil
		}
		return 0, fmt.Errorf("immediate %q: %v", a, err)
	}
	return uint32(v), nil
}

// Run executes the program on one thread's inputs and returns its outputs
// (an output never written is 0, unless an input is tied to it).
func (p *Program) Run(ins []uint32) ([]uint32, error) {
	if len(ins) != p.Ins {
		return nil, fmt.Errorf("%d inputs for %d", len(ins), p.Ins)
	}
	regs := map[string]uint32{}
	for i, v := range ins {
		regs["$"+strconv.Itoa(p.Outs+i)] = v
		if k, ok := p.tied[i]; ok {
			regs["$"+strconv.Itoa(k)] = v
		}
	}
	val := func(a string) uint32 {
		if isImmediate(a) {
			v, _ := immediate(a)
			return v
		}
		return regs[a]
	}
	for _, in := range p.instrs {
		a := in.args
		var r uint32
		switch in.op {
		case "and.b32":
			r = val(a[1]) & val(a[2])
		case "or.b32":
			r = val(a[1]) | val(a[2])
		case "xor.b32":
			r = val(a[1]) ^ val(a[2])
		case "not.b32":
			r = ^val(a[1])
		case "shl.b32":
			r = val(a[1]) << min(val(a[2]), 32)
		case "shr.u32", "shr.b32":
			r = val(a[1]) >> min(val(a[2]), 32)
		case "shr.s32":
			r = uint32(int32(val(a[1])) >> min(val(a[2]), 31))
		case "add.u32", "add.s32":
			r = val(a[1]) + val(a[2])
		case "sub.u32", "sub.s32":
			r = val(a[1]) - val(a[2])
		case "mul.lo.u32", "mul.lo.s32":
			r = val(a[1]) * val(a[2])
		case "mov.b32", "mov.u32", "mov.s32":
			r = val(a[1])
		case "prmt.b32":
			r = prmt(val(a[1]), val(a[2]), val(a[3]))
		default:
			r = f32op(in.op, val, a)
		}
		regs[a[0]] = r
	}
	out := make([]uint32, p.Outs)
	for i := range out {
		out[i] = regs["$"+strconv.Itoa(i)]
	}
	return out, nil
}

// prmt is prmt.b32's default mode: the bytes of {b, a} (a's are 0-3, b's
// 4-7); nibble i of sel picks byte i of the result, its bit 3 replicating
// the picked byte's sign bit instead.
func prmt(a, b, sel uint32) uint32 {
	src := uint64(b)<<32 | uint64(a)
	var r uint32
	for i := range 4 {
		k := sel >> (4 * i) & 15
		byt := uint32(src >> (8 * (k & 7)) & 0xff)
		if k&8 != 0 {
			byt = 0
			if src>>(8*(k&7)+7)&1 != 0 {
				byt = 0xff
			}
		}
		r |= byt << (8 * i)
	}
	return r
}

// canonicalNaN is the NaN NVIDIA GPUs make for an f32 result.
const canonicalNaN = 0x7fffffff

func f32bits(f float32) uint32 {
	if f != f {
		return canonicalNaN
	}
	return math.Float32bits(f)
}

// f32op runs the f32 and cvt instructions (see the package doc).
func f32op(op string, val func(string) uint32, a []string) uint32 {
	f := func(i int) float32 { return math.Float32frombits(val(a[i])) }
	switch op {
	case "add.f32", "add.rn.f32":
		return f32bits(f(1) + f(2))
	case "sub.f32", "sub.rn.f32":
		return f32bits(f(1) - f(2))
	case "mul.f32", "mul.rn.f32":
		return f32bits(f(1) * f(2))
	case "fma.rn.f32":
		return f32bits(fma32(f(1), f(2), f(3)))
	case "neg.f32":
		return val(a[1]) ^ 1<<31
	case "abs.f32":
		return val(a[1]) &^ (1 << 31)
	case "min.f32", "max.f32":
		x, y := f(1), f(2)
		switch {
		case x != x && y != y:
			return canonicalNaN
		case x != x:
			return val(a[2])
		case y != y:
			return val(a[1])
		}
		less := x < y || x == y && math.Signbit(float64(x)) && !math.Signbit(float64(y))
		if less == (op == "min.f32") {
			return val(a[1])
		}
		return val(a[2])
	case "mov.f32":
		return val(a[1])
	case "cvt.rn.f32.s32":
		return math.Float32bits(float32(int32(val(a[1]))))
	case "cvt.rn.f32.u32":
		return math.Float32bits(float32(val(a[1])))
	case "cvt.rzi.s32.f32":
		x := float64(f(1))
		switch {
		case x != x:
			return 0
		case x >= math.MaxInt32:
			return math.MaxInt32
		case x <= math.MinInt32:
			return 1 << 31
		}
		return uint32(int32(math.Trunc(x)))
	case "cvt.rzi.u32.f32":
		x := float64(f(1))
		switch {
		case x != x || x <= 0:
			return 0
		case x >= math.MaxUint32:
			return math.MaxUint32
		}
		return uint32(math.Trunc(x))
	}
	panic("ptxint: no evaluation for " + op) // Parse admits only the ops above
}

// fma32 is x·y + z rounded once to f32 (to nearest even): the product and
// sum exact in a big.Float, then rounded (subnormals too) by Float32.
func fma32(x, y, z float32) float32 {
	if math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) || math.IsInf(float64(z), 0) ||
		x != x || y != y || z != z {
		return float32(float64(x)*float64(y) + float64(z)) // IEEE's special cases
	}
	p := new(big.Float).SetPrec(64).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
	sum := new(big.Float).SetPrec(512).Add(p, big.NewFloat(float64(z)))
	r, _ := sum.Float32()
	if r == 0 && sum.Sign() == 0 {
		// An exact zero sum: -0 only when both addends are -0 (round to nearest).
		if math.Signbit(float64(x*y)) && math.Signbit(float64(z)) {
			return float32(math.Copysign(0, -1))
		}
		return 0
	}
	return r
}

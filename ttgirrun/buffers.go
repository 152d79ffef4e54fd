package ttgirrun

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"

	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/ir"
)

// dtypeNames are the element types a buffer spec may name.
var dtypeNames = map[string]bool{
	"i1": true, "i8": true, "i16": true, "i32": true, "i64": true,
	"f16": true, "bf16": true, "f32": true, "f64": true,
	"f8E5M2": true, "f8E4M3FN": true, "f8E4M3": true, "f8E4M3FNUZ": true, "f8E5M2FNUZ": true, "f8E4M3B11FNUZ": true,
}

// elemType describes a buffer's element type: its size and how a float64
// becomes its bytes and back.
type elemType struct {
	name  string
	bytes int
	float *interp.FloatFormat // nil for integers
	width int                 // integer width
}

func newElemType(t ir.Type) (elemType, error) {
	e, err := interp.ElemOf(t)
	if err != nil {
		return elemType{}, err
	}
	if e.IsPtr() {
		return elemType{}, fmt.Errorf("buffers of pointers are not supported")
	}
	return elemType{name: ir.TypeString(t), bytes: e.Bytes(), float: e.Float, width: e.Width}, nil
}

// put stores v, rounded to nearest even (floats) or truncated (integers).
func (e elemType) put(dst []byte, v float64) { e.putter()(dst, v) }

// putter returns put for e's type, resolved once for a loop.
func (e elemType) putter() func(dst []byte, v float64) {
	switch {
	case e.float == nil:
		return func(dst []byte, v float64) { putUint(dst, uint64(int64(v))) }
	case e.float.Name == "f32":
		return func(dst []byte, v float64) { binary.LittleEndian.PutUint32(dst, math.Float32bits(float32(v))) }
	case e.float.Name == "f64":
		return func(dst []byte, v float64) { binary.LittleEndian.PutUint64(dst, math.Float64bits(v)) }
	}
	f := e.float
	return func(dst []byte, v float64) { putUint(dst, f.Bits(f.Round(v, interp.NearestEven, false))) }
}

// bits returns the element's bits; value returns its value.
func (e elemType) bits(src []byte) uint64 {
	var u uint64
	for i := e.bytes - 1; i >= 0; i-- {
		u = u<<8 | uint64(src[i])
	}
	return u
}

func (e elemType) value(src []byte) float64 {
	u := e.bits(src)
	if e.float != nil {
		switch e.float.Name {
		case "f32":
			return float64(math.Float32frombits(uint32(u)))
		case "f64":
			return math.Float64frombits(u)
		}
		return e.float.FromBits(u)
	}
	if e.width == 1 {
		return float64(u & 1)
	}
	sh := 64 - uint(e.width)
	return float64(int64(u<<sh) >> sh) // sign-extended
}

func putUint(dst []byte, u uint64) {
	for i := range dst {
		dst[i] = byte(u)
		u >>= 8
	}
}

// chunk is the number of elements one random stream fills: buffers are
// filled chunk by chunk in parallel, each chunk from its own stream, so the
// contents depend only on the seed.
const chunk = 1 << 20

// fill makes the contents of a buffer spec of n elements.
func fill(s *spec, e elemType, n int, seed uint64) ([]byte, error) {
	buf := make([]byte, n*e.bytes)
	opt := func(k string, def float64) float64 {
		if v, ok := s.opts[k]; ok {
			return v
		}
		return def
	}
	var gen func(r *rand.Rand, i int) float64
	switch s.kind {
	case "zeros":
		return buf, nil
	case "ones":
		gen = func(*rand.Rand, int) float64 { return 1 }
	case "full":
		v := opt("value", 0)
		gen = func(*rand.Rand, int) float64 { return v }
	case "iota":
		start, step := opt("start", 0), opt("step", 1)
		gen = func(_ *rand.Rand, i int) float64 { return start + step*float64(i) }
	case "rand":
		if e.float != nil {
			lo, hi := opt("lo", -1), opt("hi", 1)
			gen = func(r *rand.Rand, _ int) float64 { return lo + (hi-lo)*r.Float64() }
		} else {
			dlo, dhi := -100.0, 100.0
			if e.width == 1 {
				dlo, dhi = 0, 1
			}
			lo, hi := int64(math.Ceil(opt("lo", dlo))), int64(math.Floor(opt("hi", dhi)))
			if hi < lo {
				return nil, fmt.Errorf("no integer in [lo, hi]")
			}
			span := uint64(hi - lo + 1)
			gen = func(r *rand.Rand, _ int) float64 {
				if span == 0 { // the whole 64-bit range
					return float64(int64(r.Uint64()))
				}
				return float64(lo + int64(r.Uint64N(span)))
			}
		}
	case "randn":
		mean, std := opt("mean", 0), opt("std", 1)
		gen = func(r *rand.Rand, _ int) float64 { return mean + std*r.NormFloat64() }
	default:
		return nil, fmt.Errorf("cannot fill a buffer of kind %s", s.kind)
	}
	if s.seeded {
		seed = s.seed
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := 0; c*chunk < n; c++ {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			r := rand.New(rand.NewPCG(seed, uint64(c)))
			put, w := e.putter(), e.bytes
			for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
				put(buf[i*w:(i+1)*w], gen(r, i))
			}
		})
	}
	wg.Wait()
	return buf, nil
}

// argSeed is the seed of an argument without seed=: the run's -seed mixed
// with the argument's name, so that two arguments differ.
func argSeed(runSeed uint64, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return runSeed ^ h.Sum64()
}

// format prints a value of the type in the fewest digits that read back
// to it (floats narrower than f64 as float32s, which hold them exactly).
func (e elemType) format(v float64) string {
	if e.float == nil {
		return strconv.FormatInt(int64(v), 10)
	}
	bits := 64
	if e.bytes < 8 {
		bits = 32
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

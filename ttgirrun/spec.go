package ttgirrun

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A spec is the parsed right-hand side of one -arg NAME=SPEC.
//
// Scalars (for integer and float parameters) are literals: 65536, -3, 0x10,
// 2.5, 1e-3, true, false. Buffers (for pointer parameters) are
//
//	KIND[:DTYPE][:COUNT][:OPT=VALUE…]
//
// KIND is rand (uniform in [lo, hi): floats in [-1, 1), integers in
// [-100, 100], i1 in [0, 1] unless lo= and hi= say otherwise; seed= picks
// the stream, which otherwise comes from -seed and the argument's name),
// randn (normal, mean= and std=, default 0 and 1), zeros, ones, full
// (value=), iota (start= + step=·i, default 0 and 1), or file:PATH (the
// file's raw little-endian bytes, its size a whole number of elements; the
// rest of the spec is the path). DTYPE is the element type (f32, f16, bf16,
// f8E5M2, i32, …) and must be the parameter's pointee type: it is there to
// be checked, not to reinterpret memory. COUNT is a number of elements or a
// shape, 4096x4096, which mismatch reports use for coordinates. A tensor
// descriptor parameter's spec may add padding=zero (the default) or
// padding=nan: what loads read out of bounds (Triton's TensorDescriptor
// padding; NaN for float elements only).
type spec struct {
	text string // as written, for messages

	// A scalar.
	scalar bool
	lit    string

	// A buffer.
	kind   string // rand, randn, zeros, ones, full, iota, file
	dtype  string // "" when not given
	shape  []int  // nil when not given (file: from its size)
	path   string // kind file
	opts   map[string]float64
	seeded bool
	seed   uint64
	// padding is a tensor descriptor's: "zero" or "nan" (Triton's
	// TensorDescriptor padding), "" when not given.
	padding string
}

var bufferKinds = map[string][]string{ // kind -> its options
	"rand":  {"lo", "hi", "seed"},
	"randn": {"mean", "std", "seed"},
	"zeros": nil,
	"ones":  nil,
	"full":  {"value"},
	"iota":  {"start", "step"},
}

// specError is a bad spec, with the byte offset in the spec text it is at.
type specError struct {
	off int
	msg string
}

func (e *specError) Error() string { return e.msg }

// parseSpec parses one spec; dtypes is the set of element type names.
func parseSpec(text string) (*spec, error) {
	s := &spec{text: text}
	if text == "" {
		return nil, &specError{0, "empty spec"}
	}
	kind, rest, hasRest := strings.Cut(text, ":")
	if kind == "file" {
		if !hasRest || rest == "" {
			return nil, &specError{len(text), "file: needs a path"}
		}
		s.kind, s.path = "file", rest
		return s, nil
	}
	known, ok := bufferKinds[kind]
	if !ok {
		if hasRest {
			return nil, &specError{0, fmt.Sprintf("unknown buffer kind %q (want rand, randn, zeros, ones, full, iota or file)", kind)}
		}
		if _, err := parseScalar(text); err != nil {
			return nil, &specError{0, fmt.Sprintf("%q is neither a number nor a buffer spec such as rand:f32:65536", text)}
		}
		s.scalar, s.lit = true, text
		return s, nil
	}
	s.kind, s.opts = kind, map[string]float64{}
	off := len(kind) + 1
	if !hasRest {
		return nil, &specError{len(text), fmt.Sprintf("%s needs a count (%s:COUNT or %s:DTYPE:COUNT)", kind, kind, kind)}
	}
	for _, f := range strings.Split(rest, ":") {
		switch {
		case f == "":
			return nil, &specError{off, "empty field"}
		case strings.HasPrefix(f, "padding="):
			v := strings.TrimPrefix(f, "padding=")
			if s.padding != "" {
				return nil, &specError{off, "option padding given twice"}
			}
			if v != "zero" && v != "nan" {
				return nil, &specError{off + len("padding="), fmt.Sprintf("padding=%q: want zero or nan (a tensor descriptor's out-of-bounds elements)", v)}
			}
			s.padding = v
		case strings.Contains(f, "="):
			k, v, _ := strings.Cut(f, "=")
			if !contains(known, k) {
				if len(known) == 0 {
					return nil, &specError{off, fmt.Sprintf("%s takes no options", kind)}
				}
				return nil, &specError{off, fmt.Sprintf("unknown option %q of %s (want %s)", k, kind, strings.Join(known, ", "))}
			}
			if _, dup := s.opts[k]; dup || (k == "seed" && s.seeded) {
				return nil, &specError{off, fmt.Sprintf("option %s given twice", k)}
			}
			if k == "seed" {
				u, err := strconv.ParseUint(v, 0, 64)
				if err != nil {
					return nil, &specError{off + len(k) + 1, fmt.Sprintf("seed %q is not an unsigned integer", v)}
				}
				s.seeded, s.seed = true, u
			} else {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, &specError{off + len(k) + 1, fmt.Sprintf("%s=%q is not a finite number", k, v)}
				}
				s.opts[k] = x
			}
		case f[0] >= '0' && f[0] <= '9':
			if s.shape != nil {
				return nil, &specError{off, "a second count"}
			}
			shape, err := parseShape(f)
			if err != nil {
				return nil, &specError{off, err.Error()}
			}
			s.shape = shape
		default:
			if s.dtype != "" {
				return nil, &specError{off, fmt.Sprintf("a second element type %q", f)}
			}
			if s.shape != nil {
				return nil, &specError{off, "the element type comes before the count"}
			}
			if _, ok := dtypeNames[f]; !ok {
				return nil, &specError{off, fmt.Sprintf("unknown element type %q", f)}
			}
			s.dtype = f
		}
		off += len(f) + 1
	}
	if s.shape == nil {
		return nil, &specError{len(text), fmt.Sprintf("%s needs a count, such as %s:65536 or %s:1024x1024", kind, kind, kind)}
	}
	if lo, ok := s.opts["lo"]; ok {
		if hi, ok := s.opts["hi"]; ok && hi < lo {
			return nil, &specError{0, fmt.Sprintf("lo=%v is above hi=%v", lo, hi)}
		}
	}
	if sd, ok := s.opts["std"]; ok && sd < 0 {
		return nil, &specError{0, "std is negative"}
	}
	return s, nil
}

// maxElements bounds a buffer's element count (16 Gi elements).
const maxElements = 1 << 34

func parseShape(f string) ([]int, error) {
	var shape []int
	n := 1
	for _, d := range strings.Split(f, "x") {
		v, err := strconv.Atoi(d)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("bad count %q (want N or a shape such as 1024x1024)", f)
		}
		if n > maxElements/v {
			return nil, fmt.Errorf("count %s is too large", f)
		}
		n *= v
		shape = append(shape, v)
	}
	return shape, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A scalarValue is a parsed scalar literal.
type scalarValue struct {
	isInt bool
	i     int64
	f     float64
}

func parseScalar(t string) (scalarValue, error) {
	switch t {
	case "true":
		return scalarValue{isInt: true, i: 1}, nil
	case "false":
		return scalarValue{isInt: true}, nil
	}
	if i, err := strconv.ParseInt(t, 0, 64); err == nil {
		return scalarValue{isInt: true, i: i, f: float64(i)}, nil
	}
	if u, err := strconv.ParseUint(t, 0, 64); err == nil { // a u64 bit pattern
		return scalarValue{isInt: true, i: int64(u), f: float64(u)}, nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return scalarValue{}, err
	}
	return scalarValue{f: f}, nil
}

// parseGrid parses -grid X[,Y[,Z]].
func parseGrid(t string) ([3]int, error) {
	g := [3]int{1, 1, 1}
	parts := strings.Split(t, ",")
	if len(parts) > 3 {
		return g, fmt.Errorf("-grid %s: at most three dimensions", t)
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v <= 0 || v > math.MaxInt32 {
			return g, fmt.Errorf("-grid %s: %q is not a positive 32-bit count", t, p)
		}
		g[i] = v
	}
	return g, nil
}

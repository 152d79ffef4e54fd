package tensorlayout

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/linear"
	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/smem"
)

// elemBits is the width in bits of a TTGIR element type: f16 → 16,
// !tt.ptr<…> → 64, i1 → 1; unknown types count as 32.
func elemBits(elem string) int {
	if strings.HasPrefix(elem, "!tt.ptr") {
		return 64
	}
	i := strings.IndexAny(elem, "0123456789")
	if i < 0 {
		return 32
	}
	j := i
	for j < len(elem) && elem[j] >= '0' && elem[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(elem[i:j])
	if err != nil || n <= 0 {
		return 32
	}
	return n
}

// accessBits is the width smem counts a shared-memory access of elements of
// bits with: at least a byte, a power of two.
func accessBits(bits int) int {
	b := 8
	for b < bits && b < 128 {
		b *= 2
	}
	return b
}

// parseTarget reads -target: Triton's "cuda:CC" or a bare compute
// capability CC (80, 90, 100, …).
func parseTarget(s string) (smem.Target, error) {
	cc, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(s), "cuda:"))
	if err != nil || cc < 10 {
		return smem.Target{}, fmt.Errorf("want cuda:CC or a compute capability CC such as 80 or 90, got %q", s)
	}
	return smem.Target{ComputeCapability: cc}, nil
}

// parseLayoutArg parses text[start:end], the value of flag, as a layout
// encoding; on error it reports it located in the flag and returns nil and
// the exit status.
func parseLayoutArg(p *proc.Proc, flag, text string, start, end int, resolve func(string) (attr.Encoding, bool)) (attr.Layout, int) {
	src := text[start:end]
	enc, n, err := attr.Parse(src, resolve)
	if err != nil {
		var ae *attr.Error
		if errors.As(err, &ae) {
			return nil, failAt(p, flag, text, start+ae.Offset, ae.Msg)
		}
		return nil, fail(p, "%v", err)
	}
	if rest := strings.TrimSpace(src[n:]); rest != "" {
		return nil, failAt(p, flag, text, start+n+len(src[n:])-len(strings.TrimLeft(src[n:], " \t\n")), fmt.Sprintf("unexpected %q after the attribute", rest))
	}
	l, ok := enc.(attr.Layout)
	if !ok {
		return nil, fail(p, "%s: %s is a memory space, not a layout", flag, enc.Format(nil))
	}
	if err := l.Verify(attr.ModuleInfo{}); err != nil {
		return nil, fail(p, "%s: %s: %v", flag, enc.Format(nil), err)
	}
	return l, 0
}

// svgLayout writes -view svg of one layout.
func svgLayout(w io.Writer, title string, l attr.Layout, ll linear.Layout, tt tensorType) error {
	f, err := layoutFigure(title, l, ll, tt.shape, elemBits(tt.elem), defaultLimits)
	if err != nil {
		return err
	}
	return writeFigure(w, f)
}

// layoutFigure is the picture of one layout on a shape: distributed or
// shared.
func layoutFigure(title string, l attr.Layout, ll linear.Layout, shape []int, bits int, lim svgLimits) (*figure, error) {
	switch layoutKind(ll) {
	case "distributed":
		return distributedFigure(title, ll, shape, lim)
	case "shared":
		return sharedFigure(title, ll, shape, accessBits(bits), nil, lim)
	}
	return nil, fmt.Errorf("%s: -view svg draws distributed and shared layouts; this one has in-dims %v (use -view tensor)", l.Format(nil), ll.InDimNames())
}

// svgPair writes -l SRC -to DST (a conversion) or -l REG -shared SHARED
// (one access instruction) as SVG. A conversion through shared memory is
// planned for target (nil: Triton's generic plan, st/ld.shared only).
func svgPair(w io.Writer, a, b attr.Layout, flag string, tt tensorType, target *smem.Target) error {
	la, err := a.ToLinear(tt.shape)
	if err != nil {
		return fmt.Errorf("-l: %v", err)
	}
	lb, err := b.ToLinear(tt.shape)
	if err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	if layoutKind(la) != "distributed" {
		return fmt.Errorf("with %s, -l must be a distributed (register) layout; %s is not", flag, a.Format(nil))
	}
	bits := elemBits(tt.elem)
	var f *figure
	if flag == "-shared" {
		if layoutKind(lb) != "shared" {
			return fmt.Errorf("-shared must be a shared layout; %s is not", b.Format(nil))
		}
		bw := accessBits(bits)
		acc, err := instruction(la, lb, tt.shape, bw)
		if err != nil {
			return err
		}
		title := "store of " + a.Format(nil) + " to " + b.Format(nil)
		if f, err = sharedFigure(title, lb, tt.shape, bw, acc, defaultLimits); err != nil {
			return err
		}
	} else {
		if layoutKind(lb) != "distributed" {
			return fmt.Errorf("-to must be a distributed layout; %s is not (use -shared for a shared layout)", b.Format(nil))
		}
		t := smem.Target{}
		if target != nil {
			t = *target
		}
		plan, err := smem.PlanConversion(la, lb, accessBits(bits), t)
		if err != nil {
			return err
		}
		title := "convert_layout " + a.Format(nil) + " -> " + b.Format(nil)
		if f, err = conversionFigure(title, la, lb, tt.shape, plan, defaultLimits); err != nil {
			return err
		}
	}
	return writeFigure(w, f)
}

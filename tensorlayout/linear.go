package tensorlayout

import (
	"fmt"

	"github.com/layoutopt/layoutopt/attr"
	"github.com/layoutopt/layoutopt/linear"
)

// linearText is the one-line linear form of a layout: #ttg.linear<{…}> for
// distributed layouts, #ttg.shared_linear<{…}, alignment = N> for shared
// ones (the alignment Triton gives the encoding: 128·maxPhase bytes for
// nvmma_shared, 16 otherwise).
func linearText(l attr.Layout, ll linear.Layout) (string, error) {
	switch e := l.(type) {
	case attr.Distributed:
		return ll.AttrString(), nil
	case *attr.TensorMemory:
		return "", fmt.Errorf("tensor memory layouts (row, col, block) have no #ttg.linear form; use -view json")
	case attr.Shared:
		align := 16
		switch e := e.(type) {
		case *attr.NVMMAShared:
			align = 128
			if e.SwizzlingByteWidth != 0 {
				align = 128 * (e.SwizzlingByteWidth / 16)
			}
		case *attr.SharedLinear:
			align = e.Alignment
		}
		sl := &attr.SharedLinear{Offset: nonNil(ll.Bases("offset")), Block: nonNil(ll.Bases("block")), Alignment: align}
		return sl.Format(nil), nil
	}
	return "", fmt.Errorf("%s has no linear form", l.Format(nil))
}

func nonNil(b [][]int) [][]int {
	if b == nil {
		return [][]int{}
	}
	return b
}

package ttgirrun

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/layoutopt/layoutopt/cuda"
	"github.com/layoutopt/layoutopt/passes"
)

// entryParams counts the .param declarations of the PTX kernel (.entry)
// called name; ok is false when the PTX has no such entry.
func entryParams(ptx []byte, name string) (n int, ok bool) {
	re := regexp.MustCompile(`\.entry\s+` + regexp.QuoteMeta(name) + `\s*\(([^)]*)\)`)
	m := re.FindSubmatch(ptx)
	if m == nil {
		return 0, false
	}
	return strings.Count(string(m[1]), ".param"), true
}

// checkABI checks that the PTX kernel takes the tt.func's parameters and
// Triton's two scratch pointers, so that a launch cannot read garbage.
func checkABI(ptx []byte, meta cuda.Meta, k *kernel) error {
	n, ok := entryParams(ptx, meta.Name)
	if !ok {
		return nil // the driver names the missing kernel
	}
	if want := len(k.params) + 2; n != want {
		return fmt.Errorf("the PTX kernel %s takes %d parameters, but @%s has %d and Triton's ABI adds 2 scratch pointers (%d)",
			meta.Name, n, k.name, len(k.params), want)
	}
	return nil
}

// translateKernel is one entry of layout-translate's -kernel-json.
type translateKernel struct {
	Name               string `json:"name"`
	Threads            int    `json:"threads"`
	NumWarps           int    `json:"num_warps"`
	SharedBytes        int    `json:"shared_bytes"`
	GlobalScratchSize  int    `json:"global_scratch_size"`
	GlobalScratchAlign int    `json:"global_scratch_align"`
}

// parseMeta reads -meta: Triton's kernel metadata (an object), or
// layout-translate's -kernel-json (an array of kernels, of which the one
// named like the tt.func, or the only one, is taken).
func parseMeta(data []byte, funcName string) (cuda.Meta, error) {
	trimmed := strings.TrimSpace(string(data))
	if !strings.HasPrefix(trimmed, "[") {
		return cuda.ParseMeta(data)
	}
	var ks []translateKernel
	if err := json.Unmarshal(data, &ks); err != nil {
		return cuda.Meta{}, fmt.Errorf("kernel metadata: %v", err)
	}
	var pick *translateKernel
	for i := range ks {
		if ks[i].Name == funcName || len(ks) == 1 {
			pick = &ks[i]
		}
	}
	if pick == nil {
		return cuda.Meta{}, fmt.Errorf("kernel metadata: no kernel %s among %d", funcName, len(ks))
	}
	m := cuda.Meta{Name: pick.Name, NumWarps: pick.NumWarps, Shared: pick.SharedBytes,
		GlobalScratchSize: pick.GlobalScratchSize, GlobalScratchAlign: pick.GlobalScratchAlign}
	if m.NumWarps > 0 && pick.Threads > 0 {
		m.ThreadsPerWarp = pick.Threads / m.NumWarps
	}
	enc, _ := json.Marshal(m)
	return cuda.ParseMeta(enc) // validates
}

// tensorMap is the TMA descriptor of a descriptor argument over its device
// buffer b, as Triton's launcher makes it for a TensorDescriptor (the box
// from the parameter's type, 128-byte L2 promotion, the spec's padding).
func tensorMap(ctx *cuda.Context, a *arg, b *cuda.Buffer) (*cuda.TensorMap, error) {
	tb, err := passes.TMABoxOf(a.p.desc)
	if err != nil {
		return nil, err
	}
	shape, strides := a.descDims()
	t := cuda.Tiled{DataType: int(tb.HostElemType()), ElemBytes: tb.ElemBytes, Base: b.Ptr(), Swizzle: int(tb.SwizzleMode), L2Promotion: 2,
		NaNFill: a.spec.padding == "nan"}
	for d := range shape {
		t.Dims = append(t.Dims, uint64(shape[d]))
		t.Box = append(t.Box, uint32(tb.Box[d]))
		if d+1 < len(shape) {
			t.Strides = append(t.Strides, uint64(strides[d])*uint64(tb.ElemBytes))
		}
	}
	return ctx.EncodeTiled(t)
}

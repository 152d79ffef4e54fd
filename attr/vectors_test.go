package attr

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// vecEnc is an encoding as the Triton unit tests' helpers describe it.
type vecEnc struct {
	Kind                                              string
	SizePerThread, ThreadsPerWarp, WarpsPerCTA, Order []int
	CTAsPerCGA, CTASplitNum, CTAOrder                 []int
	VersionMajor, VersionMinor, Version               int
	InstrShape, TilesPerWarp                          []int
	IsTransposed, Transposed, FP4Padded               bool
	ElementBitWidth                                   int
	OpIdx, KWidth, Dim                                int
	Parent                                            *vecEnc
	Vec, PerPhase, MaxPhase                           int
	SwizzlingByteWidth                                int
	BlockM, BlockN, ColStride                         int
	TwoCTAs                                           bool
}

func (v *vecEnc) cga(t *testing.T, rank int) CGALayout {
	if v.CTAOrder == nil {
		return CGALayout{}
	}
	c, err := CGAFromSplit(v.CTAsPerCGA, v.CTASplitNum, v.CTAOrder)
	if err != nil {
		t.Fatalf("CGAFromSplit: %v", err)
	}
	return c
}

// build returns the encoding, or nil for kinds attr does not model.
func (v *vecEnc) build(t *testing.T) Layout {
	switch v.Kind {
	case "blocked":
		return &Blocked{v.SizePerThread, v.ThreadsPerWarp, v.WarpsPerCTA, v.Order, v.cga(t, len(v.Order))}
	case "nvidia_mma":
		return &NvidiaMma{v.VersionMajor, v.VersionMinor, v.WarpsPerCTA, v.cga(t, len(v.WarpsPerCTA)), v.InstrShape}
	case "amd_mfma":
		ebw := v.ElementBitWidth
		if ebw == 0 {
			ebw = 32
		}
		return &AMDMfma{v.Version, v.WarpsPerCTA, v.InstrShape, v.IsTransposed, v.cga(t, len(v.WarpsPerCTA)), v.TilesPerWarp, ebw}
	case "amd_wmma":
		return &AMDWmma{v.Version, v.IsTransposed, v.WarpsPerCTA, v.TilesPerWarp, v.cga(t, len(v.WarpsPerCTA)), v.InstrShape}
	case "dot_op":
		return &DotOperand{v.OpIdx, v.Parent.build(t).(Distributed), v.KWidth}
	case "slice":
		return &Slice{v.Dim, v.Parent.build(t).(Distributed)}
	case "swizzled_shared":
		return &SwizzledShared{v.Vec, v.PerPhase, v.MaxPhase, v.Order, v.cga(t, len(v.Order))}
	case "amd_rotating_shared":
		return &AMDRotatingShared{v.Vec, v.PerPhase, v.MaxPhase, v.Order, v.cga(t, len(v.Order))}
	case "nvmma_shared":
		return &NVMMAShared{v.SwizzlingByteWidth, v.Transposed, v.ElementBitWidth, v.FP4Padded, len(v.CTAOrder), v.cga(t, len(v.CTAOrder))}
	case "tensor_memory":
		return &TensorMemory{BlockM: v.BlockM, BlockN: v.BlockN, ColStride: v.ColStride, TwoCTAs: v.TwoCTAs}
	}
	return nil
}

func TestConversionVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedDir(t), "vectors", "triton_linear_layout.json"))
	if err != nil {
		t.Skip(err)
	}
	var file struct {
		Conversions []struct {
			Name        string
			Case        int
			Encoding    vecEnc
			Shape       []int
			Expected    map[string][][]int
			InDims      []string `json:"in_dims"`
			OutDimSizes []int    `json:"out_dim_sizes"`
		}
		Equivalences []struct {
			Name string
			A, B struct {
				Shape    []int
				Encoding vecEnc
			}
		} `json:"conversion_equivalences"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	ok := 0
	for _, c := range file.Conversions {
		enc := c.Encoding.build(t)
		if enc == nil {
			t.Errorf("%s#%d: encoding kind %q not modelled", c.Name, c.Case, c.Encoding.Kind)
			continue
		}
		l, err := convert(enc, c.Shape)
		if err != nil {
			t.Errorf("%s#%d: %s at %v: %v", c.Name, c.Case, enc.Format(nil), c.Shape, err)
			continue
		}
		if !sameBases(l, c.InDims, c.Expected, c.OutDimSizes) {
			t.Errorf("%s#%d: %s at %v:\n got %v %v %v\nwant %v %v", c.Name, c.Case, enc.Format(nil), c.Shape, l.InDimNames(), basesOf(l), outSizes(l), c.Expected, c.OutDimSizes)
			continue
		}
		ok++
	}
	t.Logf("conversion vectors matched: %d of %d", ok, len(file.Conversions))
	for _, e := range file.Equivalences {
		a, err1 := convert(e.A.Encoding.build(t), e.A.Shape)
		b, err2 := convert(e.B.Encoding.build(t), e.B.Shape)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", e.Name, err1, err2)
			continue
		}
		if !sameBases(a, b.InDimNames(), basesOf(b), outSizes(b)) {
			t.Errorf("%s: layouts differ:\n%v\n%v", e.Name, basesOf(a), basesOf(b))
		}
	}
}

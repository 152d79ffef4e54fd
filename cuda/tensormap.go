package cuda

import (
	"fmt"
	"unsafe"
)

// TensorMap is a CUtensorMap: the 128-byte descriptor of a tensor in
// global memory that the TMA (sm_90's tensor memory accelerator) copies
// boxes of, made on the host by EncodeTiled and passed to a kernel by
// value (a kernel argument of type TensorMap or *TensorMap: Triton 3.6's
// nvTmaDesc, a !tt.tensordesc parameter).
type TensorMap [128]byte

// Tiled describes a tensor for EncodeTiled, outermost dimension first (the
// order of Triton's shapes; the driver's arrays are innermost first).
type Tiled struct {
	// DataType is a CUtensorMapDataType (0 UINT8, 1 UINT16, 2 UINT32,
	// 3 INT32, 4 UINT64, 5 INT64, 6 FLOAT16, 7 FLOAT32, 8 FLOAT64,
	// 9 BFLOAT16, ...); ElemBytes its size.
	DataType  int
	ElemBytes int
	// Base is the tensor's first element, 16-byte aligned.
	Base DevicePtr
	// Dims are the tensor's sizes (1 to 5 dimensions); Strides the bytes
	// between consecutive indices of every dimension but the innermost,
	// whose elements are contiguous (multiples of 16).
	Dims    []uint64
	Strides []uint64
	// Box is the block one copy moves, at most 256 a dimension (the
	// innermost's bytes a multiple of 16, at most the swizzle width when
	// swizzled).
	Box []uint32
	// Swizzle is the CUtensorMapSwizzle: 0 none, 1 32-byte, 2 64-byte,
	// 3 128-byte. L2Promotion is a CUtensorMapL2promotion (0 none, 1 64B,
	// 2 128B, 3 256B; Triton uses 2). NaNFill fills out-of-bounds float
	// elements with NaN instead of 0 (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA).
	Swizzle     int
	L2Promotion int
	NaNFill     bool
}

// EncodeTiled makes the tensor map of t (cuTensorMapEncodeTiled, with
// element strides 1 and no interleave, as Triton's launcher calls it).
// The driver checks t; its CUresult comes back as the error.
func (c *Context) EncodeTiled(t Tiled) (*TensorMap, error) {
	r := len(t.Dims)
	switch {
	case r < 1 || r > 5:
		return nil, fmt.Errorf("cuda: a tensor map of %d dimensions (1 to 5)", r)
	case len(t.Strides) != r-1 || len(t.Box) != r:
		return nil, fmt.Errorf("cuda: a tensor map of %d dimensions takes %d strides and %d box sizes, given %d and %d", r, r-1, r, len(t.Strides), len(t.Box))
	}
	dims := make([]uint64, r)
	box := make([]uint32, r)
	elemStrides := make([]uint32, r)
	strides := make([]uint64, r) // the driver reads r-1; one more keeps the pointer valid at rank 1
	for i := range r {
		dims[i], box[i], elemStrides[i] = t.Dims[r-1-i], t.Box[r-1-i], 1
		if i+1 < r {
			strides[i] = t.Strides[r-2-i]
		}
	}
	fill := uint32(0)
	if t.NaNFill {
		fill = 1
	}
	if drv.cuTensorMapEncodeTiled == nil {
		return nil, fmt.Errorf("cuda: the driver has no cuTensorMapEncodeTiled (CUDA 12 or later)")
	}
	m := new(TensorMap)
	err := c.call("cuTensorMapEncodeTiled", func() Result {
		return drv.cuTensorMapEncodeTiled(unsafe.Pointer(m), uint32(t.DataType), uint32(r), uintptr(t.Base),
			&dims[0], &strides[0], &box[0], &elemStrides[0], 0, uint32(t.Swizzle), uint32(t.L2Promotion), fill)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

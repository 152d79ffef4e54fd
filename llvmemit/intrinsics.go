package llvmemit

// NVVMIntrinsics is the allow-list of llvm.nvvm.* intrinsics this package
// may declare: each is an intrinsic of LLVM 14 (TestNVVMAllowList checks
// them against libLLVM-14's own table when it is installed). LLVM 14 makes
// any other llvm.nvvm.* name an external function, which llc accepts and
// ptxas or the driver rejects only on the GPU.
var NVVMIntrinsics = map[string]bool{
	"llvm.nvvm.read.ptx.sreg.tid.x":    true,
	"llvm.nvvm.read.ptx.sreg.ctaid.x":  true,
	"llvm.nvvm.read.ptx.sreg.ctaid.y":  true,
	"llvm.nvvm.read.ptx.sreg.ctaid.z":  true,
	"llvm.nvvm.read.ptx.sreg.nctaid.x": true,
	"llvm.nvvm.read.ptx.sreg.nctaid.y": true,
	"llvm.nvvm.read.ptx.sreg.nctaid.z": true,
	"llvm.nvvm.barrier0":               true,
	"llvm.nvvm.bar.warp.sync":          true,
	"llvm.nvvm.shfl.sync.bfly.i32":     true,
	"llvm.nvvm.shfl.sync.idx.i32":      true,
	"llvm.nvvm.shfl.sync.up.i32":       true,
	"llvm.nvvm.ex2.approx.f":           true,
	"llvm.nvvm.ex2.approx.ftz.f":       true,
	"llvm.nvvm.lg2.approx.f":           true,
	"llvm.nvvm.sqrt.rn.f":              true,
	"llvm.nvvm.sqrt.rn.d":              true,
	"llvm.nvvm.sqrt.approx.f":          true,
	"llvm.nvvm.sqrt.approx.ftz.f":      true,
	"llvm.nvvm.rsqrt.approx.f":         true,
	"llvm.nvvm.rsqrt.approx.ftz.f":     true,
	"llvm.nvvm.rsqrt.approx.d":         true,
	"llvm.nvvm.mulhi.ui":               true,
	"llvm.nvvm.mulhi.ull":              true,
	"llvm.nvvm.mulhi.i":                true,
	"llvm.nvvm.mulhi.ll":               true,
	"llvm.nvvm.cp.async.commit.group":  true,
	"llvm.nvvm.cp.async.wait.group":    true,
	"llvm.nvvm.vote.ballot.sync":       true,
	"llvm.nvvm.redux.sync.add":         true,
	"llvm.nvvm.redux.sync.and":         true,
	"llvm.nvvm.redux.sync.or":          true,
	"llvm.nvvm.redux.sync.xor":         true,
	"llvm.nvvm.redux.sync.min":         true,
	"llvm.nvvm.redux.sync.umin":        true,
	"llvm.nvvm.redux.sync.max":         true,
	"llvm.nvvm.redux.sync.umax":        true,
	"llvm.nvvm.prmt":                   true,
}

package llvmemit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

// LLCArgs are the llc-14 flags the emitted modules are written for.
// -fp-contract=fast fuses a float multiply and the add using it into one
// fma (and leaves mul/add without .rn, free for ptxas to fuse), as
// Triton's default enable_fp_fusion does.
var LLCArgs = []string{"-march=nvptx64", "-mcpu=sm_80", "-mattr=+ptx70", "--nvptx-short-ptr", "-fp-contract=fast"}

// FindLLC returns the llc of LLVM 14: $LLC when set, else llc-14 on PATH,
// else /usr/lib/llvm-14/bin/llc.
func FindLLC(getenv func(string) string) (string, error) { return findLLVMTool(getenv, "llc", "LLC") }

// findLLVMTool returns LLVM 14's tool name: $env when set, else name-14
// on PATH, else /usr/lib/llvm-14/bin/name.
func findLLVMTool(getenv func(string) string, name, env string) (string, error) {
	if p := getenv(env); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath(name + "-14"); err == nil {
		return p, nil
	}
	if p := "/usr/lib/llvm-14/bin/" + name; fileExists(p) {
		return p, nil
	}
	return "", fmt.Errorf("%s-14 not found (install llvm-14, or name it with -%s or $%s)", name, name, env)
}

// toolError is the failure of a run of tool: its exit, then what it said.
func toolError(tool string, err error, stderr []byte) error {
	if msg := bytes.TrimSpace(stderr); len(msg) > 0 {
		return fmt.Errorf("%s: %v: %s", filepath.Base(tool), err, msg)
	}
	return fmt.Errorf("%s: %v", filepath.Base(tool), err)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// OptArgs is the opt-14 pipeline Optimize runs: LLVM's -O3, as Triton's
// make_llir runs on its LLVM IR before the NVPTX backend. It folds what
// the lowering leaves for LLVM: index arithmetic into base+constant
// addresses (which ptxas folds into immediate offsets, saving a 64-bit
// register per element), the sign extensions of in-range indices,
// common subexpressions across ops.
var OptArgs = []string{"-O3"}

// FindOpt returns the opt of LLVM 14: $OPT when set, else opt-14 on PATH,
// else /usr/lib/llvm-14/bin/opt.
func FindOpt(getenv func(string) string) (string, error) { return findLLVMTool(getenv, "opt", "OPT") }

// FindLLVMLink returns the llvm-link of LLVM 14: $LLVM_LINK when set, else
// llvm-link-14 on PATH, else /usr/lib/llvm-14/bin/llvm-link.
func FindLLVMLink(getenv func(string) string) (string, error) {
	return findLLVMTool(getenv, "llvm-link", "LLVM_LINK")
}

// LibdeviceCandidates are where FindLibdevice looks for CUDA's
// libdevice.10.bc after $LIBDEVICE: a CUDA toolkit's and Debian's
// nvidia-cuda-toolkit's.
var LibdeviceCandidates = []string{
	"/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
	"/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
	"/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc",
}

// FindLibdevice returns the path of CUDA's libdevice.10.bc: $LIBDEVICE
// when set, else the first of LibdeviceCandidates that exists.
func FindLibdevice(getenv func(string) string) (string, error) {
	if p := getenv("LIBDEVICE"); p != "" {
		return p, nil
	}
	for _, p := range LibdeviceCandidates {
		if fileExists(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("the kernel calls libdevice functions (tt.extern_elementwise) and libdevice.10.bc was not found (name it with -libdevice or $LIBDEVICE; CUDA has it under nvvm/libdevice, Triton under triton/backends/nvidia/lib)")
}

// LinkLibdevice links the libdevice functions a module calls into it, as
// Triton's make_llir links its extern_libs: llvm-link --only-needed, then
// opt makes everything but the kernels internal, resolves libdevice's
// __nvvm_reflect queries (nvvm-reflect, with the module's
// nvvm-reflect-ftz) and drops what is unused. The result compiles with or
// without Optimize.
func LinkLibdevice(ctx context.Context, llvmLink, opt, libdevice string, ll []byte, kernels []string) ([]byte, error) {
	if _, err := os.Stat(libdevice); err != nil {
		return nil, fmt.Errorf("libdevice: %v", err)
	}
	link := exec.CommandContext(ctx, llvmLink, "--only-needed", "-S", "-", libdevice, "-o", "-")
	link.Stdin = bytes.NewReader(ll)
	var linked, errb bytes.Buffer
	link.Stdout, link.Stderr = &linked, &errb
	if err := link.Run(); err != nil {
		return nil, toolError(llvmLink, err, errb.Bytes())
	}
	cmd := exec.CommandContext(ctx, opt, "-S", "-passes=internalize,function(nvvm-reflect),globaldce",
		"-internalize-public-api-list="+strings.Join(kernels, ","), "-o", "-")
	cmd.Stdin = &linked
	var out bytes.Buffer
	errb.Reset()
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, toolError(opt, err, errb.Bytes())
	}
	return out.Bytes(), nil
}

// Optimize runs opt (OptArgs) on a module's text and returns the
// optimized module's text.
func Optimize(ctx context.Context, opt string, ll []byte) ([]byte, error) {
	cmd := exec.CommandContext(ctx, opt, append(append([]string{}, OptArgs...), "-S", "-o", "-")...)
	cmd.Stdin = bytes.NewReader(ll)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, toolError(opt, err, errb.Bytes())
	}
	return out.Bytes(), nil
}

// CompilePTX runs llc on a module's text and returns the PTX. A PTX that
// declares an external function (an intrinsic LLVM 14 does not know, or a
// library call it could not lower) is an error, but for CUDA's vprintf
// and __assertfail (tt.print, tt.assert).
func CompilePTX(ctx context.Context, llc string, ll []byte) ([]byte, error) {
	cmd := exec.CommandContext(ctx, llc, append(append([]string{}, LLCArgs...), "-o", "-")...)
	cmd.Stdin = bytes.NewReader(ll)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, toolError(llc, err, errb.Bytes())
	}
	for _, m := range externFunc.FindAllSubmatch(out.Bytes(), -1) {
		if !slices.Contains(cudaSyscalls, string(m[1])) {
			return nil, fmt.Errorf("the PTX calls an external function (%s): an intrinsic LLVM 14 does not know or a libcall", m[0])
		}
	}
	return out.Bytes(), nil
}

// HopperPTXVersion and HopperArch are the PTX header of modules with
// sm_90-only instructions (Result.Hopper): wgmma needs PTX ISA 8.0 and the
// sm_90a target; vector atomics (atom.add.v4.f32 and the like) need PTX
// ISA 8.1, VectorAtomicPTXVersion. Loads with an L2 prefetch size
// (ld.global.L2::256B) need PTX ISA 7.4, L2PrefetchPTXVersion, which
// llc-14 does not write for sm_80 (7.0); the sm_80 mbarrier waits
// (mbarrier.test_wait.parity) need PTX ISA 7.1, MbarrierPTXVersion.
const (
	HopperPTXVersion       = "8.0"
	VectorAtomicPTXVersion = "8.1"
	L2PrefetchPTXVersion   = "7.4"
	MbarrierPTXVersion     = "7.1"
	HopperArch             = "sm_90a"
)

// laterPTX returns the later of two PTX ISA versions ("" is none).
func laterPTX(a, b string) string {
	var am, an, bm, bn int
	fmt.Sscanf(a, "%d.%d", &am, &an)
	fmt.Sscanf(b, "%d.%d", &bm, &bn)
	if bm > am || bm == am && bn > an {
		return b
	}
	return a
}

// externFunc matches an external function declaration of llc's PTX (the
// name is the submatch): ".extern .func (.param .b32 func_retval0) vprintf(".
var externFunc = regexp.MustCompile(`\.extern\s+\.func\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][A-Za-z0-9_$%]*)?`)

var (
	versionLine = regexp.MustCompile(`(?m)^\.version [0-9]+\.[0-9]+$`)
	targetLine  = regexp.MustCompile(`(?m)^\.target sm_[0-9]+a?$`)
)

// RewritePTXHeader sets the PTX .version and .target lines, as Triton's
// make_ptx does: llc-14 stops at PTX 7.5 and sm_86, so kernels with
// sm_90-only inline PTX get their header raised afterwards (PTX ISA
// versions are backward compatible). An empty version or target keeps
// the PTX's own.
func RewritePTXHeader(ptx []byte, version, target string) ([]byte, error) {
	if !versionLine.Match(ptx) || !targetLine.Match(ptx) {
		return nil, fmt.Errorf("the PTX has no .version or .target line")
	}
	if version != "" {
		ptx = versionLine.ReplaceAll(ptx, []byte(".version "+version))
	}
	if target != "" {
		ptx = targetLine.ReplaceAll(ptx, []byte(".target "+target))
	}
	return ptx, nil
}

// Prepare runs on m the module passes that layout-translate runs right
// before Emit, in its order: tritongpu-decompose-scaled-blocked (a
// tt.dot_scaled becomes upcasts and a tt.dot), triton-nvidia-tma-lowering
// (LowerTMA), allocate-shared-memory-nv
// when allocShared (AllocateSharedMemory) and
// tritongpu-global-scratch-memory-allocation. A failure returns the
// step's name beside its diagnostics and error.
func Prepare(m *ir.Module, allocShared bool) (step string, d ir.Diagnostics, err error) {
	type prep struct {
		name string
		run  func(*ir.Module) (ir.Diagnostics, error)
	}
	steps := []prep{{"tritongpu-decompose-scaled-blocked", passes.DecomposeScaledDots}, {"triton-nvidia-tma-lowering", LowerTMA}}
	if allocShared {
		steps = append(steps, prep{"allocate-shared-memory-nv", AllocateSharedMemory})
	}
	steps = append(steps, prep{"tritongpu-global-scratch-memory-allocation", passes.AllocateGlobalScratch})
	for _, s := range steps {
		if d, err := s.run(m); err != nil {
			return s.name, d, err
		}
	}
	return "", nil, nil
}

// LowerTMA runs Triton's triton-nvidia-tma-lowering on a module for sm_90
// or later whose functions access tensor descriptors (parameters: a
// descriptor made in the kernel is rewritten into pointers first, see
// RewriteTensorDescriptors), as Triton's make_ttgir does: each
// tt.descriptor_load becomes a TMA copy into shared memory waited for on
// an mbarrier, each tt.descriptor_store a TMA store from shared memory.
// Below sm_90, and in a module that makes descriptors (which
// RewriteTensorDescriptors rewrites into pointers: the tensormap_create the
// TMA lowering would make of them is not lowered), the module is left as
// it is.
func LowerTMA(m *ir.Module) (ir.Diagnostics, error) {
	if ComputeCapability(m) < 90 || m.HasOp("tt.make_tensor_descriptor") ||
		!m.HasOp("tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_gather", "tt.descriptor_scatter") {
		return nil, nil
	}
	return runTMALowering(m)
}

// LowerDeviceTMA runs triton-nvidia-tma-lowering on a module for sm_90 or
// later that makes tensor descriptors (tt.make_tensor_descriptor), as
// Triton does: they become tensor maps written on the device
// (ttng.tensormap_create into global scratch, see tensormap.go) and their
// loads and stores TMA copies. It reports whether the module changed;
// layout-translate runs it with -device-tma, in place of
// RewriteTensorDescriptors.
func LowerDeviceTMA(m *ir.Module) (bool, ir.Diagnostics, error) {
	if ComputeCapability(m) < 90 || !m.HasOp("tt.make_tensor_descriptor") {
		return false, nil, nil
	}
	d, err := runTMALowering(m)
	return err == nil, d, err
}

// runTMALowering runs triton-nvidia-tma-lowering on m, after
// triton-nvidia-optimize-descriptor-encoding when a descriptor's block has
// no shared encoding (TTGIR that did not come through Triton's make_ttgir,
// which runs that pass, as some of Triton's lit tests).
func runTMALowering(m *ir.Module) (ir.Diagnostics, error) {
	pl := passes.NewPipeline("builtin.module")
	if lacksDescriptorEncoding(m) {
		if err := pl.AddPass(passes.OptimizeDescriptorEncodingPass, ""); err != nil {
			return nil, err
		}
	}
	if err := pl.AddPass(passes.TMALoweringPass, ""); err != nil {
		return nil, err
	}
	return pl.Run(m, passes.RunConfig{})
}

// lacksDescriptorEncoding reports whether some tensor descriptor of m
// (an op's operand or result, a block's argument) has a block without an
// encoding.
func lacksDescriptorEncoding(m *ir.Module) bool {
	lacks := func(v *ir.Value) bool {
		dt, ok := v.Type().(*ir.TensorDescType)
		return ok && dt.Block != nil && dt.Block.Encoding == nil
	}
	found := false
	m.Op.Walk(func(op *ir.Operation) ir.WalkResult {
		for _, v := range append(op.Results(), op.Operands()...) {
			found = found || lacks(v)
		}
		for _, r := range op.Regions() {
			for _, b := range r.Blocks {
				for _, a := range b.Args() {
					found = found || lacks(a)
				}
			}
		}
		if found {
			return ir.Interrupt
		}
		return ir.Advance
	})
	return found
}

// AllocateSharedMemory runs Triton's allocate-shared-memory-nv (package
// passes) for the module's compute capability when the module has no
// ttg.shared yet, as Triton's make_llir does before the lowering: every
// shared buffer and scratch buffer gets its allocation.offset.
func AllocateSharedMemory(m *ir.Module) (ir.Diagnostics, error) {
	if m.Op.Attr("ttg.shared") != nil {
		return nil, nil
	}
	pl := passes.NewPipeline("builtin.module")
	if err := pl.AddPass(passes.AllocateSharedMemoryNvPass, fmt.Sprintf("compute-capability=%d", ComputeCapability(m))); err != nil {
		return nil, err
	}
	return pl.Run(m, passes.RunConfig{})
}

// RewriteTensorDescriptors runs triton-rewrite-tensor-descriptor-to-pointer
// on a module whose functions make tensor descriptors
// (tt.make_tensor_descriptor): their loads and stores become masked ones
// through pointers (a descriptor made on the device, written by
// tensormap.replace, is not lowered). A module that also takes a
// descriptor as a parameter (a host-side TMA descriptor, which the
// lowering supports on sm_90) is an error: the rewrite would change its
// parameters, which layout-opt does when asked. It reports whether the
// module changed.
func RewriteTensorDescriptors(m *ir.Module) (bool, error) {
	if !m.HasOp("tt.make_tensor_descriptor") {
		return false, nil
	}
	for _, op := range m.Body().Ops() {
		if op.Name() != "tt.func" || len(op.Regions()) == 0 || op.Region(0).Entry() == nil {
			continue
		}
		for i, a := range op.Region(0).Entry().Args() {
			if _, ok := a.Type().(*ir.TensorDescType); ok {
				return false, &Error{Pos: op.Pos(), Op: op.Name(), Msg: fmt.Sprintf("argument %d is a tensor descriptor and the module makes descriptors (tt.make_tensor_descriptor), which the lowering takes only as their parts: run layout-opt -triton-rewrite-tensor-descriptor-to-pointer first, which makes every descriptor a pointer, sizes, strides and a padding flag", i)}
			}
		}
	}
	pl := passes.NewPipeline("builtin.module")
	if err := pl.AddPass(passes.RewriteTensorDescriptorToPointerPass, ""); err != nil {
		return false, err
	}
	d, err := pl.Run(m, passes.RunConfig{})
	if err != nil {
		return false, fmt.Errorf("%v %v", err, d)
	}
	return true, nil
}

// ComputeCapability is the compute capability a module is lowered for:
// that of its ttg.target ("cuda:90" is 90), 80 without one.
func ComputeCapability(m *ir.Module) int {
	cc := 0
	if s, ok := m.Op.Attr("ttg.target").(*ir.StringAttr); ok {
		if rest, ok := strings.CutPrefix(s.Value, "cuda:"); ok {
			fmt.Sscanf(rest, "%d", &cc)
		}
	}
	if cc == 0 {
		cc = 80
	}
	return cc
}

// RaiseComputeCapability sets the module's ttg.target to cuda:cc when it
// targets an older GPU, so that it is lowered for that GPU: what Triton
// does when it compiles a TTGIR for a newer GPU than the one it was made
// for (triton.compile(src, target=GPUTarget("cuda", cc, 32)), as the
// proof's Triton side does on the H200). The layouts stay as they are;
// the lowering may then use the newer GPU's instructions (vector atomics
// on sm_90). It reports whether it changed the module.
func RaiseComputeCapability(m *ir.Module, cc int) bool {
	if cc <= ComputeCapability(m) {
		return false
	}
	m.Op.SetAttr("ttg.target", &ir.StringAttr{Value: fmt.Sprintf("cuda:%d", cc)})
	return true
}

// Package layouttranslate is the layout-translate tool, in the habits of
// mlir-translate: it reads a TritonGPU module and writes it as LLVM IR
// for NVPTX (-ttgir-to-llvmir, package llvmemit) or as PTX (-ttgir-to-ptx,
// through opt-14 -O3, as Triton's pipeline runs LLVM's O3, and llc-14),
// with the kernels' launch metadata as JSON on request.
//
//	layout-translate -ttgir-to-llvmir k.ttgir -o k.ll
//	layout-translate -ttgir-to-ptx k.ttgir -o k.ptx -kernel-json k.json
//
// Before lowering it runs, as Triton's pipeline does, allocate-shared-memory
// (unless -no-allocate-shared-memory) and, for a module that allocates
// global scratch without offsets yet, the global scratch allocation; for a
// kernel that makes tensor descriptors,
// triton-rewrite-tensor-descriptor-to-pointer (their loads and stores
// become masked ones: no TMA); for a tt.dot_scaled, Triton's
// DecomposeScaledBlocked (upcasts, scale multiplications and a tt.dot, as
// Triton's accelerate-matmul does before Blackwell); and, beyond Triton, order-programs
// (unless -program-order=launch): a 2-D tile kernel whose stores move by a
// constant step with pid y and a runtime stride with pid x gets its
// programs renumbered with y fastest (see passes.ProgramOrderPass); then
// specialize-divisibility (unless -specialize-divisibility=off): a kernel
// whose pointer and integer arguments lack tt.divisibility gets a second
// body, coalesced for arguments divisible by 16, taken at run time when
// they are (see passes.SpecializeDivisibilityPass); then l2-prefetch
// (unless -l2-prefetch=off): loads whose short rows are completed by
// programs launched far away get ld.global.L2::256B (see
// passes.L2PrefetchPass).
//
// Main takes a proc.Proc, so lit runs it in-process; cmd/layout-translate
// is a one-line main.
package layouttranslate

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	_ "github.com/layoutopt/layoutopt/dialect" // registers the TTGIR dialects
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/llvmemit"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

const usage = `usage: layout-translate (-ttgir-to-llvmir | -ttgir-to-ptx) [flags] [FILE|-]

Lowers a TritonGPU module (TTGIR as Triton 3.6 prints it) to LLVM IR for
nvptx64-nvidia-cuda (LLVM 14 typed pointers) or, through opt-14 -O3 and
llc-14, to PTX.
Kernels keep Triton 3.6's ABI: the tt.func parameters, then two global
scratch pointers (the first to -kernel-json's global_scratch_size bytes per
program, for ttg.global_scratch_alloc); 32·num_warps threads; dynamic shared
memory global_smem of -kernel-json's shared_bytes. An op that cannot be
lowered is an error at the op.

Flags:
`

// Main runs layout-translate with p's arguments and streams and returns
// its exit status (0 on success, 1 on any error).
func Main(p *proc.Proc) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(p.Stderr, "layout-translate: error: internal error: %v (please report this bug)\n", v)
			code = 1
		}
	}()
	fs := flag.NewFlagSet("layout-translate", flag.ContinueOnError)
	fs.SetOutput(p.Stderr)
	toLL := fs.Bool("ttgir-to-llvmir", false, "translate to LLVM IR")
	toPTX := fs.Bool("ttgir-to-ptx", false, "translate to PTX with llc-14")
	out := fs.String("o", "-", "output file (written atomically; - is standard output)")
	llc := fs.String("llc", "", "the llc of LLVM 14 (default: $LLC, llc-14 on PATH, /usr/lib/llvm-14/bin/llc)")
	kernelJSON := fs.String("kernel-json", "", "write the kernels' launch metadata (name, threads, shared bytes, parameters) as JSON to this file")
	ptxVersion := fs.String("ptx-version", "", "rewrite the PTX .version line (default: 8.0 for kernels with sm_90-only instructions, 8.1 with vector atomics, 7.4 with L2 prefetch sizes, else llc's)")
	ptxTarget := fs.String("ptx-target", "", "rewrite the PTX .target line (default: sm_90a for kernels with sm_90-only instructions, else llc's)")
	o3 := fs.Bool("O3", false, "optimize the LLVM IR with opt-14 -O3, as Triton's pipeline runs LLVM's O3 (the default for -ttgir-to-ptx)")
	o0 := fs.Bool("O0", false, "do not optimize: the lowering's own LLVM IR (the default for -ttgir-to-llvmir)")
	opt := fs.String("opt", "", "the opt of LLVM 14 for -O3 (default: $OPT, opt-14 on PATH, /usr/lib/llvm-14/bin/opt)")
	libdevice := fs.String("libdevice", "", "CUDA's libdevice.10.bc, linked in when the kernel calls its functions (tt.extern_elementwise) and the output is optimized or PTX (default: $LIBDEVICE, /usr/local/cuda/nvvm/libdevice/libdevice.10.bc, Debian's nvidia-cuda-toolkit's)")
	llvmLink := fs.String("llvm-link", "", "the llvm-link of LLVM 14, for -libdevice (default: $LLVM_LINK, llvm-link-14 on PATH, /usr/lib/llvm-14/bin/llvm-link)")
	cc := fs.Int("compute-capability", 0, "lower for at least this compute capability (90: sm_90), as Triton does when it compiles the module for a newer GPU than its ttg.target's: the module's target is raised to cuda:N")
	order := fs.String("program-order", "auto", "auto: renumber the programs of a 2-D grid with y fastest where the kernel's stores move by a constant step along y and a runtime stride along x (the order-programs pass of layout-opt); launch: keep the launch order (x fastest)")
	specialize := fs.String("specialize-divisibility", "auto", "auto: give each kernel whose pointer and integer arguments lack tt.divisibility a second body that assumes them divisible by 16 (coalesced for it) and choose it at run time when they are, where that makes global accesses wider (the specialize-divisibility pass of layout-opt); off: compile the kernel only as given")
	prefetch := fs.String("l2-prefetch", "auto", "auto: lower the global loads of a 2-D tile kernel whose rows are shorter than 256 bytes, and whose neighbouring rows program y+1 reads while program x+1 reads a stride away, with ld.global.L2::256B (the l2-prefetch pass of layout-opt); off: no L2 prefetch sizes")
	remarks := fs.Bool("remarks", false, "report on standard error, as remarks at each kernel, what order-programs, specialize-divisibility, l2-prefetch and -min-ctas-per-sm auto decided and why (layout-opt's remarks of those passes)")
	minCTAs := fs.String("min-ctas-per-sm", "auto", "N: give every kernel .minnctapersm N, as CUDA's __launch_bounds__(threads, N): ptxas keeps registers few enough for N programs per SM; 1 lets it use registers freely, for launches of a few programs (0: no directive, ptxas's own heuristic); auto: 1 for a kernel that reads no program id (a launch of one program) and has no dot, atomics or inline asm, else none")
	maxRegs := fs.Int("maxnreg", 0, "give every kernel .maxnreg N, as Triton's maxnreg option: at most N registers per thread, 1 to 255 (0: no limit)")
	madWide := fs.Bool("fuse-mad-wide", false, "with -ttgir-to-ptx, fuse llc's mul.wide + add.s64 address arithmetic into mad.wide, as the PTX of Triton's LLVM has it (ptxas then adds kernel parameters from uniform registers, as in Triton's SASS); experimental: timed on an H100 (proof/results/h100-r18) neutral on average, +2% on some small kernels and -2% on others, so off by default")
	deviceTMA := fs.Bool("device-tma", false, "on sm_90, lower tensor descriptors made in the kernel (tl.make_tensor_descriptor) as Triton does: tensor maps written on the device with tensormap.replace and TMA copies (experimental: strides written in bytes, as the CUDA driver's JIT and ptxas 12.7 or later read them; not yet re-run on a GPU since that fix); by default they are rewritten into masked loads and stores through pointers")
	noAlloc := fs.Bool("no-allocate-shared-memory", false, "do not run allocate-shared-memory-nv on a module without ttg.shared (scratch then starts at offset 0 and ttg.shared is what the lowering needs)")
	fs.Usage = func() {
		fmt.Fprint(p.Stderr, usage)
		fs.PrintDefaults()
	}
	// Flags may follow the input file, as with mlir-translate.
	var positional []string
	for args := p.Args; ; {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 1
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(p.Stderr, "layout-translate: error: "+format+"\n", args...)
		return 1
	}
	if *toLL == *toPTX {
		return fail("give exactly one of -ttgir-to-llvmir and -ttgir-to-ptx")
	}
	if *o3 && *o0 {
		return fail("give at most one of -O0 and -O3")
	}
	optimize := *o3 || *toPTX && !*o0
	if len(positional) > 1 {
		return fail("more than one input file (%s)", strings.Join(positional, ", "))
	}
	input := "-"
	if len(positional) == 1 {
		input = positional[0]
	}
	src, err := p.ReadFile(input)
	if err != nil {
		return fail("cannot open input file '%s': %v", input, err)
	}
	name := input
	if input == "-" {
		name = "<stdin>"
	}
	m, diags := ir.Parse(src, ir.ParseConfig{Filename: name})
	if diags.HasErrors() {
		fmt.Fprint(p.Stderr, diags.Render(src, 1))
		return 1
	}
	if d := ir.Verify(m); d.HasErrors() {
		fmt.Fprint(p.Stderr, d.Render(src, 1))
		return 1
	}
	if *cc < 0 {
		return fail("-compute-capability %d: give a compute capability such as 90", *cc)
	}
	llvmemit.RaiseComputeCapability(m, *cc)
	for _, f := range []struct{ flag, value, on, off string }{
		{"program-order", *order, "auto", "launch"},
		{"specialize-divisibility", *specialize, "auto", "off"},
		{"l2-prefetch", *prefetch, "auto", "off"},
	} {
		if f.value != f.on && f.value != f.off {
			return fail("-%s %q: give %s or %s", f.flag, f.value, f.on, f.off)
		}
	}
	var decisions ir.Diagnostics
	remark := func(op *ir.Operation, msg string) {
		decisions = append(decisions, ir.Diagnostic{Pos: passes.OpPos(op), Severity: ir.Remark, Msg: msg})
	}
	eachFunc := func(decide func(*ir.Operation) string) {
		for _, op := range m.Body().Ops() {
			if op.Name() == "tt.func" {
				remark(op, decide(op))
			}
		}
	}
	if *deviceTMA {
		changed, d, err := llvmemit.LowerDeviceTMA(m)
		if err != nil {
			fmt.Fprint(p.Stderr, d.Render(src, 1))
			if !d.HasErrors() {
				return fail("triton-nvidia-tma-lowering: %v", err)
			}
			return 1
		}
		if changed {
			remark(m.Op, "tensor descriptors made in the kernel: tensor maps written on the device (ttng.tensormap_create) and TMA copies (triton-nvidia-tma-lowering; -device-tma)")
		}
	}
	if changed, err := llvmemit.RewriteTensorDescriptors(m); err != nil {
		var le *llvmemit.Error
		if errors.As(err, &le) {
			fmt.Fprint(p.Stderr, ir.Diagnostics{le.Diagnostic()}.Render(src, 1))
			return 1
		}
		return fail("triton-rewrite-tensor-descriptor-to-pointer: %v", err)
	} else if changed {
		remark(m.Op, "tensor descriptors: their loads and stores are masked ones through pointers (triton-rewrite-tensor-descriptor-to-pointer; no TMA)")
	}
	if *order == "auto" {
		eachFunc(func(op *ir.Operation) string { return passes.OrderPrograms(op).Remark() })
	}
	if *specialize == "auto" {
		ds, err := passes.SpecializeDivisibility(m, 16)
		if err != nil {
			return fail("specialize-divisibility: %v", err)
		}
		for _, d := range ds {
			remark(d.Func, d.Remark())
		}
	}
	if *prefetch == "auto" {
		eachFunc(func(op *ir.Operation) string { return passes.MarkL2Prefetch(op).Remark() })
	}
	bounds := llvmemit.LaunchBounds{MaxRegs: *maxRegs}
	perKernel := map[string]llvmemit.LaunchBounds{}
	if *minCTAs == "auto" {
		eachFunc(func(op *ir.Operation) string {
			d := llvmemit.DecideLaunchBounds(op)
			if name, ok := op.Attr("sym_name").(*ir.StringAttr); ok && d.Bounds != (llvmemit.LaunchBounds{}) {
				perKernel[name.Value] = d.Bounds
			}
			return d.Remark()
		})
	} else if n, err := strconv.Atoi(*minCTAs); err != nil || n < 0 {
		return fail("-min-ctas-per-sm %q: give auto or a number of programs (0: no directive)", *minCTAs)
	} else {
		bounds.MinCTAsPerSM = n
	}
	if *remarks {
		fmt.Fprint(p.Stderr, decisions.Render(src, 1))
	}
	if step, d, err := llvmemit.Prepare(m, !*noAlloc); err != nil {
		fmt.Fprint(p.Stderr, d.Render(src, 1))
		if !d.HasErrors() {
			return fail("%s: %v", step, err)
		}
		return 1
	}
	res, err := llvmemit.Emit(m)
	if err != nil {
		var le *llvmemit.Error
		if errors.As(err, &le) {
			fmt.Fprint(p.Stderr, ir.Diagnostics{le.Diagnostic()}.Render(src, 1))
			return 1
		}
		return fail("%v", err)
	}
	if err := res.SetLaunchBounds(bounds); err != nil {
		return fail("-%v", err)
	}
	for _, k := range res.Kernels {
		if b, ok := perKernel[k.Name]; ok {
			if err := res.SetKernelLaunchBounds(k.Name, b); err != nil {
				return fail("%v", err)
			}
		}
	}
	text := []byte(res.Module.String())
	optPath := func() (string, error) {
		if *opt != "" {
			return *opt, nil
		}
		return llvmemit.FindOpt(p.Getenv)
	}
	if res.Libdevice && (optimize || *toPTX) {
		// As Triton's make_llir: libdevice linked in before LLVM's O3.
		lib, link := *libdevice, *llvmLink
		if lib == "" {
			if lib, err = llvmemit.FindLibdevice(p.Getenv); err != nil {
				return fail("%v", err)
			}
		}
		if link == "" {
			if link, err = llvmemit.FindLLVMLink(p.Getenv); err != nil {
				return fail("%v", err)
			}
		}
		path, err := optPath()
		if err != nil {
			return fail("%v", err)
		}
		if text, err = llvmemit.LinkLibdevice(context.Background(), link, path, lib, text, res.KernelNames()); err != nil {
			return fail("%v", err)
		}
	}
	if optimize {
		path, err := optPath()
		if err != nil {
			return fail("%v", err)
		}
		if text, err = llvmemit.Optimize(context.Background(), path, text); err != nil {
			return fail("%v", err)
		}
	}
	if *toPTX {
		path := *llc
		if path == "" {
			if path, err = llvmemit.FindLLC(p.Getenv); err != nil {
				return fail("%v", err)
			}
		}
		ptx, err := llvmemit.CompilePTX(context.Background(), path, text)
		if err != nil {
			return fail("%v", err)
		}
		if *madWide {
			var n int
			ptx, n = llvmemit.FuseMadWide(ptx)
			if *remarks {
				fmt.Fprintf(p.Stderr, "%s: remark: fuse-mad-wide: %d mul.wide + add.s64 pairs fused\n", name, n)
			}
		}
		version, target := *ptxVersion, *ptxTarget
		v, t := res.Header()
		version, target = cmpOr(version, v), cmpOr(target, t)
		if version != "" || target != "" {
			if ptx, err = llvmemit.RewritePTXHeader(ptx, version, target); err != nil {
				return fail("%v", err)
			}
		}
		text = ptx
	}
	if *kernelJSON != "" {
		js, err := json.MarshalIndent(res.Kernels, "", "  ")
		if err != nil {
			return fail("%v", err)
		}
		if err := proc.WriteFileAtomic(p.Path(*kernelJSON), append(js, '\n')); err != nil {
			return fail("cannot write '%s': %v", *kernelJSON, err)
		}
	}
	if *out == "-" {
		if _, err := p.Stdout.Write(text); err != nil {
			return fail("writing output: %v", err)
		}
		return 0
	}
	if err := proc.WriteFileAtomic(p.Path(*out), text); err != nil {
		return fail("cannot write output file '%s': %v", *out, err)
	}
	return 0
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

package ttgirrun

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/layoutopt/layoutopt/cuda"
	"github.com/layoutopt/layoutopt/interp"
	"github.com/layoutopt/layoutopt/passes"
	"github.com/layoutopt/layoutopt/proc"
)

// run is one ttgir-run invocation's state.
type run struct {
	p     *proc.Proc
	k     *kernel
	file  string
	args  []*arg
	grid  [3]int
	quiet bool
	tol   interp.Tolerance
	show  int
	rep   *report

	reduceOrder interp.ReduceOrder // the interpreter's
	workers     int                // the interpreter's goroutines
}

// report is what -json writes.
type report struct {
	Kernel string      `json:"kernel"`
	File   string      `json:"file"`
	PTX    string      `json:"ptx,omitempty"`
	Grid   []int       `json:"grid"`
	Args   []reportArg `json:"args"`
	GPU    *gpuInfo    `json:"gpu,omitempty"`
	CPU    *cpuInfo    `json:"cpu,omitempty"`
	Check  *checkInfo  `json:"check,omitempty"`
	Bench  *benchInfo  `json:"bench,omitempty"`
}

type reportArg struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Spec  string `json:"spec"`
	Bytes int64  `json:"bytes,omitempty"`
	Shape []int  `json:"shape,omitempty"`
}

type gpuInfo struct {
	Device        string  `json:"device"`
	Driver        int     `json:"driver"`
	Kernel        string  `json:"kernel"`
	Threads       int     `json:"threads"`
	SharedBytes   int     `json:"shared_bytes"`
	Regs          int     `json:"regs"`
	LocalBytes    int     `json:"local_bytes"`
	StaticShared  int     `json:"static_shared_bytes"`
	JITLog        string  `json:"jit_log,omitempty"`
	FirstLaunchMS float64 `json:"first_launch_ms"`
}

type cpuInfo struct {
	Seconds float64 `json:"seconds"`
}

type checkInfo struct {
	Reference string       `json:"reference"`
	OK        bool         `json:"ok"`
	RTol      float64      `json:"rtol"`
	ATol      float64      `json:"atol"`
	Buffers   []comparison `json:"buffers"`
}

type timing struct {
	Median float64 `json:"median_ms"`
	Min    float64 `json:"min_ms"`
	Max    float64 `json:"max_ms"`
	GBps   float64 `json:"gb_per_s"` // bytes / median
}

type benchInfo struct {
	Runs      int     `json:"runs"`
	Graph     int     `json:"graph,omitempty"` // launches (and copies) per timed CUDA graph; times are per launch
	Bytes     int64   `json:"bytes"`
	Kernel    timing  `json:"kernel"`
	Copy      timing  `json:"copy"`
	PctOfCopy float64 `json:"pct_of_copy"` // copy median / kernel median, in %
}

// defaultMeta is the launch metadata of the module itself: the function's
// name, ttg.num-warps, ttg.threads-per-warp and ttg.shared (the shared
// memory Triton's allocation pass recorded; 0 when absent) and the global
// scratch per program.
func defaultMeta(k *kernel) cuda.Meta {
	m := k.mod
	return cuda.Meta{
		Name:           k.name,
		NumWarps:       int(m.IntAttr("ttg.num-warps", 4)),
		NumCTAs:        int(m.IntAttr("ttg.num-ctas", 1)),
		ThreadsPerWarp: int(m.IntAttr("ttg.threads-per-warp", 32)),
		Shared:         int(m.IntAttr("ttg.shared", 0)),
		// Triton's global scratch allocation's (main runs it when needed).
		GlobalScratchSize:  int(m.IntAttr(passes.GlobalScratchSizeAttr, 0)),
		GlobalScratchAlign: int(m.IntAttr(passes.GlobalScratchAlignAttr, 0)),
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchOpts are -bench's settings.
type benchOpts struct {
	runs, warmup int   // timed and untimed runs (0 runs: no timing)
	graph        int   // launches per CUDA graph (0: plain launches)
	bytes        int64 // bytes a launch moves (0: every buffer's size)
}

// maxGraph bounds -graph: a graph's nodes are driver memory.
const maxGraph = 10000

// gpu runs the kernel once on the GPU from ptx, keeps what it wrote, and
// with o.runs > 0 times it against device copies.
func (r *run) gpu(device int, ptx, metaJSON []byte, o benchOpts) (err error) {
	meta := defaultMeta(r.k)
	if metaJSON != nil {
		if meta, err = parseMeta(metaJSON, r.k.name); err != nil {
			return err
		}
	}
	if err := checkABI(ptx, meta, r.k); err != nil {
		return err
	}
	ctx, err := cuda.NewContext(device)
	if err != nil {
		return err
	}
	defer ctx.Close()
	drvVersion, _ := cuda.DriverVersion()
	mod, err := ctx.LoadPTX(ptx)
	if err != nil {
		var j *cuda.JITError
		if errors.As(err, &j) {
			return fmt.Errorf("%s: the driver cannot compile the PTX: %v", r.rep.PTX, err)
		}
		return err
	}
	defer mod.Unload()
	kern, err := mod.Kernel(meta)
	if err != nil {
		return err
	}
	var bufs []*cuda.Buffer
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	var launchArgs []any
	var total int64
	for _, a := range r.args {
		if !a.isBuffer() {
			launchArgs = append(launchArgs, a.gpuScalar())
			continue
		}
		b, err := ctx.Alloc(int64(len(a.init)))
		if err != nil {
			return fmt.Errorf("%s: %v", a.p.name, err)
		}
		bufs = append(bufs, b)
		if err := b.Write(a.init); err != nil {
			return err
		}
		var arg any = b
		if a.p.desc != nil { // a host-side TMA descriptor over the buffer
			if arg, err = tensorMap(ctx, a, b); err != nil {
				return fmt.Errorf("%s: %v", a.p.name, err)
			}
		}
		launchArgs = append(launchArgs, arg)
		total += int64(len(a.init))
	}
	l, err := kern.Prepare(cuda.Dim3{X: r.grid[0], Y: r.grid[1], Z: r.grid[2]}, launchArgs...)
	if err != nil {
		return err
	}
	defer l.Release()
	first, err := ctx.Time(1, func(int) error { return l.Run() })
	if err != nil {
		return fmt.Errorf("launch of %s on grid %v: %v", meta.Name, r.grid, err)
	}
	r.rep.GPU = &gpuInfo{Device: ctx.String(), Driver: drvVersion, Kernel: meta.Name, Threads: meta.Threads(),
		SharedBytes: meta.Shared, Regs: kern.Fn.Regs, LocalBytes: kern.Fn.LocalBytes, StaticShared: kern.Fn.StaticShared,
		JITLog: mod.InfoLog, FirstLaunchMS: ms(first[0])}
	fmt.Fprintf(r.p.Stdout, "%s @%s on %s: grid %d,%d,%d × %d threads, %d B dynamic shared memory, %d registers, %d B local memory\n",
		r.file, meta.Name, ctx, r.grid[0], r.grid[1], r.grid[2], meta.Threads(), meta.Shared, kern.Fn.Regs, kern.Fn.LocalBytes)
	i := 0
	for _, a := range r.args {
		if a.isBuffer() {
			a.gpuOut = make([]byte, len(a.init))
			if err := bufs[i].Read(a.gpuOut); err != nil {
				return err
			}
			i++
		}
	}
	if o.runs == 0 {
		return nil
	}
	if o.bytes == 0 {
		o.bytes = total
	}
	return r.bench(ctx, l, o)
}

// benchBatch is the number of timed runs between progress reports.
const benchBatch = 20

// bench times o.runs launches of l and o.runs device-to-device copies of
// o.bytes/2 bytes (o.bytes moved in all, read plus written) in alternating
// batches, after o.warmup untimed ones of each. With o.graph > 0 a run is
// one CUDA graph of o.graph launches (of o.graph copies), timed as a whole
// and reported per launch (per copy).
func (r *run) bench(ctx *cuda.Context, l *cuda.Launch, o benchOpts) error {
	half := max(o.bytes/2, 1)
	src, err := ctx.Alloc(half)
	if err != nil {
		return fmt.Errorf("copy baseline: %v", err)
	}
	defer src.Free()
	dst, err := ctx.Alloc(half)
	if err != nil {
		return fmt.Errorf("copy baseline: %v", err)
	}
	defer dst.Free()
	if err := src.Fill(0x5a); err != nil {
		return err
	}
	launch := func(int) error { return l.Run() }
	copyOnce := func(int) error { return ctx.Copy(dst.Ptr(), src.Ptr(), half) }
	per := 1
	if o.graph > 0 {
		per = o.graph
		kg, err := ctx.Capture(func(s *cuda.Stream) error {
			for range o.graph {
				if err := l.RunOn(s); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("capturing a graph of %d launches: %v", o.graph, err)
		}
		defer kg.Destroy()
		cg, err := ctx.Capture(func(s *cuda.Stream) error {
			for range o.graph {
				if err := s.Copy(dst.Ptr(), src.Ptr(), half); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("capturing a graph of %d copies: %v", o.graph, err)
		}
		defer cg.Destroy()
		launch = func(int) error { return kg.Launch() }
		copyOnce = func(int) error { return cg.Launch() }
	}
	for range o.warmup {
		if err := launch(0); err != nil {
			return err
		}
		if err := copyOnce(0); err != nil {
			return err
		}
	}
	if err := ctx.Synchronize(); err != nil {
		return err
	}
	var kt, ct []time.Duration
	start := time.Now()
	for len(kt) < o.runs {
		n := min(benchBatch, o.runs-len(kt))
		d, err := ctx.Time(n, launch)
		if err != nil {
			return err
		}
		kt = append(kt, perLaunch(d, per)...)
		if d, err = ctx.Time(n, copyOnce); err != nil {
			return err
		}
		ct = append(ct, perLaunch(d, per)...)
		if time.Since(start) > 2*time.Second && len(kt) < o.runs {
			r.progress("bench: %d/%d launches and copies (kernel median so far %.4f ms)", len(kt), o.runs, ms(median(kt)))
		}
	}
	b := &benchInfo{Runs: o.runs, Graph: o.graph, Bytes: o.bytes, Kernel: summarize(kt, o.bytes), Copy: summarize(ct, o.bytes)}
	b.PctOfCopy = 100 * b.Copy.Median / b.Kernel.Median
	r.rep.Bench = b
	how := ""
	if o.graph > 0 {
		how = fmt.Sprintf(" (each a CUDA graph of %d launches; times per launch)", o.graph)
	}
	fmt.Fprintf(r.p.Stdout, "bench: %d runs%s, %s moved per launch\n", o.runs, how, human(o.bytes))
	fmt.Fprintf(r.p.Stdout, "  kernel       median %.4f ms (min %.4f, max %.4f)  %7.1f GB/s  %5.1f%% of copy\n",
		b.Kernel.Median, b.Kernel.Min, b.Kernel.Max, b.Kernel.GBps, b.PctOfCopy)
	fmt.Fprintf(r.p.Stdout, "  device copy  median %.4f ms (min %.4f, max %.4f)  %7.1f GB/s\n",
		b.Copy.Median, b.Copy.Min, b.Copy.Max, b.Copy.GBps)
	return nil
}

// perLaunch divides each run's time by the launches it held.
func perLaunch(ds []time.Duration, per int) []time.Duration {
	for i := range ds {
		ds[i] /= time.Duration(per)
	}
	return ds
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func summarize(ds []time.Duration, bytes int64) timing {
	m := median(ds)
	t := timing{Median: ms(m), Min: ms(slices.Min(ds)), Max: ms(slices.Max(ds))}
	if m > 0 {
		t.GBps = float64(bytes) / m.Seconds() / 1e9
	}
	return t
}

func human(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// cpu runs the kernel through the reference interpreter, its programs on
// r.workers goroutines (interp.Machine.Workers: the same result as in
// launch order), with progress for long runs.
func (r *run) cpu() error {
	iargs := make([]interp.Arg, len(r.args))
	for i, a := range r.args {
		iargs[i] = a.interpArg()
	}
	mem := &interp.BufferMemory{}
	mc := interp.NewMachine(r.k.mod, mem)
	mc.ReduceOrder, mc.Workers = r.reduceOrder, r.workers
	// tt.print's lines go to stdout, as the GPU's vprintf does (the
	// driver writes them there when the launch completes).
	mc.Print = r.p.Stdout
	vals, err := interp.BindArgs(r.k.fn, iargs, mem)
	if err != nil {
		return err
	}
	start, last := time.Now(), time.Now()
	mc.Progress = func(done, total int) {
		if time.Since(last) > 2*time.Second && done < total {
			last = time.Now()
			el := time.Since(start)
			left := time.Duration(float64(el) / float64(done) * float64(total-done))
			r.progress("interpreter: %d/%d programs (%.0f%%), about %v left", done, total, 100*float64(done)/float64(total), left.Round(time.Second))
		}
	}
	if err := mc.Launch(r.k.name, vals, r.grid); err != nil {
		var e *interp.Error
		if errors.As(err, &e) {
			return fmt.Errorf("interpreter, program (%d, %d, %d): %v", e.PID[0], e.PID[1], e.PID[2], err)
		}
		return fmt.Errorf("interpreter: %v", err)
	}
	r.rep.CPU = &cpuInfo{Seconds: time.Since(start).Seconds()}
	for i, a := range r.args {
		if a.isBuffer() {
			a.cpuOut = iargs[i].Buf.Data
		}
	}
	if r.rep.PTX == "" {
		fmt.Fprintf(r.p.Stdout, "%s @%s on the interpreter: grid %d,%d,%d, %.2f s\n", r.file, r.k.name,
			r.grid[0], r.grid[1], r.grid[2], r.rep.CPU.Seconds)
	}
	return nil
}

// compare compares every buffer the GPU left with the interpreter's and
// prints the result; it reports whether all are equal.
func (r *run) compare() bool {
	c := &checkInfo{Reference: "interp", OK: true, RTol: r.tol.Rel, ATol: r.tol.Abs}
	for _, a := range r.args {
		if !a.isBuffer() {
			continue
		}
		cmp := compare(a.p.name, a.elem, a.shape, a.gpuOut, a.cpuOut, r.tol, r.show)
		c.Buffers = append(c.Buffers, cmp)
		if cmp.Mismatches > 0 {
			c.OK = false
		}
	}
	r.rep.Check = c
	verdict := "the GPU and the interpreter agree"
	if !c.OK {
		verdict = "MISMATCH between the GPU and the interpreter"
	}
	fmt.Fprintf(r.p.Stdout, "check: %s\n", verdict)
	for _, cmp := range c.Buffers {
		cmp.write(r.p.Stdout, "gpu", "interp")
	}
	return c.OK
}

// printBuffers prints the first n elements of every buffer after the run,
// one line per buffer: "y: [0.5 -1 …] (65536 f32)".
func (r *run) printBuffers(n int) {
	for _, a := range r.args {
		if !a.isBuffer() {
			continue
		}
		data := a.gpuOut
		if data == nil {
			data = a.cpuOut
		}
		total := len(data) / a.elem.bytes
		var b strings.Builder
		for i := range min(n, total) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(a.elem.format(a.elem.value(data[i*a.elem.bytes:])))
		}
		if total > n {
			b.WriteString(" …")
		}
		fmt.Fprintf(r.p.Stdout, "%s: [%s] (%d %s)\n", a.p.name, b.String(), total, a.elem.name)
	}
}

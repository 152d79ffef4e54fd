package cuda

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/layoutopt/layoutopt/internal/mockcuda"
)

// mock is set when the tests run against the mock driver of package
// mockcuda (built with the C compiler) because this machine has no CUDA
// driver. The tests that need a real GPU skip then; without a C compiler
// either, all of them do.
var mock bool

func TestMain(m *testing.M) {
	flag.Parse()
	var cleanup func()
	if Available() != nil {
		cleanup = useMock()
	}
	code := m.Run()
	if cleanup != nil {
		cleanup()
	}
	os.Exit(code)
}

// useMock builds the mock driver and points the loader at it.
func useMock() func() {
	dir, err := os.MkdirTemp("", "mockcuda")
	if err != nil {
		return nil
	}
	so, err := mockcuda.Build(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cuda: no mock driver: %v\n", err)
		os.RemoveAll(dir)
		return nil
	}
	libraries = []string{so}
	loadOnce, loadErr = sync.Once{}, nil
	mock = true
	return func() { os.RemoveAll(dir) }
}

// newContext returns device 0's context, or skips the test.
func newContext(t *testing.T) *Context {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("no CUDA driver: %v", err)
	}
	c, err := NewContext(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestNoDriver(t *testing.T) {
	saved := libraries
	defer func() { libraries = saved }()
	libraries = []string{"libcuda-does-not-exist.so.1"}
	err := bind()
	if !errors.Is(err, ErrNoDriver) {
		t.Fatalf("bind() = %v, want an error wrapping ErrNoDriver", err)
	}
}

func TestPackArg(t *testing.T) {
	for _, c := range []struct {
		arg  any
		want []byte
	}{
		{DevicePtr(0x0102030405060708), []byte{8, 7, 6, 5, 4, 3, 2, 1}},
		{&Buffer{ptr: 0x10}, []byte{0x10, 0, 0, 0, 0, 0, 0, 0}},
		{int32(-2), []byte{0xfe, 0xff, 0xff, 0xff}},
		{uint32(7), []byte{7, 0, 0, 0}},
		{int64(-1), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{float32(1), binary.LittleEndian.AppendUint32(nil, math.Float32bits(1))},
		{float64(-2), binary.LittleEndian.AppendUint64(nil, math.Float64bits(-2))},
		{true, []byte{1}},
		{int8(-1), []byte{0xff}},
		{int16(-2), []byte{0xfe, 0xff}},
		{[]byte{0x00, 0x3c}, []byte{0x00, 0x3c}}, // f16 1.0
	} {
		got, err := packArg(c.arg)
		if err != nil || string(got) != string(c.want) {
			t.Errorf("packArg(%T %v) = %x, %v; want %x", c.arg, c.arg, got, err, c.want)
		}
	}
	for _, bad := range []any{int(1), "x", []byte{}, make([]byte, 9)} {
		if _, err := packArg(bad); err == nil {
			t.Errorf("packArg(%T) succeeded", bad)
		}
	}
}

func TestParseMeta(t *testing.T) {
	// Keys as Triton 3.6 writes them (abridged), unknown ones included.
	m, err := ParseMeta([]byte(`{"hash": "ab", "target": {"backend": "cuda", "arch": 90, "warp_size": 32},
		"num_warps": 8, "num_ctas": 1, "num_stages": 3, "shared": 65536, "global_scratch_size": 0,
		"global_scratch_align": 1, "profile_scratch_size": 0, "profile_scratch_align": 1, "name": "matmul_kernel"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Meta{Name: "matmul_kernel", NumWarps: 8, NumCTAs: 1, Shared: 65536, GlobalScratchAlign: 1, ProfileScratchAlign: 1}
	if m != want {
		t.Errorf("ParseMeta = %+v, want %+v", m, want)
	}
	if m.Threads() != 256 {
		t.Errorf("Threads = %d, want 256", m.Threads())
	}
	for _, c := range []struct{ json, err string }{
		{`{"num_warps": 4}`, "no kernel name"},
		{`{"name": "k"}`, "num_warps 0"},
		{`{"name": "k", "num_warps": 4, "num_ctas": 2}`, "clusters"},
		{`{"name": "k", "num_warps": 4, "shared": -1}`, "negative"},
		{`{"name": "k", "num_warps": 4, "threads_per_warp": -32}`, "negative"},
		{`{"name": `, "unexpected end"},
	} {
		if _, err := ParseMeta([]byte(c.json)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseMeta(%s) = %v, want an error with %q", c.json, err, c.err)
		}
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Call: "cuMemAlloc", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY", Desc: "out of memory"}
	if got, want := e.Error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	j := &JITError{Err: &Error{Call: "cuModuleLoadDataEx", Code: 218}, Log: "line 3; error\n"}
	if got, want := j.Error(), "cuModuleLoadDataEx: CUDA error (218)\nline 3; error"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if !errors.Is(j, error(j.Err)) {
		t.Error("a JITError does not unwrap to its Error")
	}
}

func TestDim3(t *testing.T) {
	if d := (Dim3{X: 4}); d.Count() != 4 || d.String() != "4,1,1" {
		t.Errorf("%v: Count %d", d, d.Count())
	}
	if d := (Dim3{X: 2, Y: 3, Z: 5}); d.Count() != 30 {
		t.Errorf("%v: Count %d", d, d.Count())
	}
}

func TestContext(t *testing.T) {
	c := newContext(t)
	if maj, _ := c.ComputeCapability(); maj < 7 || c.Name() == "" || c.Multiprocessors() <= 0 || c.TotalMemory() <= 0 {
		t.Errorf("device %v: implausible attributes", c)
	}
	if c.MaxSharedOptin() < 48<<10 {
		t.Errorf("MaxSharedOptin = %d", c.MaxSharedOptin())
	}
	if v, err := DriverVersion(); err != nil || v < 11000 {
		t.Errorf("DriverVersion = %d, %v", v, err)
	}
	if n, err := DeviceCount(); err != nil || n < 1 {
		t.Errorf("DeviceCount = %d, %v", n, err)
	}
	t.Logf("%v", c)
}

func TestMemory(t *testing.T) {
	c := newContext(t)
	const n = 1 << 20
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i * 7)
	}
	a, err := c.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	b, err := c.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := a.Write(src); err != nil {
		t.Fatal(err)
	}
	if err := b.Fill(0xab); err != nil {
		t.Fatal(err)
	}
	if err := c.Copy(b.Ptr(), a.Ptr(), n/2); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, n)
	if err := b.Read(got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		want := src[i]
		if i >= n/2 {
			want = 0xab
		}
		if got[i] != want {
			t.Fatalf("byte %d = %#x, want %#x", i, got[i], want)
		}
	}
	if err := a.Write(make([]byte, n+1)); err == nil {
		t.Error("a Write past the end succeeded")
	}
	z, err := c.Alloc(0)
	if err != nil || z.Ptr() != 0 || z.Free() != nil {
		t.Errorf("Alloc(0) = %v, %v", z, err)
	}
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	if err := a.Read(got); err == nil {
		t.Error("a Read from a freed buffer succeeded")
	}
}

// TestErrorNames checks that failures carry the driver's names.
func TestErrorNames(t *testing.T) {
	c := newContext(t)
	_, err := c.Alloc(1 << 50)
	var e *Error
	if !errors.As(err, &e) || e.Name != "CUDA_ERROR_OUT_OF_MEMORY" || e.Desc == "" || e.Call != "cuMemAlloc" {
		t.Errorf("Alloc(1 PiB) = %v, want cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY", err)
	}
	m := loadPTX(t, c, "copy1d_f32.ptx")
	_, err = m.Function("no_such_kernel")
	if !errors.As(err, &e) || e.Name != "CUDA_ERROR_NOT_FOUND" || !strings.Contains(err.Error(), "no_such_kernel") {
		t.Errorf("Function(no_such_kernel) = %v, want CUDA_ERROR_NOT_FOUND naming the kernel", err)
	}
}

func TestJITError(t *testing.T) {
	c := newContext(t)
	bad := ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry bad()\n{\n\tMOCK_PTX_ERROR;\n}\n"
	_, err := c.LoadPTX([]byte(bad))
	var j *JITError
	if !errors.As(err, &j) {
		t.Fatalf("LoadPTX(bad) = %v, want a *JITError", err)
	}
	if j.Err.Name != "CUDA_ERROR_INVALID_PTX" || !strings.Contains(j.Log, "error") {
		t.Errorf("LoadPTX(bad): %v", err)
	}
	t.Logf("%v", err)
}

func loadPTX(t *testing.T, c *Context, file string) *Module {
	t.Helper()
	ptx, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.LoadPTX(ptx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Unload() })
	return m
}

// TestCopyKernel launches the copy kernels (plain, and through shared
// memory and a shuffle) with Triton's ABI on a ragged size, with the
// default and an opted-in dynamic shared memory size, and checks the copy
// bit for bit.
func TestCopyKernel(t *testing.T) {
	c := newContext(t)
	const n = 1_000_003
	x := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i%1000)*0.25-7))
	}
	dx, err := c.Alloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer dx.Free()
	dy, err := c.Alloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer dy.Free()
	if err := dx.Write(x); err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct {
		file   string
		shared int
	}{
		{"copy1d_f32.ptx", 0},
		{"copy1d_f32_roundtrip.ptx", 2048},
		{"copy1d_f32_roundtrip.ptx", 96 << 10}, // above 48 KiB: needs the opt-in
	} {
		t.Run(fmt.Sprintf("%s/%d", v.file, v.shared), func(t *testing.T) {
			m := loadPTX(t, c, v.file)
			k, err := m.Kernel(Meta{Name: "copy1d", NumWarps: 4, Shared: v.shared})
			if err != nil {
				t.Fatal(err)
			}
			if err := dy.Fill(0xff); err != nil {
				t.Fatal(err)
			}
			if err := k.Launch(Dim3{X: (n + 511) / 512}, dx, dy, int32(n)); err != nil {
				t.Fatal(err)
			}
			if err := c.Synchronize(); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, 4*n)
			if err := dy.Read(got); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < len(got); i += 4 {
				if binary.LittleEndian.Uint32(got[i:]) != binary.LittleEndian.Uint32(x[i:]) {
					t.Fatalf("element %d: got %#x, want %#x", i/4, got[i:i+4], x[i:i+4])
				}
			}
			if !mock && k.Fn.Regs == 0 {
				t.Errorf("kernel reports %d registers", k.Fn.Regs)
			}
			t.Logf("%s: %d registers, %d local bytes; JIT: %s", v.file, k.Fn.Regs, k.Fn.LocalBytes, strings.TrimSpace(m.InfoLog))
		})
	}
}

// TestSharedLimit checks the error for more shared memory than a block
// can have.
func TestSharedLimit(t *testing.T) {
	c := newContext(t)
	m := loadPTX(t, c, "copy1d_f32_roundtrip.ptx")
	k, err := m.Kernel(Meta{Name: "copy1d", NumWarps: 4, Shared: c.MaxSharedOptin() + 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(Dim3{X: 1}, DevicePtr(0), DevicePtr(0), int32(0)); err == nil || !strings.Contains(err.Error(), "the device allows") {
		t.Errorf("Launch with too much shared memory = %v", err)
	}
}

// TestScratch checks that a kernel with global scratch gets a buffer of
// grid × (size rounded up to align) bytes.
func TestScratch(t *testing.T) {
	c := newContext(t)
	m := loadPTX(t, c, "copy1d_f32.ptx")
	k, err := m.Kernel(Meta{Name: "copy1d", NumWarps: 4, GlobalScratchSize: 100, GlobalScratchAlign: 128})
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.Prepare(Dim3{X: 3, Y: 2}, DevicePtr(0), DevicePtr(0), int32(0))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if len(l.owned) != 1 || l.owned[0].Size() != 6*128 {
		t.Fatalf("scratch buffers %v, want one of %d bytes", l.owned, 6*128)
	}
	if got := DevicePtr(binary.LittleEndian.Uint64(bytesOf(&l.slots[3]))); got != l.owned[0].Ptr() || l.slots[4] != 0 {
		t.Errorf("scratch arguments %#x, %#x; want %#x, 0", got, l.slots[4], l.owned[0].Ptr())
	}
}

func bytesOf(p *uint64) []byte { return binary.LittleEndian.AppendUint64(nil, *p) }

func TestTime(t *testing.T) {
	c := newContext(t)
	a, err := c.Alloc(64 << 20)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	b, err := c.Alloc(64 << 20)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	ds, err := c.Time(5, func(int) error { return c.Copy(b.Ptr(), a.Ptr(), a.Size()) })
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		if d <= 0 && !mock {
			t.Errorf("run %d took %v", i, d)
		}
	}
	t.Logf("64 MiB device copies: %v", ds)
}

// TestConcurrent uses one context from several goroutines at once.
func TestConcurrent(t *testing.T) {
	c := newContext(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				b, err := c.Alloc(4096)
				if err != nil {
					errs <- err
					return
				}
				want := []byte(fmt.Sprintf("%d/%d", g, i))
				got := make([]byte, len(want))
				if err := b.Write(want); err != nil {
					errs <- err
					return
				}
				if err := b.Read(got); err != nil || string(got) != string(want) {
					errs <- fmt.Errorf("read %q, %v; want %q", got, err, want)
					return
				}
				if err := b.Free(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestClosed(t *testing.T) {
	c := newContext(t)
	b, err := c.Alloc(16)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := b.Fill(0); !errors.Is(err, ErrClosed) {
		t.Errorf("Fill after Close = %v, want ErrClosed", err)
	}
	c.Close() // a second Close does nothing
}

// TestGraph captures a chain of copy-kernel launches and device copies,
// checks that nothing runs until the graph is launched and that the chain
// runs in order when it is, and times a graph of launches.
func TestGraph(t *testing.T) {
	c := newContext(t)
	const n = 4096
	bufs := make([]*Buffer, 4)
	for i := range bufs {
		b, err := c.Alloc(4 * n)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Free()
		if err := b.Fill(byte(i)); err != nil {
			t.Fatal(err)
		}
		bufs[i] = b
	}
	k, err := loadPTX(t, c, "copy1d_f32.ptx").Kernel(Meta{Name: "copy1d", NumWarps: 4})
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.Prepare(Dim3{X: n / 512}, bufs[0], bufs[1], int32(n))
	if err != nil {
		t.Fatal(err)
	}
	// bufs[0] -> bufs[1] (kernel), bufs[1] -> bufs[2] (copy), bufs[2] -> bufs[3] (copy).
	g, err := c.Capture(func(s *Stream) error {
		if err := l.RunOn(s); err != nil {
			return err
		}
		if err := s.Copy(bufs[2].Ptr(), bufs[1].Ptr(), 4*n); err != nil {
			return err
		}
		return s.Copy(bufs[3].Ptr(), bufs[2].Ptr(), 4*n)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Destroy()
	// The graph holds copies of the kernel's arguments: the launch can go.
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if g.Nodes() != 3 {
		t.Errorf("graph has %d nodes, want 3", g.Nodes())
	}
	read := func(b *Buffer) byte {
		t.Helper()
		if err := c.Synchronize(); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 4*n)
		if err := b.Read(got); err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != got[0] {
				t.Fatalf("byte %d is %d, byte 0 %d", i, v, got[0])
			}
		}
		return got[0]
	}
	if v := read(bufs[3]); v != 3 {
		t.Fatalf("before the graph's launch, the last buffer holds %d: the capture ran its work", v)
	}
	if err := g.Launch(); err != nil {
		t.Fatal(err)
	}
	if v := read(bufs[3]); v != 0 {
		t.Fatalf("after the graph's launch, the last buffer holds %d, want the first's 0", v)
	}

	// An error inside the capture is returned and leaves no graph.
	boom := errors.New("boom")
	if g2, err := c.Capture(func(*Stream) error { return boom }); !errors.Is(err, boom) || g2 != nil {
		t.Errorf("Capture of a failing function: %v, %v", g2, err)
	}

	// A graph of 50 launches, timed per launch.
	l, err = k.Prepare(Dim3{X: n / 512}, bufs[0], bufs[1], int32(n))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	g50, err := c.Capture(func(s *Stream) error {
		for range 50 {
			if err := l.RunOn(s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := c.Time(3, func(int) error { return g50.Launch() })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("graphs of 50 launches of a 16 KiB copy: %v", ds)
	if err := g50.Destroy(); err != nil {
		t.Fatal(err)
	}
	if err := g50.Destroy(); err != nil {
		t.Errorf("second Destroy: %v", err)
	}
	if err := g50.Launch(); err == nil {
		t.Error("Launch of a destroyed graph: no error")
	}
}

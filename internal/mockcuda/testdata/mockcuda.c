// A mock of the CUDA driver entry points package cuda binds, for its tests
// on machines without a GPU: device memory is host memory, a module is any
// image naming ".entry NAME(", and launching "copy1d" (the proof's copy
// kernel) runs its semantics on the host, so argument packing is checked
// end to end; streams capture copies and copy1d launches into graphs. Images containing "MOCK_PTX_ERROR" fail to load with a log.
// cuTensorMapEncodeTiled checks its arguments as the driver documents and
// writes them into the map; launching "tensormap_echo" copies its first
// argument, a map passed by value, to the buffer of its second.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

static const char *names[] = {[0] = "CUDA_SUCCESS", [1] = "CUDA_ERROR_INVALID_VALUE",
                              [2] = "CUDA_ERROR_OUT_OF_MEMORY", [218] = "CUDA_ERROR_INVALID_PTX",
                              [500] = "CUDA_ERROR_NOT_FOUND", [600] = "CUDA_ERROR_NOT_READY"};
static const char *descs[] = {[0] = "no error", [1] = "invalid argument", [2] = "out of memory",
                              [218] = "a PTX JIT compilation failed", [500] = "named symbol not found",
                              [600] = "device not ready"};

CUresult cuInit(unsigned f) { return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuGetErrorName(CUresult r, const char **s) {
	if (r < 0 || r > 600 || !names[r]) return 1;
	*s = names[r];
	return 0;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
	if (r < 0 || r > 600 || !descs[r]) return 1;
	*s = descs[r];
	return 0;
}
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int ord) { if (ord != 0) return 1; *d = 0; return 0; }
CUresult cuDeviceGetName(char *s, int n, int d) { strncpy(s, "Mock GPU", n); return 0; }
CUresult cuDeviceGetAttribute(int *v, int a, int d) {
	switch (a) {
	case 16: *v = 4; return 0;      // SMs
	case 75: *v = 9; return 0;      // cc major
	case 76: *v = 0; return 0;      // cc minor
	case 97: *v = 232448; return 0; // max shared optin
	}
	return 1;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int d) { *b = (size_t)1 << 34; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { *c = (void *)0x1234; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
CUresult cuCtxSetCurrent(void *c) { return 0; }
CUresult cuCtxSynchronize(void) { return 0; }

struct module { char *image; };
struct func { char name[64]; int maxdyn; };

CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *opts, void **vals) {
	char *elog = 0, *info = 0;
	for (unsigned i = 0; i < n; i++) {
		if (opts[i] == 3) info = vals[i];
		if (opts[i] == 5) elog = vals[i];
	}
	if (strstr(image, "MOCK_PTX_ERROR")) {
		if (elog) strcpy(elog, "ptxas application ptx input, line 1; error   : mock error");
		return 218;
	}
	if (info) strcpy(info, "ptxas info    : mock info");
	struct module *m = malloc(sizeof *m);
	m->image = strdup(image);
	*mod = m;
	return 0;
}
CUresult cuModuleUnload(void *mod) { free(((struct module *)mod)->image); free(mod); return 0; }
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
	char want[80];
	snprintf(want, sizeof want, ".entry %s(", name);
	if (!strstr(((struct module *)mod)->image, want)) return 500;
	struct func *f = calloc(1, sizeof *f);
	strncpy(f->name, name, 63);
	f->maxdyn = 48 << 10;
	*fn = f;
	return 0;
}
CUresult cuFuncGetAttribute(int *v, int a, void *fn) {
	switch (a) {
	case 0: *v = 1024; return 0;
	case 4: *v = 16; return 0;
	case 5: *v = 70; return 0;
	case 6: *v = 90; return 0;
	default: *v = 0; return 0;
	}
}
CUresult cuFuncSetAttribute(void *fn, int a, int v) {
	if (a != 8) return 1;
	((struct func *)fn)->maxdyn = v;
	return 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
	if (n > ((size_t)1 << 34)) return 2;
	void *m = malloc(n);
	if (!m) return 2;
	*p = (CUdeviceptr)(uintptr_t)m;
	return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) { memset((void *)(uintptr_t)p, v, n); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
// Streams capture: an operation queued on a capturing stream is recorded
// (its arguments copied, as the driver copies kernel parameters into the
// node) and runs only when the instantiated graph is launched.
struct op {
	int kind; // 0: copy1d launch, 1: device copy
	CUdeviceptr a, b;
	long n;
};
struct graph {
	int n, cap;
	struct op *ops;
};
struct stream {
	struct graph *capture; // non-null while capturing
};
static int record(void *st, struct op o) {
	struct graph *g = st ? ((struct stream *)st)->capture : NULL;
	if (!g) return 0;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 8;
		g->ops = realloc(g->ops, g->cap * sizeof *g->ops);
	}
	g->ops[g->n++] = o;
	return 1;
}
static void run(struct op o) {
	if (o.kind == 1) {
		memmove((void *)(uintptr_t)o.a, (void *)(uintptr_t)o.b, o.n);
		return;
	}
	const float *x = (const float *)(uintptr_t)o.a;
	float *y = (float *)(uintptr_t)o.b;
	for (long i = 0; i < o.n; i++) y[i] = x[i];
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void *st) {
	struct op o = {1, d, s, (long)n};
	if (!record(st, o)) run(o);
	return 0;
}
CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void *stream, void **params, void **extra) {
	struct func *f = fn;
	if (smem > (unsigned)f->maxdyn) return 1;
	if (strcmp(f->name, "tensormap_echo") == 0) {
		if ((uintptr_t)params[0] % 64 != 0) return 1;
		memcpy((void *)(uintptr_t)*(CUdeviceptr *)params[1], params[0], 128);
		return 0;
	}
	if (strcmp(f->name, "copy1d") == 0) {
		if (bx * by * bz != 128) return 1;
		CUdeviceptr x = *(CUdeviceptr *)params[0], y = *(CUdeviceptr *)params[1];
		long n = *(int *)params[2];
		if (*(CUdeviceptr *)params[3] != 0 || *(CUdeviceptr *)params[4] != 0) return 1;
		if ((long)gx * 512 < n) n = (long)gx * 512;
		struct op o = {0, x, y, n < 0 ? 0 : n};
		if (!record(stream, o)) run(o);
	}
	return 0;
}
CUresult cuStreamCreate(void **st, unsigned flags) { *st = calloc(1, sizeof(struct stream)); return 0; }
CUresult cuStreamDestroy_v2(void *st) {
	if (((struct stream *)st)->capture) return 1;
	free(st);
	return 0;
}
CUresult cuStreamBeginCapture_v2(void *st, int mode) {
	struct stream *s = st;
	if (!s || s->capture || mode < 0 || mode > 2) return 1;
	s->capture = calloc(1, sizeof(struct graph));
	return 0;
}
CUresult cuStreamEndCapture(void *st, void **g) {
	struct stream *s = st;
	if (!s || !s->capture) return 1;
	*g = s->capture;
	s->capture = NULL;
	return 0;
}
CUresult cuGraphGetNodes(void *g, void **nodes, size_t *n) {
	if (nodes) return 1; // the mock has no node handles
	*n = ((struct graph *)g)->n;
	return 0;
}
CUresult cuGraphInstantiateWithFlags(void **exec, void *g, unsigned long long flags) {
	struct graph *src = g, *e = calloc(1, sizeof *e);
	e->n = e->cap = src->n;
	e->ops = malloc((src->n ? src->n : 1) * sizeof *e->ops);
	memcpy(e->ops, src->ops, src->n * sizeof *e->ops);
	*exec = e;
	return 0;
}
CUresult cuGraphLaunch(void *exec, void *st) {
	struct graph *e = exec;
	for (int i = 0; i < e->n; i++) run(e->ops[i]);
	return 0;
}
static void freegraph(struct graph *g) { free(g->ops); free(g); }
CUresult cuGraphExecDestroy(void *exec) { freegraph(exec); return 0; }
CUresult cuGraphDestroy(void *g) { freegraph(g); return 0; }
CUresult cuEventCreate(void **ev, unsigned flags) { *ev = calloc(1, sizeof(double)); return 0; }
CUresult cuEventDestroy_v2(void *ev) { free(ev); return 0; }
CUresult cuEventRecord(void *ev, void *stream) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	*(double *)ev = t.tv_sec * 1e3 + t.tv_nsec / 1e6;
	return 0;
}
CUresult cuEventSynchronize(void *ev) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = *(double *)b - *(double *)a; return 0; }

// The map records rank, data type, swizzle, fill, base, dims, byte strides
// and box, innermost first, as the driver receives them.
CUresult cuTensorMapEncodeTiled(void *map, unsigned dtype, unsigned rank, void *base, const uint64_t *dims,
                                const uint64_t *strides, const unsigned *box, const unsigned *elemStrides,
                                unsigned interleave, unsigned swizzle, unsigned l2, unsigned fill) {
	static const int size[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
	if (rank < 1 || rank > 5 || dtype > 12 || (uintptr_t)map % 64 || (uintptr_t)base % 16) return 1;
	if (interleave != 0 || swizzle > 3 || l2 > 3 || fill > 1) return 1;
	if ((uint64_t)box[0] * size[dtype] % 16) return 1;
	if (swizzle && box[0] * size[dtype] > (16u << swizzle)) return 1;
	for (unsigned i = 0; i < rank; i++) {
		if (dims[i] == 0 || box[i] == 0 || box[i] > 256 || elemStrides[i] != 1) return 1;
		if (i + 1 < rank && strides[i] % 16) return 1;
	}
	uint64_t *m = map;
	memset(map, 0, 128);
	m[0] = rank | (uint64_t)dtype << 8 | (uint64_t)swizzle << 16 | (uint64_t)fill << 24 | (uint64_t)l2 << 32;
	m[1] = (uintptr_t)base;
	for (unsigned i = 0; i < rank; i++) {
		m[2 + i] = dims[i];
		if (i + 1 < rank) m[7 + i] = strides[i];
		m[11 + i / 2] |= (uint64_t)box[i] << (32 * (i % 2));
	}
	return 0;
}

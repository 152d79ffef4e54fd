package passes_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/layoutopt/layoutopt/internal/testenv"
	"github.com/layoutopt/layoutopt/ir"
	"github.com/layoutopt/layoutopt/passes"
)

func benchPipeline(b *testing.B, file, pipeline string) {
	benchPrepared(b, file, nil, pipeline)
}

// benchPrepared is benchPipeline on the module as prepare (when not nil)
// leaves it, prepared once outside the measure.
func benchPrepared(b *testing.B, file string, prepare func(*ir.Module) error, pipeline string) {
	src, err := os.ReadFile(filepath.Join(sharedDir(b, "triton36"), file))
	if err != nil {
		b.Skip(err)
	}
	m := ir.MustParse(string(src))
	if prepare != nil {
		if err := prepare(m); err != nil {
			b.Fatal(err)
		}
	}
	p, err := passes.ParsePipeline(pipeline)
	if err != nil {
		b.Fatal(err)
	}
	cfg := passes.RunConfig{DisableVerify: true}
	b.ReportAllocs()
	for b.Loop() {
		c := m.Clone()
		if _, err := p.Run(c, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRemoveConversionsMatmul(b *testing.B) {
	benchPipeline(b, "prepost/matmul_64x64x32_f16_sm80_w4.pre.ttgir", "builtin.module(remove-redundant-conversions)")
}

func BenchmarkRemoveConversionsTranspose(b *testing.B) {
	benchPipeline(b, "prepost/transpose_64x64_f32_sm90_w4.pre.ttgir", "builtin.module(remove-redundant-conversions)")
}

func BenchmarkCanonicalizeNamed(b *testing.B) {
	benchPipeline(b, "ttgir/matmul_128x128x64_f16_sm90_w8.ttgir", "builtin.module(canonicalize-layouts)")
}

func BenchmarkCanonicalizeLinear(b *testing.B) {
	benchPipeline(b, "ttgir/matmul_128x128x64_f16_sm90_w8.ttgir", "builtin.module(canonicalize-layouts{form=linear})")
}

// BenchmarkCloneOnly is the baseline the benchmarks above include.
func BenchmarkCloneOnly(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(sharedDir(b, "triton36"), "prepost/matmul_64x64x32_f16_sm80_w4.pre.ttgir"))
	if err != nil {
		b.Skip(err)
	}
	m := ir.MustParse(string(src))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.Clone()
	}
}

// benchAnalysis runs an analysis pipeline (it does not change the module,
// so there is no clone) and checks that it reports remarks.
func benchAnalysis(b *testing.B, file, pipeline string) {
	src, err := os.ReadFile(filepath.Join(sharedDir(b, "triton36"), file))
	if err != nil {
		b.Skip(err)
	}
	m := ir.MustParse(string(src))
	p, err := passes.ParsePipeline(pipeline)
	if err != nil {
		b.Fatal(err)
	}
	cfg := passes.RunConfig{DisableVerify: true}
	b.ReportAllocs()
	defer testenv.CPUMetric(b)()
	for b.Loop() {
		d, err := p.Run(m, cfg)
		if err != nil || len(d) == 0 {
			b.Fatal(err, d)
		}
	}
}

// BenchmarkBankConflictsMatmul is the bank-conflicts analysis on the shared
// sm_80 matmul: 4 local_alloc/local_load remarks and one conversion planned
// through shared memory.
func BenchmarkBankConflictsMatmul(b *testing.B) {
	benchAnalysis(b, "ttgir/matmul_64x64x32_f16_sm80_w4.ttgir", "builtin.module(tt.func(bank-conflicts))")
}

// BenchmarkBankConflictsMatmulSM90 is the same on the sm_90 matmul (mma v3,
// eight warps).
func BenchmarkBankConflictsMatmulSM90(b *testing.B) {
	benchAnalysis(b, "ttgir/matmul_128x128x64_f16_sm90_w8.ttgir", "builtin.module(tt.func(bank-conflicts))")
}

func BenchmarkCoalesceMatmul(b *testing.B) {
	benchPipeline(b, "ttgir/matmul_64x64x32_f16_sm80_w4.ttgir", "builtin.module(coalesce)")
}

// specialize-divisibility on Triton's f16 transpose: seven trial clones
// (all six candidate arguments assumed divisible, then one without each),
// each coalesced and propagated, then the rewrite.
func BenchmarkSpecializeDivisibilityTranspose(b *testing.B) {
	benchPipeline(b, "ttgir/transpose_64x64_f16_sm80_w4.ttgir", "builtin.module(specialize-divisibility)")
}

// l2-prefetch on Triton's f16 transpose after specialize-divisibility (as
// layout-translate runs it, done once here): the axis and program-id
// analyses of both bodies, two loads marked; each iteration clones the
// module.
func BenchmarkL2PrefetchTranspose(b *testing.B) {
	benchPrepared(b, "ttgir/transpose_64x64_f16_sm80_w4.ttgir", func(m *ir.Module) error {
		_, err := passes.SpecializeDivisibility(m, 16)
		return err
	}, "builtin.module(tt.func(l2-prefetch))")
}

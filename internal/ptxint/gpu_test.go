package ptxint

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestGPUNaNs runs every statement of testdata/gpu_nans.jsonl, what an H100
// computed for PTX float instructions on NaNs (quiet with payloads, of either
// sign, signaling), infinities and signed zeros in f64, f32, f16, bf16 and
// their packed forms (testdata/gen/nan_oracle.py), and wants the same bits
// (an .approx instruction's within the PTX ISA's bound).
func TestGPUNaNs(t *testing.T) {
	f, err := os.Open("testdata/gpu_nans.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var row struct {
			Asm, Constraints string
			Ins, Outs        []string
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		n++
		p, err := Parse(row.Asm, row.Constraints)
		if err != nil {
			t.Errorf("%s: %v", row.Asm, err)
			continue
		}
		got, err := p.Run(hexes(t, row.Ins))
		if err != nil {
			t.Errorf("%s: %v", row.Asm, err)
			continue
		}
		want := hexes(t, row.Outs)
		for i := range want {
			if got[i] != want[i] && !withinApprox(row.Asm, got[i], want[i]) {
				t.Errorf("%s %s on %s: output %d is %#x, the GPU's %#x", row.Asm, row.Constraints, row.Ins, i, got[i], want[i])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 300 {
		t.Fatalf("%d cases, want the oracle's 317", n)
	}
}

// withinApprox says whether got and want, f32 results of an .approx
// instruction (computed here exactly, then rounded), differ within the PTX
// ISA's bound for it.
func withinApprox(asm string, got, want uint64) bool {
	op, _, _ := strings.Cut(asm, ".approx.")
	if op == asm {
		return false
	}
	g, w := float64(math.Float32frombits(uint32(got))), float64(math.Float32frombits(uint32(want)))
	if math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0) {
		return false
	}
	ulps := math.Abs(float64(int64(int32(got)) - int64(int32(want))))
	switch op {
	case "sin", "cos":
		return math.Abs(g-w) <= math.Exp2(-20.9)
	case "lg2":
		return math.Abs(g-w) <= math.Exp2(-22.6)
	case "tanh":
		return math.Abs(g-w) <= math.Exp2(-10.987)*math.Abs(w)
	case "ex2", "rsqrt", "div":
		return ulps <= 2
	case "rcp", "sqrt":
		return ulps <= 1
	}
	return false
}

func hexes(t *testing.T, xs []string) []uint64 {
	t.Helper()
	out := make([]uint64, len(xs))
	for i, x := range xs {
		v, err := strconv.ParseUint(x, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = v
	}
	return out
}

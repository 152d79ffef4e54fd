package ir

import (
	"strings"
	"testing"
	"time"
)

// TestPathological checks that hostile inputs (unbalanced brackets, deep
// nesting, many errors, many forward references) are handled in linear-ish time.
func TestPathological(t *testing.T) {
	cases := map[string]string{
		"tensor<":     strings.Repeat("%0 = \"x\"() : () -> tensor<", 5000),
		"blocked<":    strings.Repeat("#a = #ttg.blocked<", 5000),
		"opaque<":     strings.Repeat("#a = #foo.bar<", 5000),
		"lines":       strings.Repeat("%0 = \"x.y\"(\n", 20000),
		"brackets":    strings.Repeat("<", 20000),
		"fwd":         "\"x.r\"() ({\n" + strings.Repeat("\"x.y\"(%a) : (i32) -> ()\n", 20000) + "}) : () -> ()",
		"manyerrors":  strings.Repeat("}\n", 20000),
		"ptr":         strings.Repeat("%0 = \"x\"() : () -> !tt.ptr<", 5000),
		"locs":        strings.Repeat("#loc = loc(", 5000),
		"deepregions": strings.Repeat("\"x.r\"() ({\n", 400) + strings.Repeat("}) : () -> ()\n", 400),
	}
	for name, src := range cases {
		start := time.Now()
		ParseString(src, ParseConfig{AllowUnregistered: true, MaxErrors: 1000})
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: %v", name, d)
		}
	}
}

package tensorlayout

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The page is self-contained: no script, no reference outside it, every
// internal link has its anchor, and every convert_layout is listed with a
// class.
func TestHTMLSelfContained(t *testing.T) {
	kernel := filepath.Join("..", "examples", "ttgir", "matmul_64x64x32_f16_sm80_w4.ttgir")
	out, errs, code := run(t, ".", "-i", kernel, "-view", "html")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	// The SVG namespace is a name, not a reference.
	page := strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, "")
	for _, bad := range []string{"<script", "http://", "https://", "src=", "@import", "url("} {
		if i := strings.Index(page, bad); i >= 0 {
			t.Errorf("the page contains %q: …%s…", bad, page[max(0, i-80):min(len(page), i+40)])
		}
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllStringSubmatch(out, -1) {
		ids[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "#") || !ids[m[1][1:]] {
			t.Errorf("link %q goes nowhere on the page", m[1])
		}
	}
	data, _ := os.ReadFile(kernel)
	n := strings.Count(string(data), "ttg.convert_layout ")
	for i := 0; i < n; i++ {
		if !ids["cvt-"+strconv.Itoa(i)] {
			t.Errorf("no section for conversion %d", i)
		}
	}
	for _, want := range []string{"shared memory", "no-op", "16384", "ldmatrix", `id="alias-mma"`, `<a href="#alias-blocked8">#blocked8</a>`, "<svg "} {
		if !strings.Contains(out, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	if len(out) > 3<<20 {
		t.Errorf("the page is %d bytes", len(out))
	}
}

// A shared alias is drawn with the banks of the element type of the types
// that use it: one picture per element width, none for a width it is not
// used with.
func TestHTMLSharedBanksFollowElementType(t *testing.T) {
	dir := t.TempDir()
	kernel := `#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: !ttg.memdesc<8x8xf32, #shared, #smem>, %b: !ttg.memdesc<8x8xi8, #shared, #smem>, %c: !ttg.memdesc<8x8xf32, #shared, #smem, mutable>) {
    tt.return
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "k.ttgir"), []byte(kernel), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := run(t, dir, "-i", "k.ttgir", "-view", "html")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, want := range []string{"#shared on 8x8xf32", "of 32-bit elements", "#shared on 8x8xi8", "of 8-bit elements",
		// 8x8 f32 row-major: element (0, 1) is word 1, bank 1; in i8
		// four elements share word 0.
		"(0, 1): offset 1, word 1, bank 1", "(0, 1): offset 1, word 0, bank 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	if strings.Contains(out, "16-bit elements") || strings.Count(out, "#shared on 8x8xf32") != 1 {
		t.Errorf("a picture for a width no type uses, or f32 drawn twice")
	}
}

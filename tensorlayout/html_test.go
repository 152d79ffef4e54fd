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

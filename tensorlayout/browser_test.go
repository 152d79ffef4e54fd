package tensorlayout

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

const chromium = "/usr/bin/chromium"

// TestHTMLInChromium opens the -view html page of the example matmul kernel
// in headless Chromium, takes a screenshot and checks that it has the
// window's size and is not blank. It skips where Chromium is absent, except
// in CI (CI=true), where that is a failure.
func TestHTMLInChromium(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is absent (.ci/run installs the chromium package)", chromium)
		}
		t.Skipf("%s is absent", chromium)
	}
	dir := t.TempDir()
	kernel, err := filepath.Abs(filepath.Join("..", "examples", "ttgir", "matmul_64x64x32_f16_sm80_w4.ttgir"))
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "matmul.html")
	if _, errs, code := run(t, dir, "-i", kernel, "-view", "html", "-o", page); code != 0 {
		t.Fatalf("tensor-layout: status %d: %s", code, errs)
	}
	shot := filepath.Join(dir, "shot.png")
	const w, h = 1024, 2400
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "--window-size=1024,2400", "file://"+page)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out.String())
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out.String())
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), w, h)
	}
	// Not blank: many colours (the warp palette, the class swatches, text)
	// and a good share of non-white pixels.
	colours, ink := map[uint32]bool{}, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				ink++
			}
		}
	}
	share := float64(ink) / float64(b.Dx()*b.Dy()/4)
	t.Logf("%d colours, %.1f%% ink", len(colours), 100*share)
	if len(colours) < 16 || share < 0.03 {
		t.Fatalf("the screenshot looks blank: %d colours, %.1f%% non-white", len(colours), 100*share)
	}
	// The summary's swatch of a shared-memory round trip, and the first
	// layout's cells of warp 0, below it.
	for _, c := range []string{moveColours[moveWarp], warpPalette[0]} {
		if !hasColour(img, c) {
			t.Errorf("the screenshot has no pixel of colour %s", c)
		}
	}
}

// hasColour reports whether img has a pixel of colour #RRGGBB, within 8 per
// channel.
func hasColour(img image.Image, hex string) bool {
	var want [3]uint32
	for i := range want {
		var v uint32
		for _, c := range hex[1+2*i : 3+2*i] {
			v = v*16 + uint32(bytes.IndexByte([]byte("0123456789ABCDEF"), byte(c)))
		}
		want[i] = v
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			got := [3]uint32{r >> 8, g >> 8, bl >> 8}
			ok := true
			for i := range got {
				d := int(got[i]) - int(want[i])
				ok = ok && d > -8 && d < 8
			}
			if ok {
				return true
			}
		}
	}
	return false
}

package tensorlayout_test

import (
	"os"
	"strings"

	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/tensorlayout"
)

func Example() {
	p := &proc.Proc{
		Args: []string{
			"-l", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
			"-t", "tensor<64x64xf32>",
			"-view", "linear",
		},
		Stdin:  strings.NewReader(""),
		Stdout: os.Stdout,
		Stderr: os.Stdout,
	}
	tensorlayout.Main(p)
	// Output:
	// #ttg.linear<{register = [[0, 1], [8, 0], [0, 16], [0, 32], [32, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 8], [16, 0]], block = []}>
}

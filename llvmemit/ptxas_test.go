package llvmemit_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// findPTXAS returns the ptxas the tests assemble PTX with: $PTXAS, else
// ptxas on PATH, else CUDA's; "" when there is none. .ci/run installs
// CUDA 12.4's (Debian 13's nvidia-cuda-toolkit), which knows PTX ISA 8.4
// and sm_90a; a file newer than the ptxas found knows is left to the GPU
// machine's ptxas (the proof's ptxas sweep).
func findPTXAS() string {
	if p := os.Getenv("PTXAS"); p != "" {
		return p
	}
	if p, err := exec.LookPath("ptxas"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/local/cuda/bin/ptxas"); err == nil {
		return "/usr/local/cuda/bin/ptxas"
	}
	return ""
}

// ptxasChecker assembles PTX files with ptxas (-v) in the background, a
// few at a time, and reports at wait: a file ptxas rejects fails the test,
// one whose .version or .target is newer than this ptxas knows is counted,
// and the kernels that spill registers are kept in spills.
type ptxasChecker struct {
	path string
	dir  string
	sem  chan struct{}
	wg   sync.WaitGroup

	mu               sync.Mutex
	assembled, newer int
	failures         []string
	spills           []string // "name: N bytes spill stores, M bytes spill loads"
}

// newPTXAS returns a checker, or nil when there is no ptxas (logged).
func newPTXAS(t *testing.T) *ptxasChecker {
	p := findPTXAS()
	if p == "" {
		t.Log("no ptxas ($PTXAS, PATH, /usr/local/cuda): the PTX is not assembled")
		return nil
	}
	return &ptxasChecker{path: p, dir: t.TempDir(), sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

var ptxTarget = regexp.MustCompile(`(?m)^\.target (sm_[0-9]+a?)`)

// spill is ptxas -v's report of a function that spills.
var spill = regexp.MustCompile(`[1-9][0-9]* bytes spill stores, [0-9]+ bytes spill loads`)

// tooNew are ptxas's messages for a header it does not know.
var tooNew = regexp.MustCompile(`Unsupported \.version|is not defined for option 'gpu-name'`)

// check assembles ptx (the final PTX, header included) for its .target.
func (c *ptxasChecker) check(name string, ptx []byte) {
	if c == nil {
		return
	}
	m := ptxTarget.FindSubmatch(ptx)
	if m == nil {
		c.fail(name + ": no .target line")
		return
	}
	c.wg.Add(1)
	c.sem <- struct{}{}
	go func() {
		defer func() { <-c.sem; c.wg.Done() }()
		f := filepath.Join(c.dir, strings.NewReplacer("/", "_", "#", "_").Replace(name)+".ptx")
		if err := os.WriteFile(f, ptx, 0o644); err != nil {
			c.fail(name + ": " + err.Error())
			return
		}
		defer os.Remove(f)
		out, err := exec.Command(c.path, "-v", "--gpu-name", string(m[1]), f, "-o", os.DevNull).CombinedOutput()
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case err == nil:
			c.assembled++
			for _, sp := range spill.FindAllSubmatch(out, -1) {
				c.spills = append(c.spills, name+": "+string(sp[0]))
			}
		case tooNew.Match(out):
			c.newer++
		default:
			c.failures = append(c.failures, name+" ("+string(m[1])+"): "+string(bytes.TrimSpace(out)))
		}
	}()
}

func (c *ptxasChecker) fail(msg string) {
	c.mu.Lock()
	c.failures = append(c.failures, msg)
	c.mu.Unlock()
}

// wait waits for every check and reports them.
func (c *ptxasChecker) wait(t *testing.T) {
	if c == nil {
		return
	}
	c.wg.Wait()
	for _, f := range c.failures {
		t.Errorf("ptxas rejects %s", f)
	}
	t.Logf("%s: %d PTX files assemble (%d spill), %d rejected, %d with a header newer than it knows (left to the GPU machine's ptxas)",
		c.path, c.assembled, len(c.spills), len(c.failures), c.newer)
	// CI's ptxas (CUDA 12.4's, .ci/run) knows every header the lowering
	// writes: a newer one there is a lowering that outgrew it.
	if os.Getenv("CI") == "true" && c.newer > 0 {
		t.Errorf("%d PTX files have a header newer than CI's ptxas knows", c.newer)
	}
}

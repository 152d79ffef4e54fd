//go:build linux

package cuda

import (
	"fmt"
	"os"
	"syscall"

	"github.com/ebitengine/purego"
)

// libraries are the names the driver library is opened by, in order.
var libraries = []string{"libcuda.so.1", "libcuda.so"}

// LibraryEnv names the environment variable that, when set, is the path of
// the driver library to load instead of libcuda.so.1 (a mock driver, say).
const LibraryEnv = "LAYOUTOPT_LIBCUDA"

func bind() error {
	var lib uintptr
	var err error
	names := libraries
	if p := os.Getenv(LibraryEnv); p != "" {
		names = []string{p}
	}
	for _, name := range names {
		if lib, err = purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	for _, s := range symbols() {
		var sym uintptr
		for _, name := range s.names {
			if name == optional {
				break
			}
			if sym, err = purego.Dlsym(lib, name); err == nil {
				break
			}
		}
		if sym == 0 && s.names[len(s.names)-1] == optional {
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: the driver library lacks %v: %v", ErrNoDriver, s.names, err)
		}
		purego.RegisterFunc(s.fn, sym)
	}
	return nil
}

// threadID identifies the calling OS thread.
func threadID() int { return syscall.Gettid() }

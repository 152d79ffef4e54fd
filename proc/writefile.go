package proc

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// WriteFileAtomic writes data to the file name so that nothing already on
// disk is lost when the write fails: a regular file (new or existing) is
// written to a temporary file in the same directory and renamed over name,
// keeping an existing file's permissions. A symbolic link is followed, so
// its target is replaced and the link stays. A path that is not a regular
// file — a device such as /dev/null, a FIFO, a terminal — is written
// directly, never replaced. A directory is an error.
func WriteFileAtomic(name string, data []byte) error {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(name)
		if err != nil {
			// A dangling link: writing through it creates its target.
			return os.WriteFile(name, data, 0o644)
		}
		name = target
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		switch {
		case fi.IsDir():
			return &os.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		case !fi.Mode().IsRegular():
			return os.WriteFile(name, data, 0)
		}
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

package optdriver

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// streamedOutput prints the output straight into a temporary file next to
// the output file and renames it into place on success, which is what
// proc.WriteFileAtomic does with a buffered output, without holding the
// whole output in memory (as large as the input, for a large module).
type streamedOutput struct {
	f    *os.File
	w    *bufio.Writer
	name string      // the output file
	mode os.FileMode // its permissions
	err  error       // the first write error
	done bool        // committed or aborted
}

// streamOutput starts a streamed output to name, or returns nil where the
// buffered path applies: name is a symbolic link or exists and is not a
// regular file (a device is written directly, and only on success), or the
// temporary file cannot be created (WriteFileAtomic then reports the
// error, after the input's diagnostics, as without streaming).
func streamOutput(name string) *streamedOutput {
	mode := os.FileMode(0o644)
	fi, err := os.Lstat(name)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return nil
	case err == nil:
		mode = fi.Mode().Perm()
	case !errors.Is(err, os.ErrNotExist):
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return nil
	}
	s := &streamedOutput{f: f, name: name, mode: mode}
	s.w = bufio.NewWriterSize(errWriter{s}, 256<<10)
	return s
}

// errWriter writes to the temporary file and keeps the first error for
// commit, so that the printer never sees one (a failed write is reported
// as "cannot write output file", as WriteFileAtomic's would be).
type errWriter struct{ s *streamedOutput }

func (e errWriter) Write(b []byte) (int, error) {
	if e.s.err == nil {
		_, e.s.err = e.s.f.Write(b)
	}
	return len(b), nil
}

// Write appends to the output.
func (s *streamedOutput) Write(b []byte) (int, error) { return s.w.Write(b) }

// commit flushes the output and renames it over the output file.
func (s *streamedOutput) commit() error {
	s.done = true
	s.w.Flush()
	err := errors.Join(s.err, s.f.Close())
	if err == nil {
		err = os.Chmod(s.f.Name(), s.mode)
	}
	if err == nil {
		err = os.Rename(s.f.Name(), s.name)
	}
	if err != nil {
		os.Remove(s.f.Name())
	}
	return err
}

// abort removes the temporary file, leaving the output file as it was;
// after commit it does nothing.
func (s *streamedOutput) abort() {
	if s.done {
		return
	}
	s.done = true
	s.f.Close()
	os.Remove(s.f.Name())
}

var _ io.Writer = (*streamedOutput)(nil)

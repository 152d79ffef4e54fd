package proc

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// A new file, then an existing one whose permissions are kept.
	file := filepath.Join(dir, "out.txt")
	if err := WriteFileAtomic(file, []byte("one")); err != nil || read(file) != "one" {
		t.Fatalf("new file: err %v, content %q", err, read(file))
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(file, []byte("two")); err != nil || read(file) != "two" {
		t.Fatalf("existing file: err %v, content %q", err, read(file))
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("permissions became %v, want 0600", fi.Mode().Perm())
	}

	// A symbolic link stays a link; its target gets the data.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("three")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	if got := read(file); got != "three" {
		t.Errorf("link target holds %q, want three", got)
	}

	// A device is written, not replaced.
	if err := WriteFileAtomic(os.DevNull, []byte("x")); err != nil {
		t.Errorf("writing %s: %v", os.DevNull, err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v, %v", os.DevNull, fi, err)
	}

	// A directory is an error, and nothing is left behind.
	if err := WriteFileAtomic(dir, []byte("x")); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("writing a directory: got %v, want EISDIR", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

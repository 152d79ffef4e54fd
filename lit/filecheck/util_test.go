package filecheck

import (
	"os"
	"path/filepath"
)

func writeFile(dir, name, text string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
}

package ir

import (
	"math"
	"sync"
	"sync/atomic"
)

// opPos is an Operation's source position in 12 bytes (a Pos takes 32):
// the file as an index into posFiles, the line and the column.
type opPos struct{ file, line, col int32 }

// posFiles holds the file names of op positions, each once; index 0 is
// "". Readers load the slice without locking: it only grows, and a new
// header is published after the name is written. The names are kept for
// the life of the process (one per distinct file name parsed).
var posFiles struct {
	mu    sync.Mutex
	names atomic.Pointer[[]string]
	index map[string]int32
}

// fileIndex returns the index of file in posFiles, adding it if needed.
func fileIndex(file string) int32 {
	if file == "" {
		return 0
	}
	posFiles.mu.Lock()
	defer posFiles.mu.Unlock()
	if i, ok := posFiles.index[file]; ok {
		return i
	}
	var names []string
	if p := posFiles.names.Load(); p != nil {
		names = *p
	} else {
		names = []string{""}
		posFiles.index = map[string]int32{}
	}
	i := int32(len(names))
	names = append(names, file)
	posFiles.names.Store(&names)
	posFiles.index[file] = i
	return i
}

func clamp32(n int) int32 { return int32(min(max(n, 0), math.MaxInt32)) }

func packPos(p Pos) opPos {
	return opPos{fileIndex(p.File), clamp32(p.Line), clamp32(p.Col)}
}

func (p opPos) unpack() Pos {
	var file string
	if p.file != 0 {
		file = (*posFiles.names.Load())[p.file]
	}
	return Pos{File: file, Line: int(p.line), Col: int(p.col)}
}

// Pos returns where the op was parsed (the zero Pos for ops built by
// code).
func (op *Operation) Pos() Pos { return op.pos.unpack() }

// SetPos sets the position that Pos returns.
func (op *Operation) SetPos(p Pos) { op.pos = packPos(p) }

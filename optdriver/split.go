package optdriver

import (
	"strings"

	"github.com/layoutopt/layoutopt/ir"
)

// DefaultSplitMarker separates the chunks of a -split-input-file input and
// of the output, as in mlir-opt.
const DefaultSplitMarker = "// -----"

// chunk is one piece of a split input.
type chunk struct {
	text      string
	startLine int // 1-based line of text[0] in the whole input
	offset    int // byte offset of text in the whole input
}

// splitInput splits src at each occurrence of marker, the way mlir-opt's
// splitAndProcessBuffer does: src is cut at every occurrence of marker
// minus its last two characters, and a cut only counts when the full
// marker follows and is not itself followed by the marker's last character
// (so "// ------" is not a marker). Near misses ("// ----", "// ------")
// do not split, and are returned as warnings located in src. An empty
// marker gives src as one chunk.
func splitInput(src, marker, file string) ([]chunk, ir.Diagnostics) {
	if marker == "" {
		return []chunk{{text: src, startLine: 1}}, nil
	}
	checkLen := min(2, len(marker)-1)
	prefix := marker[:len(marker)-checkLen]
	suffix := marker[len(marker)-checkLen:]
	var chunks []chunk
	var warns ir.Diagnostics
	start := 0 // start of the current chunk
	from := 0  // where to look for the next prefix
	for {
		i := strings.Index(src[from:], prefix)
		if i < 0 {
			break
		}
		i += from
		after := i + len(prefix)
		rest := src[after:]
		last := marker[len(marker)-1]
		if strings.HasPrefix(rest, suffix) && len(rest) > len(suffix) && rest[len(suffix)] != last {
			chunks = append(chunks, chunk{text: src[start:i], offset: start})
			start = after + len(suffix)
		} else {
			warns = append(warns, ir.Diagnostic{
				Pos:      posAt(src, after, file),
				Severity: ir.Warning,
				Msg:      "near miss with file split marker",
			})
		}
		from = after
	}
	chunks = append(chunks, chunk{text: src[start:], offset: start})
	line, counted := 1, 0 // line of src[counted]; offsets increase
	for i := range chunks {
		line += strings.Count(src[counted:chunks[i].offset], "\n")
		chunks[i].startLine, counted = line, chunks[i].offset
	}
	return chunks, warns
}

// posAt returns the position of byte offset off of src.
func posAt(src string, off int, file string) ir.Pos {
	line := 1 + strings.Count(src[:off], "\n")
	col := off - (strings.LastIndexByte(src[:off], '\n') + 1) + 1
	return ir.Pos{File: file, Line: line, Col: col}
}

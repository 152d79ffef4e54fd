package tensorlayout

// The tool reads TTGIR: it registers every dialect.
import _ "github.com/layoutopt/layoutopt/dialect"

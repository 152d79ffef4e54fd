package passes

// The passes rewrite TTGIR ops by name: they register every dialect.
import _ "github.com/layoutopt/layoutopt/dialect"

package optdriver

// The driver parses TTGIR: it registers every dialect.
import _ "github.com/layoutopt/layoutopt/dialect"

package optdriver

// The driver reads every dialect of Triton 3.6's TTGIR: importing the
// umbrella package registers them all in ir.Default().
import _ "github.com/layoutopt/layoutopt/dialect"

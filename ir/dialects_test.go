package ir_test

// The tests of package ir parse real TTGIR, whose ops the dialect packages
// declare: importing them here registers them in ir.Default() for every
// test of this package (internal ones included, as they share the binary).
import _ "github.com/layoutopt/layoutopt/dialect"

// Package dialect is the IR core of layout-opt: an in-memory form of MLIR
// modules as Triton 3.6 prints them (TTGIR), with a parser, a printer and a
// verifier.
//
// The model follows MLIR: a Module holds a builtin.module Operation; an
// Operation has operands (*Value), results, properties and discardable
// attributes ([]NamedAttr), regions of Blocks, successors and a Location.
// Blocks keep their operations in an intrusive doubly linked list (O(1)
// insert and erase), values keep intrusive use lists (ReplaceAllUsesWith
// costs only the uses). Types (Type) and attributes (Attribute) are
// immutable values compared with TypesEqual and AttrsEqual; TTGIR layout
// encodings are attributes too.
//
// Parse reads MLIR text: attribute, type and location aliases (including
// `#loc` aliases defined after the module), every location kind, custom
// syntax of the registered ops (tt, ttg, ttng, arith, math, scf, cf) and the
// generic form of any op. Errors are MLIR-style Diagnostics
// (`file:line:col: error: msg`); the parser recovers at the next line and
// reports several errors at once, and bounds nesting.
//
// Print writes the module back as mlir-opt does: custom forms, aliases for
// layout encodings (`#blocked`, `#mma`, ... names from the input are kept,
// new encodings get Triton-style names in first-use order), locations only
// with PrintConfig.DebugInfo, generic form with PrintConfig.Generic.
// print(parse(x)) is a fixed point.
//
// Ops are described by OpDefs in a registry (Register, Lookup) with traits
// that passes query (Pure, Elementwise, SameOperandsAndResultEncoding, ...),
// custom parse and print functions and a verifier; Verify runs structural
// checks and every op verifier.
package dialect

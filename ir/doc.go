// Package ir is the IR core of layout-opt: an in-memory form of MLIR
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
// generic form of any op, ops whose results have no left-hand side, and
// file metadata dictionaries (`{-# external_resources: ... #-}`, printed
// back after the module). Errors are MLIR-style Diagnostics
// (`file:line:col: error: msg`). After a syntax error the parser skips the
// rest of the op, brackets opened after the error included, to the next op
// of the enclosing region (or its closing '}'), so it reports several errors
// at once; it also bounds nesting.
//
// Print writes the module back as mlir-opt does: custom forms, aliases for
// layout encodings (`#blocked`, `#mma`, ... names from the input are kept,
// new encodings get Triton-style names in first-use order), locations only
// with PrintConfig.DebugInfo, generic form with PrintConfig.Generic.
// print(parse(x)) is a fixed point.
//
// SSA values are named as MLIR's SSANameState names them, whatever the
// input called them: entry block arguments %argN, other values %0, %1, ...
// per isolated region, names an op gives its results (OpDef.AsmResultNames
// or ResultNames: arith.constant's %c0_i32, %cst, %true) made unique with
// _N, result groups %x:2 used as %x#1; the generic form numbers uniquely
// across the module. PrintConfig.NameLocAsPrefix names values after their
// NameLocs instead (-mlir-use-nameloc-as-prefix, as Triton prints its IR:
// with DebugInfo it reproduces Triton's printed TTGIR, except region
// arguments whose locations the syntax does not print, such as scf.for's);
// without DebugInfo those names come from locations the output does not
// carry, so printing the output again numbers them (as in MLIR).
// PrintConfig.KeepNames, not an MLIR option, keeps the names the input
// wrote (Value.NameHint).
//
// Ops are described by OpDefs in a registry (Register, Lookup) with traits
// that passes query (Pure, Elementwise, SameOperandsAndResultEncoding, ...),
// custom parse and print functions and a verifier; Verify runs structural
// checks and every op verifier. Custom syntax is written against OpParser
// and OpPrinter, as MLIR's OpAsmParser/OpAsmPrinter: other programs can
// Register ops of their own.
//
// # Aliases
//
// Aliases are a printer concern. The parser records the input's alias
// definitions (Module.Aliases, Module.LocAliases) only so that the printer
// can reuse their names and order; passes never maintain them. When
// printing, the encodings in use are collected; those equal to an input
// alias keep its name, new ones get Triton's names (`#blocked2`,
// `#linear`, `#mma1`, ... the next free number per prefix, in first-use
// order) and unused ones are dropped. Location aliases (`#locN`) are kept
// as written, since Triton names them by creation order.
//
// # Why hand-written
//
// The lexer and parser are hand-written recursive descent over []byte, like
// go/parser and MLIR's own parser, rather than built with participle: the
// 20 MB benchmark module must parse at tens of MB/s with few allocations
// (types are cached by their source text, small ops take one allocation),
// every production needs exact MLIR positions and messages, error recovery
// skips bracketed spans to the next op of the enclosing region, and nesting
// is bounded by MaxNesting (participle
// has no depth limit). Layout attributes are parsed by package attr, also
// by hand.
//
// # Immutability
//
// Types, attributes and locations are shared between operations (the parser
// interns them) and must be treated as immutable: build a new one (for
// instance RankedTensorType.WithEncoding) instead of modifying one in place.
package ir

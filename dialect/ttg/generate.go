package ttg

// The typed op accessors (ops_gen.go) are generated from the declarations;
// see internal/opgen.
//go:generate go run ../../internal/opgen/cmd/opgen -dialect ttg -o ops_gen.go

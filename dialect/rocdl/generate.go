package rocdl

// The typed op accessors (ops_gen.go) are generated from the declarations;
// see internal/opgen.
//go:generate go run ../../internal/opgen/cmd/opgen -dialect rocdl -o ops_gen.go

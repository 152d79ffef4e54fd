package main

import (
	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/lit/gencheck"
)

// Tools returns the table of the project's tools that RUN lines can call
// in-process, by command name. It is the one place a tool is registered;
// lit's own builtins (cat, echo, diff, count, split-file, ...) come on top
// of it from the lit package.
func Tools() map[string]lit.Tool {
	return map[string]lit.Tool{}
}

// run is the whole command: "gen-checks" selects the CHECK-line generator,
// anything else is a lit run.
func run(p *lit.Proc) int {
	if len(p.Args) > 0 && p.Args[0] == "gen-checks" {
		q := *p
		q.Args = p.Args[1:]
		return gencheck.Main(&q)
	}
	return lit.Main(p, Tools())
}

package main

import (
	"github.com/layoutopt/layoutopt/lit"
	"github.com/layoutopt/layoutopt/lit/filecheck"
	"github.com/layoutopt/layoutopt/lit/gencheck"
	"github.com/layoutopt/layoutopt/optdriver"
	_ "github.com/layoutopt/layoutopt/passes" // registers the layout passes
	"github.com/layoutopt/layoutopt/proc"
	"github.com/layoutopt/layoutopt/tensorlayout"
	"github.com/layoutopt/layoutopt/ttgirrun"
)

// Tools returns the project's tools that RUN lines call in-process, by
// command name. This table is the one place a tool is registered; lit's
// shell builtins (cat, count, diff, echo, split-file, not, env, ...) come
// from the lit package beneath it. A suite's lit.cfg can still send a name
// to an external executable with "tool NAME = PATH".
func Tools() map[string]proc.Tool {
	return map[string]proc.Tool{
		"FileCheck":     filecheck.Main,
		"gen-checks":    gencheck.Main,
		"layout-opt":    optdriver.Main,
		"tensor-layout": tensorlayout.Main,
		"ttgir-run":     ttgirrun.Main,
	}
}

// run is the whole command: "lit gen-checks ..." runs the CHECK-line
// generator, anything else is a lit run over the paths given.
func run(p *proc.Proc) int {
	if len(p.Args) > 0 && p.Args[0] == "gen-checks" {
		q := *p
		q.Args = p.Args[1:]
		return gencheck.Main(&q)
	}
	return lit.Main(p, Tools())
}

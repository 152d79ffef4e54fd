module github.com/layoutopt/layoutopt

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/google/go-cmp v0.7.0
	github.com/sergi/go-diff v1.4.0
	pgregory.net/rapid v1.3.0
)

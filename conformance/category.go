package conformance

import (
	"regexp"
	"strings"
)

var (
	locPrefix = regexp.MustCompile(`\S+:\d+:\d+: (error: )?`)
	numbers   = regexp.MustCompile(`\d+`)
)

// Category reduces a failure's first error to a pattern for grouping: the
// location goes, numbers become N.
func Category(why string) string {
	why = locPrefix.ReplaceAllString(why, "")
	why = numbers.ReplaceAllString(why, "N")
	if len(why) > 160 {
		why = why[:160] + "…"
	}
	return strings.TrimSpace(why)
}

package attr

import (
	"fmt"
	"strings"
)

// Error is a problem in attribute text, at byte Offset of the text given
// to Parse.
type Error struct {
	Offset int
	Msg    string
}

// Error formats the error as "offset N: message".
func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// ErrorList is several Errors, in text order.
type ErrorList []*Error

// Error joins the errors, one per line.
func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

package app

import (
	"errors"
	"testing"
)

// TestSendAddressed: a request without its sender or its recipient is
// refused as missing, naming the first input missing, before any text is
// read; the same refusal Send gives.
func TestSendAddressed(t *testing.T) {
	for _, c := range []struct {
		r     SendRequest
		field string
	}{
		{SendRequest{}, "from"},
		{SendRequest{To: "bob"}, "from"},
		{SendRequest{From: "ann"}, "to"},
		{SendRequest{From: "ann", To: "bob"}, ""},
	} {
		err := c.r.Addressed()
		var e *Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v: %v", c.r, err)
		case c.field != "" && (!errors.As(err, &e) || e.Problem != ProblemMissing || e.Field != c.field):
			t.Errorf("%+v: %v, want missing %s", c.r, err, c.field)
		}
		if _, merr := c.r.message(); c.field != "" && (merr == nil || merr.Error() != err.Error()) {
			t.Errorf("%+v: message() = %v, Addressed() = %v", c.r, merr, err)
		}
	}
}

package app

import (
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	const day = 24 * time.Hour
	for _, c := range []struct {
		in   string
		want time.Duration
	}{
		{"7d", 7 * day}, {"0d", 0}, {"12h", 12 * time.Hour}, {"90m", 90 * time.Minute},
		{"0s", 0}, {"1h30m", 90 * time.Minute}, {"106751d", 106751 * day},
	} {
		got, err := ParseAge(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"-1d", "not a number of days"},
		{"1.5d", "not a number of days"},
		{"d", "not a number of days"},
		{"+d", "not a number of days"},
		{"99999999999999999999d", "not a number of days"}, // past int
		{"106752d", "at most 106751d"},                    // would wrap to a negative cut-off
		{"-1h", "negative"},
		{"-0.5s", "negative"},
		{"", `time: invalid duration ""`},
		{"7D", `time: unknown unit "D" in duration "7D"`},
		{"3x", `time: unknown unit "x" in duration "3x"`},
		{"7 d", "not a number of days"},
	} {
		got, err := ParseAge(c.in)
		if err == nil || err.Error() != c.msg {
			t.Errorf("ParseAge(%q) = %v, %v; want the error %q", c.in, got, err, c.msg)
		}
	}
}

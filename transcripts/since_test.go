package transcripts

import (
	"strings"
	"testing"
	"time"
)

// An age in days too long for a time.Duration is refused, saying what to
// give instead: it used to wrap round to any age at all, so that
// "--since 213504d" listed the debates of the last 21 minutes.
func TestParseSinceRefusesAnAgeItCannotHold(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 4, 17, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"7d", now.Add(-7 * 24 * time.Hour)},
		{"106751d", now.Add(-106751 * 24 * time.Hour)},
		{"106752d", time.Time{}},
		{"213504d", time.Time{}},
		{"9223372036854775807d", time.Time{}},
	} {
		got, err := ParseSince(c.in, now)
		if c.want.IsZero() {
			if err == nil || !strings.Contains(err.Error(), "at most 106751d") {
				t.Errorf("%s: %v, %v; want a refusal naming the longest age", c.in, got, err)
			}
			continue
		}
		if err != nil || !got.Equal(c.want) {
			t.Errorf("%s: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

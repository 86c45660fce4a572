package app

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ageHint ends a refusal of an age with what would do.
const ageHint = "give a number with a unit, d, h, m or s (such as 7d, 12h or 90m)"

// ParseAge is the age of what Collect removes as a person writes it:
// time.ParseDuration's form ("12h", "90m") or a number of days ("7d").
// A negative age, or one too large for a time.Duration, is refused; the
// error says what an age is, never only Go's "unknown unit".
func ParseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 {
			return 0, errors.New("not a number of days: " + ageHint)
		}
		// A larger count would wrap around to a negative duration: a
		// cut-off in the future, removing everything.
		if maxDays := int(math.MaxInt64 / int64(24*time.Hour)); days > maxDays {
			return 0, fmt.Errorf("at most %dd", maxDays)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, errors.New("not an age: " + ageHint)
	case d < 0:
		return 0, errors.New("negative: " + ageHint)
	}
	return d, nil
}

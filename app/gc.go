package app

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseAge is the age of what Collect removes as a person writes it:
// time.ParseDuration's form ("12h", "90m") or a number of days ("7d").
// A negative age, or one too large for a time.Duration, is refused.
func ParseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 {
			return 0, errors.New("not a number of days")
		}
		// A larger count would wrap around to a negative duration: a
		// cut-off in the future, removing everything.
		if maxDays := int(math.MaxInt64 / int64(24*time.Hour)); days > maxDays {
			return 0, fmt.Errorf("at most %dd", maxDays)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = errors.New("negative")
	}
	return d, err
}

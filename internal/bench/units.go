package bench

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// us is d in microseconds.
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }

// pct returns the p-th percentile of sorted durations (nearest rank).
func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// scratch is the directory a benchmark runs in: a new temporary one,
// inside dir when it is given (--dir: the file system to measure; made if
// need be), that cleanup removes, with dir itself when scratch made it. A
// run never finds an earlier run's files, nor leaves its own in dir.
func scratch(dir, pattern string) (string, func(), error) {
	made := false
	if dir != "" {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			made = true
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", nil, err
		}
	}
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", nil, err
	}
	return d, func() {
		os.RemoveAll(d)
		if made {
			os.Remove(dir) // only if nothing else was put there meanwhile
		}
	}, nil
}

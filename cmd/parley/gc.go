package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// newGCCmd is "parley gc [--older-than DUR]".
func newGCCmd(a *factory) *cobra.Command {
	var olderThan string
	cmd := &cobra.Command{
		Use:   "gc [--older-than DUR]",
		Short: "Prune acknowledged messages, stale staging files and dead registrations",
		Long: "Remove acknowledged messages (cur/) older than --older-than (default 7d; units\n" +
			"d, h, m, s), staging files left by crashed writers (older than 10m), and the\n" +
			"registrations of dead agents. Waiting messages, quarantined files (bad/) and mail\n" +
			"moved aside are never removed.",
		Example: "  parley gc\n  parley gc --older-than 12h\n  parley --json gc --older-than 30d",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := parseAge(olderThan)
			if err != nil {
				return usagef("--older-than %q: %v", olderThan, err)
			}
			st, err := a.service().Collect(cmd.Context(), d)
			if err != nil {
				return a.fail(err, "nothing to collect: ", nil)
			}
			if a.json {
				return a.emit(st)
			}
			a.printf("removed %d acknowledged message(s) older than %s, %d stale staging file(s); pruned %d dead registration(s)%s\n",
				st.Acked, olderThan, st.Staging, len(st.Pruned), list(st.Pruned))
			return nil
		},
	}
	cmd.Flags().StringVar(&olderThan, "older-than", "7d", "age of acknowledged messages to remove (e.g. 7d, 12h)")
	return cmd
}

// parseAge is time.ParseDuration that also takes days ("7d").
func parseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 {
			return 0, fmt.Errorf("not a number of days")
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
		err = fmt.Errorf("negative")
	}
	return d, err
}

func list(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}

package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/bench"
)

// newBenchGateCmd is "parley bench gate" (bench.RunGate).
func newBenchGateCmd(a *factory) *cobra.Command {
	var dur time.Duration
	cmd := &cobra.Command{
		Use:   "gate",
		Short: "Gate decisions per second on one core (bar: 20,000/s)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.benchResult(bench.RunGate(dur))
		},
	}
	cmd.Flags().DurationVar(&dur, "duration", 2*time.Second, "how long to measure each figure")
	return cmd
}

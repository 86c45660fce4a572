package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/bench"
)

// newBenchGateCmd is "parley bench gate" (bench.RunGate).
func newBenchGateCmd(a *app) *cobra.Command {
	var dur time.Duration
	cmd := &cobra.Command{
		Use:   "gate",
		Short: "Gate decisions per second on one core (bar: 20,000/s)",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := bench.RunGate(dur)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(r)
			}
			verdict := "meets"
			if !r.MeetsBar {
				verdict = "MISSES"
			}
			a.printf("gate: %d decisions per CPU second on one core (%d per wall-clock second; Decide over the %d shipped corpus self-critiques, mean %d B)\n",
				r.DecisionsPerCPUSec, r.DecisionsPerSec, r.Examples, r.MeanBytes)
			a.printf("gate: %d per CPU second with JSON parsing (%d per wall-clock second); %s the bar of %d/s\n",
				r.ParseAndDecidePerCPUSec, r.ParseAndDecidePerSec, verdict, r.BarPerSec)
			return nil
		},
	}
	cmd.Flags().DurationVar(&dur, "duration", 2*time.Second, "how long to measure each figure")
	return cmd
}

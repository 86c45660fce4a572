package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"
)

// newBenchCmd is "parley bench [messenger|debate|consensus|gate]": whole-process
// performance figures (SPEC §11). Without a subcommand it runs them all.
func newBenchCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench [messenger|cli|debate|consensus|gate]",
		Short: "Measure parley's performance against its speed targets (docs/performance.md)",
		Args:  exactArgs(0),
	}
	subs := benchCommands(a)
	for _, s := range subs {
		cmd.AddCommand(s)
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		for _, s := range subs {
			if err := s.RunE(s, nil); err != nil {
				return err
			}
		}
		return nil
	}
	return cmd
}

// benchCommands lists the benchmarks, one file each (bench_<name>.go).
func benchCommands(a *factory) []*cobra.Command {
	return []*cobra.Command{
		newBenchGateCmd(a),
		newBenchConsensusCmd(a),
		newBenchMessengerCmd(a),
		newBenchDebateCmd(a),
		newBenchCLICmd(a),
	}
}

// benchResult prints a benchmark's result: a JSON line under --json, else
// its text.
func (a *factory) benchResult(r interface{ WriteText(io.Writer) error }) error {
	if a.json {
		return a.emit(r)
	}
	return r.WriteText(a.stdout)
}

// ms and pct serve bench_consensus.go until its logic moves to
// internal/bench like the other benchmarks'.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// pct returns the p-th percentile of sorted durations (nearest rank).
func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

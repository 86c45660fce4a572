package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/gating"
)

// gateBar is SPEC §11's bar: decisions per second on one core.
const gateBar = 20000

// newBenchGateCmd is "parley bench gate": decisions per second on one core
// (GOMAXPROCS 1, one goroutine) over the self-critiques of the shipped corpus.
func newBenchGateCmd(a *factory) *cobra.Command {
	var dur time.Duration
	cmd := &cobra.Command{
		Use:   "gate",
		Short: "Gate decisions per second on one core (bar: 20,000/s)",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dur <= 0 {
				dur = 2 * time.Second
			}
			examples, err := gating.Corpus()
			if err != nil {
				return err
			}
			raw := make([][]byte, len(examples))
			bytesTotal := 0
			for i, e := range examples {
				if raw[i], err = gating.EncodeSelfCritique(e.SelfCritique); err != nil {
					return err
				}
				bytesTotal += len(raw[i])
			}
			prev := runtime.GOMAXPROCS(1)
			defer runtime.GOMAXPROCS(prev)
			g := gating.Default()
			decide := measure(dur, len(examples), func(i int) error {
				_, err := g.Decide(examples[i].SelfCritique)
				return err
			})
			full := measure(dur, len(examples), func(i int) error {
				sc, err := gating.ParseBytes(raw[i])
				if err == nil {
					_, err = g.Decide(sc)
				}
				return err
			})
			if decide.err != nil || full.err != nil {
				return fmt.Errorf("bench gate: %v %v", decide.err, full.err)
			}
			// The bar is per core: judge it on CPU time when the platform
			// reports it, so that other load on the machine does not count.
			perCore := decide.cpuRate
			if perCore == 0 {
				perCore = decide.rate
			}
			res := map[string]any{
				"bench": "gate", "gomaxprocs": 1, "examples": len(examples), "mean_bytes": bytesTotal / len(examples),
				"decisions_per_sec": int(decide.rate), "decisions_per_cpu_sec": int(decide.cpuRate),
				"parse_and_decide_per_sec": int(full.rate), "parse_and_decide_per_cpu_sec": int(full.cpuRate),
				"bar_per_sec": gateBar, "meets_bar": perCore >= gateBar,
			}
			if a.json {
				return a.emit(res)
			}
			verdict := "meets"
			if perCore < gateBar {
				verdict = "MISSES"
			}
			a.printf("gate: %.0f decisions per CPU second on one core (%.0f per wall-clock second; Decide over the %d shipped corpus self-critiques, mean %d B)\n",
				decide.cpuRate, decide.rate, len(examples), bytesTotal/len(examples))
			a.printf("gate: %.0f per CPU second with JSON parsing (%.0f per wall-clock second); %s the bar of %d/s\n",
				full.cpuRate, full.rate, verdict, gateBar)
			return nil
		},
	}
	cmd.Flags().DurationVar(&dur, "duration", 2*time.Second, "how long to measure each figure")
	return cmd
}

type rate struct {
	rate    float64 // calls per wall-clock second
	cpuRate float64 // calls per second of process CPU time (0 when unknown)
	err     error
}

// measure calls f round-robin over n inputs for about d and returns calls
// per wall-clock second and per CPU second. With GOMAXPROCS 1 the CPU
// figure is what one core does, whatever else the machine runs.
func measure(d time.Duration, n int, f func(i int) error) rate {
	runtime.GC()
	cpu0, cpuOK := processCPU()
	start := time.Now()
	calls := 0
	for time.Since(start) < d {
		for i := 0; i < n; i++ {
			if err := f(i); err != nil {
				return rate{err: err}
			}
		}
		calls += n
	}
	r := rate{rate: float64(calls) / time.Since(start).Seconds()}
	if cpu1, ok := processCPU(); cpuOK && ok && cpu1 > cpu0 {
		r.cpuRate = float64(calls) / (cpu1 - cpu0).Seconds()
	}
	return r
}

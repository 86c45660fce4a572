package bench

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/parleyhq/parley/gating"
)

// GateBar is the gate's bar: decisions per second on one core.
const GateBar = 20000

// GateResult is what RunGate measured.
type GateResult struct {
	Bench      string `json:"bench"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Examples   int    `json:"examples"`
	MeanBytes  int    `json:"mean_bytes"`
	// Decide alone, per wall-clock second and per CPU second (0 when the
	// platform does not report CPU time).
	DecisionsPerSec    int `json:"decisions_per_sec"`
	DecisionsPerCPUSec int `json:"decisions_per_cpu_sec"`
	// Parsing the self-critique's JSON, then Decide.
	ParseAndDecidePerSec    int  `json:"parse_and_decide_per_sec"`
	ParseAndDecidePerCPUSec int  `json:"parse_and_decide_per_cpu_sec"`
	BarPerSec               int  `json:"bar_per_sec"`
	MeetsBar                bool `json:"meets_bar"`
}

// RunGate measures gate decisions on one core (GOMAXPROCS 1, one
// goroutine) over the self-critiques of the shipped corpus, each figure
// for about d. It changes GOMAXPROCS while it runs: do not run it beside
// other work of the same process. When ctx ends it stops, with ctx's error.
func RunGate(ctx context.Context, d time.Duration) (*GateResult, error) {
	if d <= 0 {
		d = 2 * time.Second
	}
	examples, err := gating.Corpus()
	if err != nil {
		return nil, err
	}
	raw := make([][]byte, len(examples))
	bytesTotal := 0
	for i, e := range examples {
		if raw[i], err = gating.EncodeSelfCritique(e.SelfCritique); err != nil {
			return nil, err
		}
		bytesTotal += len(raw[i])
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	g := gating.Default()
	decide := measure(ctx, d, len(examples), func(i int) error {
		_, err := g.Decide(examples[i].SelfCritique)
		return err
	})
	full := measure(ctx, d, len(examples), func(i int) error {
		sc, err := gating.ParseBytes(raw[i])
		if err == nil {
			_, err = g.Decide(sc)
		}
		return err
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bench gate: %w", err)
	}
	if decide.err != nil || full.err != nil {
		return nil, fmt.Errorf("bench gate: %v %v", decide.err, full.err)
	}
	// The bar is per core: judge it on CPU time when the platform reports
	// it, so that other load on the machine does not count.
	perCore := decide.cpuRate
	if perCore == 0 {
		perCore = decide.rate
	}
	return &GateResult{
		Bench: "gate", GOMAXPROCS: 1, Examples: len(examples), MeanBytes: bytesTotal / len(examples),
		DecisionsPerSec: int(decide.rate), DecisionsPerCPUSec: int(decide.cpuRate),
		ParseAndDecidePerSec: int(full.rate), ParseAndDecidePerCPUSec: int(full.cpuRate),
		BarPerSec: GateBar, MeetsBar: perCore >= GateBar,
	}, nil
}

type rate struct {
	rate    float64 // calls per wall-clock second
	cpuRate float64 // calls per second of process CPU time (0 when unknown)
	err     error
}

// measure calls f round-robin over n inputs for about d and returns calls
// per wall-clock second and per CPU second. With GOMAXPROCS 1 the CPU
// figure is what one core does, whatever else the machine runs. It stops
// early, between two rounds, when ctx ends (the caller checks ctx).
func measure(ctx context.Context, d time.Duration, n int, f func(i int) error) rate {
	runtime.GC()
	cpu0 := selfCPU()
	start := time.Now()
	calls := 0
	for time.Since(start) < d && ctx.Err() == nil {
		for i := 0; i < n; i++ {
			if err := f(i); err != nil {
				return rate{err: err}
			}
		}
		calls += n
	}
	r := rate{rate: float64(calls) / time.Since(start).Seconds()}
	if cpu1 := selfCPU(); cpu0 > 0 && cpu1 > cpu0 {
		r.cpuRate = float64(calls) / (cpu1 - cpu0).Seconds()
	}
	return r
}

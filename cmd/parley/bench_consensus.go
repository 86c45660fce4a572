package main

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vault"
)

// consensusBench is what "parley bench consensus" measures (SPEC §11:
// check over 10,000 records ≤ 1 ms warm, ≤ 1 s cold).
type consensusBench struct {
	Bench   string `json:"bench"`
	Records int    `json:"records"`
	// FileAllMs is filing every record through FileAll, without fsync (to
	// build the vault).
	FileAllMs float64 `json:"file_all_ms"`
	// ColdBuildMs is a new Store with no cache: reading and parsing every
	// record, writing the cache, building the search index, answering one
	// check. ColdScanMs and ColdSearchIndexMs are its two main parts.
	ColdBuildMs       float64 `json:"cold_build_ms"`
	ColdBuildCPUMs    float64 `json:"cold_build_cpu_ms"` // user+system CPU time, all threads
	ColdScanMs        float64 `json:"cold_scan_ms"`
	ColdSearchIndexMs float64 `json:"cold_search_index_ms"`
	// CacheLoadMs is a new Store with the cache on disk (a new CLI
	// process): loading the cache, lstat of every record, first check.
	CacheLoadMs    float64 `json:"cache_load_ms"`
	CacheLoadCPUMs float64 `json:"cache_load_cpu_ms"`
	CacheLoadRds   int64   `json:"cache_load_reads"`
	// Warm check and search: a Store that has answered before, over an
	// unchanged vault, in microseconds.
	WarmChecks    int     `json:"warm_checks"`
	WarmCheckP50  float64 `json:"warm_check_p50_us"`
	WarmCheckP99  float64 `json:"warm_check_p99_us"`
	WarmCheckMean float64 `json:"warm_check_mean_us"`
	Searches      int     `json:"searches"`
	SearchP50     float64 `json:"search_p50_us"`
	SearchP99     float64 `json:"search_p99_us"`
}

func newBenchConsensusCmd(a *app) *cobra.Command {
	var n, checks int
	cmd := &cobra.Command{
		Use:   "consensus",
		Short: "Consensus lookup over a generated vault of 10,000 records: cold build, warm check, search",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || checks < 1 {
				return usagef("--records and --checks must be at least 1")
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			res, err := benchConsensus(ctx, n, checks)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(res)
			}
			a.printf("consensus, %d records (bars: warm check ≤ 1 ms, cold build ≤ 1 s)\n", res.Records)
			a.printf("  file all, no fsync      %9.1f ms  (building the vault)\n", res.FileAllMs)
			a.printf("  cold build              %9.1f ms  (scan+parse %.1f ms, search index %.1f ms; %.1f ms CPU)\n", res.ColdBuildMs, res.ColdScanMs, res.ColdSearchIndexMs, res.ColdBuildCPUMs)
			a.printf("  new process, cached     %9.1f ms  (%d record files read; %.1f ms CPU)\n", res.CacheLoadMs, res.CacheLoadRds, res.CacheLoadCPUMs)
			a.printf("  warm check              %9.1f µs p50  %.1f µs p99  %.1f µs mean  (%d checks)\n", res.WarmCheckP50, res.WarmCheckP99, res.WarmCheckMean, res.WarmChecks)
			a.printf("  search                  %9.1f µs p50  %.1f µs p99  (%d queries)\n", res.SearchP50, res.SearchP99, res.Searches)
			return nil
		},
	}
	cmd.Flags().IntVar(&n, "records", 10000, "records in the generated vault")
	cmd.Flags().IntVar(&checks, "checks", 2000, "warm checks (and a quarter as many searches) to time")
	return cmd
}

func benchConsensus(ctx context.Context, n, checks int) (*consensusBench, error) {
	dir, err := os.MkdirTemp("", "parley-bench-consensus-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "root")
	res := &consensusBench{Bench: "consensus", Records: n}
	outcomes, topics := consensustest.Outcomes(n, 1)

	// Build the vault without fsync: building it is not what is measured
	// (FileAllMs says how long it took that way).
	gen, err := vault.Create(filepath.Join(dir, "vault"), vault.WithFS(func(f durable.FS) durable.FS { return noSyncFS{f} }))
	if err != nil {
		return nil, err
	}
	s, err := consensus.Open(root, gen)
	if err != nil {
		gen.Close()
		return nil, err
	}
	t0 := time.Now()
	_, err = s.FileAll(ctx, outcomes)
	res.FileAllMs = ms(time.Since(t0))
	s.Close()
	gen.Close()
	if err != nil {
		return nil, err
	}
	v, err := vault.Open(filepath.Join(dir, "vault"))
	if err != nil {
		return nil, err
	}
	defer v.Close()
	// Lookups of a vault written in the last RacyMargin rescan its folder
	// every time (see consensus.RacyMargin); measure the usual case, a vault
	// not written in the last seconds.
	time.Sleep(consensus.RacyMargin)

	// Cold: no cache file.
	if err := os.Remove(filepath.Join(root, consensus.CacheFile)); err != nil {
		return nil, err
	}
	cold, err := consensus.Open(root, v)
	if err != nil {
		return nil, err
	}
	c0 := cpuTime()
	t0 = time.Now()
	if err := cold.Refresh(ctx); err != nil {
		return nil, err
	}
	t1 := time.Now()
	if _, err := cold.Search(ctx, topics[0], consensus.Filter{}, 1); err != nil {
		return nil, err
	}
	t2 := time.Now()
	if _, err := cold.Check(ctx, outcomes[0].Session.Layer, topics[0], "a position"); err != nil {
		return nil, err
	}
	res.ColdBuildMs, res.ColdScanMs, res.ColdSearchIndexMs = ms(time.Since(t0)), ms(t1.Sub(t0)), ms(t2.Sub(t1))
	res.ColdBuildCPUMs = ms(cpuTime() - c0)
	cold.Close()

	// A new process with the cache on disk.
	warm, err := consensus.Open(root, v)
	if err != nil {
		return nil, err
	}
	defer warm.Close()
	c0 = cpuTime()
	t0 = time.Now()
	if _, err := warm.Check(ctx, outcomes[1].Session.Layer, topics[1], "a position"); err != nil {
		return nil, err
	}
	res.CacheLoadMs, res.CacheLoadCPUMs = ms(time.Since(t0)), ms(cpuTime()-c0)
	res.CacheLoadRds = warm.FilesRead()

	// Warm checks: random questions, half of them with the filed position.
	r := rand.New(rand.NewPCG(2, 3))
	lat := make([]time.Duration, 0, checks)
	var total time.Duration
	for range checks {
		o := outcomes[r.IntN(len(outcomes))]
		pos := o.FinalPosition
		if pos == "" || r.IntN(2) == 0 {
			pos = o.AttackerPositions["GoldFalcon"]
		}
		t := time.Now()
		if _, err := warm.Check(ctx, o.Session.Layer, o.Session.Topic, pos); err != nil {
			return nil, err
		}
		d := time.Since(t)
		lat = append(lat, d)
		total += d
	}
	res.WarmChecks = checks
	res.WarmCheckP50, res.WarmCheckP99 = pctUs(lat, 50), pctUs(lat, 99)
	res.WarmCheckMean = us(total / time.Duration(checks))

	searches := max(checks/4, 1)
	lat = lat[:0]
	for range searches {
		o := outcomes[r.IntN(len(outcomes))]
		q := o.Session.Topic
		if r.IntN(2) == 0 {
			q = o.DefenderPosition
		}
		t := time.Now()
		if _, err := warm.Search(ctx, q, consensus.Filter{Layer: pickLayer(r)}, 10); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t))
	}
	res.Searches = searches
	res.SearchP50, res.SearchP99 = pctUs(lat, 50), pctUs(lat, 99)
	if n := warm.FilesRead(); n != res.CacheLoadRds {
		return nil, fmt.Errorf("warm lookups read %d record files; they should read none", n-res.CacheLoadRds)
	}
	return res, nil
}

func pickLayer(r *rand.Rand) debate.Layer {
	if r.IntN(2) == 0 {
		return ""
	}
	return debate.Layers[r.IntN(len(debate.Layers))]
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }

// pct is the p-th percentile of the durations, in microseconds.
// pctUs is the p-th percentile of d in microseconds.
func pctUs(d []time.Duration, p float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return us(pct(s, p))
}

// noSyncFS skips fsync, to build a benchmark vault fast.
type noSyncFS struct{ durable.FS }

type noSyncFile struct{ durable.File }

func (noSyncFile) Sync() error { return nil }

func (f noSyncFS) OpenFile(name string, flag int, perm fs.FileMode) (durable.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return noSyncFile{file}, nil
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vault"
)

// consensusBench is what "parley bench consensus" measures: the lookup
// index (an SQLite database under the root) over a generated vault.
type consensusBench struct {
	Bench   string `json:"bench"`
	Records int    `json:"records"`
	// FileAllMs is filing every record through FileAll, without fsync (to
	// build the vault; the index is maintained on the way).
	FileAllMs float64 `json:"file_all_ms"`
	// ColdRebuildMs is a Store with no index: reading and parsing every
	// record and writing the index, then one check.
	ColdRebuildMs    float64 `json:"cold_rebuild_ms"`
	ColdRebuildCPUMs float64 `json:"cold_rebuild_cpu_ms"` // user+system CPU time, all threads
	IndexBytes       int64   `json:"index_bytes"`
	// NewProcess* is "parley consensus check" run as a new process over
	// the built index: wall time from start to exit (p50 of the runs) and
	// its peak resident memory. ProcessFloor* is "parley --help" timed
	// the same way, the cost of starting the binary at all.
	NewProcessRuns     int     `json:"new_process_runs"`
	NewProcessP50Ms    float64 `json:"new_process_p50_ms"`
	NewProcessMaxRSSMB float64 `json:"new_process_max_rss_mb"`
	ProcessFloorP50Ms  float64 `json:"process_floor_p50_ms"`
	ProcessFloorRSSMB  float64 `json:"process_floor_rss_mb"`
	// Warm check and search: a Store that has answered before, over an
	// unchanged vault, in microseconds.
	WarmChecks    int     `json:"warm_checks"`
	WarmCheckP50  float64 `json:"warm_check_p50_us"`
	WarmCheckP99  float64 `json:"warm_check_p99_us"`
	WarmCheckMean float64 `json:"warm_check_mean_us"`
	Searches      int     `json:"searches"`
	SearchP50     float64 `json:"search_p50_us"`
	SearchP99     float64 `json:"search_p99_us"`
	// WarmRecordReads is how many record files the warm checks read (0:
	// they answer from the index).
	WarmRecordReads int64 `json:"warm_record_reads"`
}

func newBenchConsensusCmd(a *factory) *cobra.Command {
	var n, checks, procs int
	cmd := &cobra.Command{
		Use:   "consensus",
		Short: "Consensus lookup over a generated vault: cold rebuild, a check in a new process, warm checks, search",
		Long: "Builds a vault of --records records, then measures: the cold rebuild of the\n" +
			"lookup index, \"parley consensus check\" run as a new process (wall time and\n" +
			"peak memory, beside \"parley --help\" as the floor), warm checks and searches.\n" +
			"Bars: warm check p50 ≤ 1 ms, new process ≤ 100 ms, cold rebuild ≤ 10 s,\n" +
			"memory of a check ≤ 150 MB.",
		Example: "  parley bench consensus\n  parley bench consensus --records 100000 --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || checks < 1 || procs < 1 {
				return usagef("--records, --checks and --processes must be at least 1")
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			res, err := benchConsensus(ctx, n, checks, procs)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(res)
			}
			a.printf("consensus, %d records (bars: warm check p50 ≤ 1 ms, new process ≤ 100 ms, cold rebuild ≤ 10 s, memory ≤ 150 MB)\n", res.Records)
			a.printf("  file all, no fsync      %9.1f ms  (building the vault and its index)\n", res.FileAllMs)
			a.printf("  cold rebuild            %9.1f ms  (%.1f ms CPU; index %.1f MB)\n", res.ColdRebuildMs, res.ColdRebuildCPUMs, float64(res.IndexBytes)/(1<<20))
			a.printf("  check, new process      %9.1f ms p50  peak RSS %.1f MB  (%d runs; parley --help: %.1f ms, %.1f MB)\n",
				res.NewProcessP50Ms, res.NewProcessMaxRSSMB, res.NewProcessRuns, res.ProcessFloorP50Ms, res.ProcessFloorRSSMB)
			a.printf("  warm check              %9.1f µs p50  %.1f µs p99  %.1f µs mean  (%d checks, %d record files read)\n", res.WarmCheckP50, res.WarmCheckP99, res.WarmCheckMean, res.WarmChecks, res.WarmRecordReads)
			a.printf("  search                  %9.1f µs p50  %.1f µs p99  (%d queries)\n", res.SearchP50, res.SearchP99, res.Searches)
			return nil
		},
	}
	cmd.Flags().IntVar(&n, "records", 10000, "records in the generated vault")
	cmd.Flags().IntVar(&checks, "checks", 2000, "warm checks (and a quarter as many searches) to time")
	cmd.Flags().IntVar(&procs, "processes", 7, "checks to time as new processes")
	return cmd
}

func benchConsensus(ctx context.Context, n, checks, procs int) (*consensusBench, error) {
	dir, err := os.MkdirTemp("", "parley-bench-consensus-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	root, vaultDir := filepath.Join(dir, "root"), filepath.Join(dir, "vault")
	res := &consensusBench{Bench: "consensus", Records: n}
	outcomes, topics := consensustest.Outcomes(n, 1)

	// Build the vault without fsync: building it is not what is measured
	// (FileAllMs says how long it took that way).
	gen, err := vault.Create(vaultDir, vault.WithFS(func(f durable.FS) durable.FS { return noSyncFS{f} }))
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
	v, err := vault.Open(vaultDir)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	// Lookups of a vault written in the last RacyMargin rescan its folder
	// every time (see consensus.RacyMargin); measure the usual case, a vault
	// not written in the last seconds.
	time.Sleep(consensus.RacyMargin)

	// Cold: no index.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(filepath.Join(root, consensus.CacheFile+suffix)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	cold, err := consensus.Open(root, v)
	if err != nil {
		return nil, err
	}
	c0 := cpuTime()
	t0 = time.Now()
	if _, err := cold.Check(ctx, outcomes[0].Session.Layer, topics[0], "a position"); err != nil {
		return nil, err
	}
	res.ColdRebuildMs, res.ColdRebuildCPUMs = ms(time.Since(t0)), ms(cpuTime()-c0)
	cold.Close()
	if st, err := os.Stat(filepath.Join(root, consensus.CacheFile)); err == nil {
		res.IndexBytes = st.Size()
	}
	time.Sleep(consensus.RacyMargin) // the rebuild wrote the folder's state just now

	// New processes: the binary itself, as a user runs it.
	if exe, err := os.Executable(); err == nil {
		var wall, floor []time.Duration
		for i := range procs {
			o := outcomes[(i*7919)%len(outcomes)]
			d, rss, err := runProcess(ctx, exe, "--root", root, "--vault", vaultDir, "--json", "consensus", "check", "--lenient",
				"--layer", string(o.Session.Layer), "--topic", o.Session.Topic, "--position", o.DefenderPosition)
			if err != nil {
				return nil, err
			}
			wall = append(wall, d)
			res.NewProcessMaxRSSMB = max(res.NewProcessMaxRSSMB, rss)
			d, rss, err = runProcess(ctx, exe, "--help")
			if err != nil {
				return nil, err
			}
			floor = append(floor, d)
			res.ProcessFloorRSSMB = max(res.ProcessFloorRSSMB, rss)
		}
		res.NewProcessRuns = procs
		res.NewProcessP50Ms, res.ProcessFloorP50Ms = pctUs(wall, 50)/1000, pctUs(floor, 50)/1000
	}

	warm, err := consensus.Open(root, v)
	if err != nil {
		return nil, err
	}
	defer warm.Close()
	if _, err := warm.Check(ctx, outcomes[1].Session.Layer, topics[1], "a position"); err != nil {
		return nil, err
	}
	reads := warm.FilesRead()

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
	res.WarmRecordReads = warm.FilesRead() - reads
	return res, nil
}

// runProcess runs the command and returns its wall time and peak resident
// memory in MB. Exit 3 (a conflict) is an answer, not a failure. The peak
// is the child's own VmHWM, read from /proc while it runs (its rusage
// would count the parent's memory it was forked from); 0 where /proc is
// not there.
func runProcess(ctx context.Context, exe string, args ...string) (time.Duration, float64, error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	done := make(chan struct{})
	peak := make(chan float64, 1)
	parent := vmHWM("/proc/self/status")
	go func() {
		best := 0.0
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		for {
			// Before its exec the child shares the parent's memory and
			// shows the parent's peak: such readings are skipped.
			if kb := vmHWM(status); kb > best && kb != parent {
				best = kb
			}
			select {
			case <-done:
				peak <- best / 1024
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	err := cmd.Wait()
	d := time.Since(t0)
	close(done)
	rss := <-peak
	var exitErr *exec.ExitError
	if err != nil && !(errors.As(err, &exitErr) && exitErr.ExitCode() == exitBlocked) {
		return 0, 0, fmt.Errorf("%s %s: %v: %s", exe, strings.Join(args, " "), err, stderr.String())
	}
	return d, rss, nil
}

// vmHWM reads the peak resident set (kB) from a /proc/<pid>/status file,
// 0 if it cannot.
func vmHWM(status string) float64 {
	data, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb
		}
	}
	return 0
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

package bench

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // the baseline opens the index database directly

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vault"
)

// ConsensusOptions configures RunConsensus.
type ConsensusOptions struct {
	Parley    string // the parley binary run as a new process
	Dir       string // scratch directory; a temporary one when empty
	Records   int    // records in the generated vault
	Checks    int    // warm checks (and a quarter as many searches)
	Processes int    // checks run as new processes
	Filings   int    // single filings into the full vault
	Progress  io.Writer
}

// DefaultConsensusOptions are the sizes "parley bench consensus" uses by
// default.
var DefaultConsensusOptions = ConsensusOptions{Records: 10000, Checks: 2000, Processes: 9, Filings: 20}

// ConsensusResult is what RunConsensus measured; every figure has the
// baseline measured beside it in the same run (the machine may be
// shared), in microseconds or milliseconds as named.
type ConsensusResult struct {
	Bench   string `json:"bench"`
	Records int    `json:"records"`
	// Load is /proc/loadavg's 1-minute figure before and after the run.
	LoadBefore float64 `json:"load_before"`
	LoadAfter  float64 `json:"load_after"`
	CPUs       int     `json:"cpus"`

	// ImportMs is building the vault: every record page written (no
	// fsync) and the index built in one transaction (Store.Import).
	GenerateMs float64 `json:"generate_ms"`
	ImportMs   float64 `json:"import_ms"`
	IndexMB    float64 `json:"index_mb"`
	// FlushMs is the writeback of what the import wrote, waited for
	// (syncfs) before the timed steps so that none of them shares the
	// disk with it.
	FlushMs float64 `json:"flush_ms"`

	// Filing one record at a time into the full vault, as a debate files
	// its verdict (fsync on), half of them superseding a record; beside
	// writing one page of the same size with fsync.
	Filings          int     `json:"filings"`
	FilingP50Ms      float64 `json:"filing_p50_ms"`
	FilingMaxMs      float64 `json:"filing_max_ms"`
	PageWriteP50Ms   float64 `json:"page_write_p50_ms"`
	FilingIndexReads int64   `json:"filing_record_reads"` // record files the filings read

	// Cold rebuild: the cache deleted, "parley consensus check" as a new
	// process rebuilds it and answers (in process when there is no
	// binary to run): wall and CPU time, peak resident memory. The
	// baseline reads every file of the folder with as many workers.
	ColdRebuildMs    float64 `json:"cold_rebuild_ms"`
	ColdRebuildCPUMs float64 `json:"cold_rebuild_cpu_ms"`
	ColdRebuildRSSMB float64 `json:"cold_rebuild_rss_mb"`
	ReadAllMs        float64 `json:"read_all_ms"`

	// A check as a new process ("parley consensus check"), wall time
	// from spawn to exit and its own peak resident memory (VmHWM); the
	// baseline is "parley --help".
	NewProcessRuns    int     `json:"new_process_runs"`
	NewProcessP50Ms   float64 `json:"new_process_p50_ms"`
	NewProcessMaxMs   float64 `json:"new_process_max_ms"`
	NewProcessRSSMB   float64 `json:"new_process_max_rss_mb"`
	ProcessFloorP50Ms float64 `json:"process_floor_p50_ms"`
	ProcessFloorRSSMB float64 `json:"process_floor_rss_mb"`

	// Warm checks in one process, by kind of question; the baseline is
	// one prepared SELECT of a row by name on the same database.
	WarmChecks      int            `json:"warm_checks"`
	WarmCheckP50Us  float64        `json:"warm_check_p50_us"`
	WarmCheckP99Us  float64        `json:"warm_check_p99_us"`
	WarmCheckCPUUs  float64        `json:"warm_check_cpu_us"` // process CPU time per check, all threads
	WarmByKindP50Us map[string]int `json:"warm_by_kind_p50_us"`
	Answers         map[string]int `json:"answers"` // statuses the checks got
	SelectP50Us     float64        `json:"select_p50_us"`
	WarmRecordReads int64          `json:"warm_record_reads"`
	Searches        int            `json:"searches"`
	SearchP50Us     float64        `json:"search_p50_us"`
	SearchP99Us     float64        `json:"search_p99_us"`
}

// RunConsensus builds a vault of o.Records generated records and measures
// the consensus lookup over it: filing into it, a cold rebuild, a check
// as a new process and warm checks, each beside its baseline.
func RunConsensus(ctx context.Context, o ConsensusOptions) (*ConsensusResult, error) {
	d := DefaultConsensusOptions
	if o.Records < 1 {
		o.Records = d.Records
	}
	if o.Checks < 1 {
		o.Checks = d.Checks
	}
	if o.Processes < 1 {
		o.Processes = d.Processes
	}
	if o.Filings < 1 {
		o.Filings = d.Filings
	}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}
	dir := o.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "parley-bench-consensus-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	root, vaultDir := filepath.Join(dir, "root"), filepath.Join(dir, "vault")
	res := &ConsensusResult{Bench: "consensus", Records: o.Records, LoadBefore: loadAvg(), CPUs: runtime.NumCPU()}

	progress("generating %d records", o.Records)
	t0 := time.Now()
	cv := genConsensus(o.Records+o.Filings, 1)
	extra := cv.outcomes[o.Records:]
	cv.outcomes, cv.questions = cv.outcomes[:o.Records], cv.questions[:o.Records]
	res.GenerateMs = ms(time.Since(t0))
	gen, err := vault.Create(vaultDir, vault.WithFS(func(f durable.FS) durable.FS { return noSyncFS{f} }))
	if err != nil {
		return nil, err
	}
	s, err := consensus.Open(root, gen)
	if err != nil {
		gen.Close()
		return nil, err
	}
	t0 = time.Now()
	_, err = s.Import(ctx, cv.outcomes)
	res.ImportMs = ms(time.Since(t0))
	s.Close()
	gen.Close()
	if err != nil {
		return nil, err
	}
	progress("imported in %.0f ms", res.ImportMs)
	// The import wrote without fsync: its writeback would otherwise run
	// during the filings and the cold rebuild timed next.
	t0 = time.Now()
	if err := flushFS(dir); err != nil {
		return nil, err
	}
	res.FlushMs = ms(time.Since(t0))

	v, err := vault.Open(vaultDir)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	if err := benchFilings(ctx, res, root, v, extra, cv); err != nil {
		return nil, err
	}
	progress("filed %d records one by one: p50 %.1f ms", res.Filings, res.FilingP50Ms)

	if err := benchCold(ctx, res, o.Parley, root, vaultDir, v, cv); err != nil {
		return nil, err
	}
	progress("cold rebuild %.0f ms", res.ColdRebuildMs)
	if st, err := os.Stat(filepath.Join(root, consensus.CacheFile)); err == nil {
		res.IndexMB = float64(st.Size()) / (1 << 20)
	}
	// Lookups of a folder written in the last RacyMargin list it again;
	// measure the usual case.
	time.Sleep(consensus.RacyMargin)

	queries := cv.queries(max(o.Checks, o.Processes), 11)
	if o.Parley != "" {
		if err := benchProcesses(ctx, res, o.Parley, root, vaultDir, queries[:o.Processes]); err != nil {
			return nil, err
		}
		progress("new process p50 %.1f ms", res.NewProcessP50Ms)
	}
	if err := benchWarm(ctx, res, root, v, queries[:o.Checks]); err != nil {
		return nil, err
	}
	res.LoadAfter = loadAvg()
	return res, nil
}

// benchFilings files the extra outcomes one at a time (half of them on a
// question already filed, so they supersede its record), each beside a
// page write of the same size with fsync.
func benchFilings(ctx context.Context, res *ConsensusResult, root string, v *vault.Vault, extra []*debate.Outcome, cv *consensusVault) error {
	s, err := consensus.Open(root, v)
	if err != nil {
		return err
	}
	defer s.Close()
	var filing, write []time.Duration
	reads := s.FilesRead()
	for i, o := range extra {
		if i%2 == 1 {
			prev := cv.outcomes[(i*7919)%len(cv.outcomes)]
			cp := *o
			sess := *o.Session
			sess.Topic, sess.Layer = prev.Session.Topic, prev.Session.Layer
			cp.Session = &sess
			o = &cp
		}
		t := time.Now()
		if _, err := s.File(ctx, o); err != nil {
			return err
		}
		filing = append(filing, time.Since(t))
		page := []byte(strings.Repeat("x", 3000))
		t = time.Now()
		if err := v.WritePage(fmt.Sprintf("bench/page-%d.md", i), nil, page); err != nil {
			return err
		}
		write = append(write, time.Since(t))
	}
	res.Filings = len(extra)
	res.FilingP50Ms, res.FilingMaxMs = ms(pctOf(filing, 50)), ms(slices.Max(filing))
	res.PageWriteP50Ms = ms(pctOf(write, 50))
	res.FilingIndexReads = s.FilesRead() - reads
	return nil
}

// benchCold reads every file of the folder (the baseline), then deletes
// the index and times a new Store's first check, which rebuilds it.
func benchCold(ctx context.Context, res *ConsensusResult, exe, root, vaultDir string, v *vault.Vault, cv *consensusVault) error {
	folder := filepath.Join(vaultDir, filepath.FromSlash(consensus.Folder))
	entries, err := os.ReadDir(folder)
	if err != nil {
		return err
	}
	t0 := time.Now()
	next := make(chan string)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range next {
				_, _ = os.ReadFile(filepath.Join(folder, name))
			}
		}()
	}
	for _, e := range entries {
		next <- e.Name()
	}
	close(next)
	wg.Wait()
	res.ReadAllMs = ms(time.Since(t0))

	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(filepath.Join(root, consensus.CacheFile+suffix)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	o := cv.outcomes[0]
	if exe != "" {
		m, err := runMeasured(ctx, exe, "--root", root, "--vault", vaultDir, "--json", "consensus", "check", "--lenient",
			"--layer", string(o.Session.Layer), "--topic", o.Session.Topic, "--position", o.DefenderPosition)
		if err != nil {
			return err
		}
		res.ColdRebuildMs, res.ColdRebuildCPUMs, res.ColdRebuildRSSMB = ms(m.wall), ms(m.cpu), m.rssMB
		return nil
	}
	cold, err := consensus.Open(root, v)
	if err != nil {
		return err
	}
	defer cold.Close()
	c0 := selfCPU()
	t0 = time.Now()
	if _, err := cold.Check(ctx, o.Session.Layer, o.Session.Topic, o.DefenderPosition); err != nil {
		return err
	}
	res.ColdRebuildMs, res.ColdRebuildCPUMs = ms(time.Since(t0)), ms(selfCPU()-c0)
	return nil
}

// benchProcesses runs checks as new processes, each after a "parley
// --help" (the floor).
func benchProcesses(ctx context.Context, res *ConsensusResult, exe, root, vaultDir string, qs []consensusQuery) error {
	var wall, floor []time.Duration
	for _, q := range qs {
		m, err := runMeasured(ctx, exe, "--help")
		if err != nil {
			return err
		}
		floor = append(floor, m.wall)
		res.ProcessFloorRSSMB = max(res.ProcessFloorRSSMB, m.rssMB)
		m, err = runMeasured(ctx, exe, "--root", root, "--vault", vaultDir, "--json", "consensus", "check", "--lenient",
			"--layer", string(q.layer), "--topic", q.topic, "--position", q.position)
		if err != nil {
			return err
		}
		wall = append(wall, m.wall)
		res.NewProcessRSSMB = max(res.NewProcessRSSMB, m.rssMB)
	}
	res.NewProcessRuns = len(qs)
	res.NewProcessP50Ms, res.NewProcessMaxMs = ms(pctOf(wall, 50)), ms(slices.Max(wall))
	res.ProcessFloorP50Ms = ms(pctOf(floor, 50))
	return nil
}

// benchWarm times checks and searches on one Store that has answered
// before, beside a prepared SELECT on the same database.
func benchWarm(ctx context.Context, res *ConsensusResult, root string, v *vault.Vault, qs []consensusQuery) error {
	warm, err := consensus.Open(root, v)
	if err != nil {
		return err
	}
	defer warm.Close()
	if _, err := warm.Check(ctx, qs[0].layer, qs[0].topic, qs[0].position); err != nil {
		return err
	}
	reads := warm.FilesRead()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(root, consensus.CacheFile)+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	sel, err := db.PrepareContext(ctx, `SELECT rec FROM files WHERE name = ?`)
	if err != nil {
		return err
	}
	defer sel.Close()
	res.Answers = map[string]int{}
	byKind := map[string][]time.Duration{}
	var lat, base []time.Duration
	var cpu time.Duration
	for _, q := range qs {
		c0 := selfCPU()
		t := time.Now()
		cr, err := warm.Check(ctx, q.layer, q.topic, q.position)
		if err != nil {
			return err
		}
		d := time.Since(t)
		cpu += selfCPU() - c0
		lat = append(lat, d)
		byKind[q.kind] = append(byKind[q.kind], d)
		res.Answers[q.kind+" → "+string(cr.Status)]++
		name := consensus.TopicSlug(q.topic)
		var rec []byte
		t = time.Now()
		if err := sel.QueryRowContext(ctx, string(q.layer)+"-"+name+".md").Scan(&rec); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		base = append(base, time.Since(t))
	}
	res.WarmChecks = len(qs)
	res.WarmCheckP50Us, res.WarmCheckP99Us = usOf(pctOf(lat, 50)), usOf(pctOf(lat, 99))
	res.WarmCheckCPUUs = usOf(cpu / time.Duration(len(qs)))
	res.WarmByKindP50Us = map[string]int{}
	for k, d := range byKind {
		res.WarmByKindP50Us[k] = int(usOf(pctOf(d, 50)))
	}
	res.SelectP50Us = usOf(pctOf(base, 50))

	searches := max(len(qs)/20, 1)
	lat = lat[:0]
	for i := range searches {
		q := qs[i%len(qs)]
		text := q.topic
		if i%2 == 1 {
			text = q.position
		}
		t := time.Now()
		if _, err := warm.Search(ctx, text, consensus.Filter{}, 10); err != nil {
			return err
		}
		lat = append(lat, time.Since(t))
	}
	res.Searches = searches
	res.SearchP50Us, res.SearchP99Us = usOf(pctOf(lat, 50)), usOf(pctOf(lat, 99))
	res.WarmRecordReads = warm.FilesRead() - reads
	return nil
}

// measured is a process's wall time, CPU time (user and system) and own
// peak resident memory.
type measured struct {
	wall, cpu time.Duration
	rssMB     float64
}

// runMeasured runs a command and measures it. Exit 3 (a conflict) is an
// answer, not a failure. The peak is the child's VmHWM, read from /proc
// while it runs: its rusage would count the parent's memory, which it
// shares until its exec. 0 where /proc is not there.
func runMeasured(ctx context.Context, exe string, args ...string) (measured, error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return measured{}, err
	}
	done := make(chan struct{})
	peak := make(chan float64, 1)
	parent := vmHWM("/proc/self/status")
	go func() {
		best := 0.0
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		for {
			// Before its exec the child shows the parent's peak.
			if kb := vmHWM(status); kb > best && kb != parent {
				best = kb
			}
			select {
			case <-done:
				peak <- best / 1024
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	err := cmd.Wait()
	d := time.Since(t0)
	close(done)
	rss := <-peak
	var exitErr *exec.ExitError
	if err != nil && !(errors.As(err, &exitErr) && exitErr.ExitCode() == 3) {
		return measured{}, fmt.Errorf("%s %s: %v: %s", exe, strings.Join(args, " "), err, stderr.String())
	}
	return measured{wall: d, cpu: processCPU(cmd.ProcessState), rssMB: rss}, nil
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

// loadAvg is the 1-minute load average, 0 where /proc is not there.
func loadAvg() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(data) + " 0")[0], 64)
	return f
}

func usOf(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }

// pctOf is the p-th percentile of unsorted durations.
func pctOf(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return pct(s, p)
}

// selfCPU is this process's user and system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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

package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// The benchmarks' results as a terminal shows them, one WriteText method
// each; --json prints the results themselves.

// WriteText writes r as a table of parley beside the floor, with ratios.
func (r *CLIResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "parley bench cli: %s, %s, %d CPUs\n", r.Dir, r.FileSystem, r.CPUs)
	if r.ParleyBuild.CgoEnabled {
		fmt.Fprintf(ew, "note: the parley measured is a cgo build (dynamically linked), which starts more slowly;\n"+
			"      release builds: CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' ./cmd/parley\n")
	}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\tparley\tfloor\tratio\n")
	row := func(name string, p, f, ratio float64, unit string) {
		fmt.Fprintf(tw, "%s\t%.2f %s\t%.2f %s\t%.2f×\n", name, p, unit, f, unit, ratio)
	}
	row(fmt.Sprintf("idle p50 (%d msgs)", r.Parley.Idle.Messages), r.Parley.Idle.P50Ms, r.Floor.Idle.P50Ms, r.Ratios.IdleP50, "ms")
	row("idle p99", r.Parley.Idle.P99Ms, r.Floor.Idle.P99Ms, r.Ratios.IdleP99, "ms")
	row(fmt.Sprintf("stream p50 (%d msgs, %.0f ms)", r.Parley.Stream.Messages, r.Parley.Stream.IntervalMs), r.Parley.Stream.P50Ms, r.Floor.Stream.P50Ms, r.Ratios.StreamP50, "ms")
	row("stream p99", r.Parley.Stream.P99Ms, r.Floor.Stream.P99Ms, r.Ratios.StreamP99, "ms")
	row("cpu per send (mean)", r.Parley.CPUPerSendMs, r.Floor.CPUPerSendMs, r.Ratios.CPU, "ms")
	row("start-up, fast path (--version, p50)", r.Startup.ParleyVersionCPUMs, r.Startup.FloorCPUMs, r.Startup.ParleyVersionCPUMs/max(r.Startup.FloorCPUMs, 1e-9), "ms")
	row("start-up, whole program (p50)", r.Startup.ParleyWholeCPUMs, r.Startup.FloorCPUMs, r.Startup.ParleyWholeCPUMs/max(r.Startup.FloorCPUMs, 1e-9), "ms")
	row(fmt.Sprintf("throughput (%d senders)", r.Senders), r.Parley.ThroughputPerSec, r.Floor.ThroughputPerSec, r.Ratios.Throughput, "msg/s")
	tw.Flush()
	for _, s := range []struct {
		name string
		side Side
	}{{"parley", r.Parley}, {"floor", r.Floor}} {
		fmt.Fprintf(ew, "%s: %d sent, %d lost, %d duplicated, %d out of order per sender\n", s.name, s.side.Sent, s.side.Lost, s.side.Duplicated, s.side.Reordered)
	}
	return ew.err
}

// WriteText writes r as one line per run.
func (r *MessengerResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	if raw := r.RawPublish; raw != nil {
		fmt.Fprintf(ew, "parley bench messenger --transport nats: %s, %d CPUs\n", r.Server, r.CPUs)
		fmt.Fprintf(ew, "  raw JetStream publish+ack          %5d ops     mean %.3f ms  p50 %.3f ms  %.0f ops/s\n", raw.Ops, raw.MeanMs, raw.P50Ms, raw.OpsPerSec)
	} else if raw := r.Raw; raw != nil {
		fmt.Fprintf(ew, "parley bench messenger: %s (%s), %d CPUs\n", r.Dir, r.FileSystem, r.CPUs)
		fmt.Fprintf(ew, "  raw write+fsync+rename+dir-fsync  %5d ops     mean %.3f ms  p50 %.3f ms  %.0f ops/s\n", raw.Ops, raw.MeanMs, raw.P50Ms, raw.OpsPerSec)
	}
	t := r.Throughput
	fmt.Fprintf(ew, "  throughput into one inbox         %5d msgs    send %.0f msg/s (raw/send %.2f×)  end to end with claim+ack %.0f msg/s (%.2f×)\n",
		t.Messages, t.SendPerSec, t.RawOverSend, t.EndToEndPerSec, t.RawOverE2E)
	for _, run := range []struct {
		name string
		l    LatencyFigures
	}{{"idle", r.Idle}, {"stream", r.Stream}} {
		floor := ""
		if r.Raw != nil {
			floor = fmt.Sprintf("  (the disk alone at this cadence: p50 %.3f ms  p99 %.3f ms)", run.l.DiskP50Ms, run.l.DiskP99Ms)
		}
		fmt.Fprintf(ew, "  latency, %-6s (1 msg / %2.0f ms)   %5d msgs    p50 %.3f ms  p99 %.3f ms  max %.3f ms%s\n",
			run.name, run.l.IntervalMs, run.l.Messages, run.l.P50Ms, run.l.P99Ms, run.l.MaxMs, floor)
	}
	return ew.err
}

// WriteText writes r as two lines: the figure with its bar, and its setup.
func (r *DebateResult) WriteText(w io.Writer) error {
	verdict := "(reported)"
	switch {
	case r.Pass == nil:
	case *r.Pass:
		verdict = "ok"
	default:
		verdict = "FAIL"
	}
	var err error
	switch {
	case r.Backend != "":
		_, err = fmt.Fprintf(w, "debate %-22s %d/%d debates complete, %d turns in %.2f s: %.0f debates/s; turn p50 %.2f ms, p99 %.2f ms; CPU %.2f s here + %.2f s in %d agent processes = %.3f ms/turn  bar: %s  %s\n    %s\n",
			r.Name, r.Complete, r.Debates, r.Turns, r.Seconds, r.DebatesPerSec, r.TurnP50Ms, r.TurnP99Ms, r.CoordinatorCPU, r.AgentsCPU, r.AgentProcesses, r.CPUPerTurn, r.Bar, verdict, r.Setup)
		if err == nil && r.Error != "" {
			_, err = fmt.Fprintf(w, "    the first debate that did not complete: %s\n", r.Error)
		}
	case r.Complete > 0 || r.PerTurn == 0:
		_, err = fmt.Fprintf(w, "debate %-22s %d/%d debates complete, %d turns in %.2f s (%.0f debates/s)  bar: %s  %s\n    %s\n",
			r.Name, r.Complete, r.Debates, r.Turns, r.Seconds, float64(r.Complete)/r.Seconds, r.Bar, verdict, r.Setup)
	default:
		bar := r.Bar
		if bar == "" {
			bar = "none, an end-to-end figure"
		}
		fsync := ""
		if r.Fsync > 0 {
			fsync = fmt.Sprintf("; the disk's append+fsync alone: %.0f µs", r.Fsync)
		}
		_, err = fmt.Fprintf(w, "debate %-20s %.0f µs/turn (request→turn: p50 %.0f µs, p99 %.0f µs; %.0f µs/turn with each debate's open and close%s), %d turns  bar: %s  %s\n    %s\n",
			r.Name, r.PerTurn, r.P50, r.P99, r.Amortized, fsync, r.Turns, bar, verdict, r.Setup)
	}
	return err
}

// WriteText writes r as two lines: Decide alone, and with parsing.
func (r *GateResult) WriteText(w io.Writer) error {
	verdict := "meets"
	if !r.MeetsBar {
		verdict = "MISSES"
	}
	_, err := fmt.Fprintf(w, "gate: %d decisions per CPU second on one core (%d per wall-clock second; Decide over the %d shipped corpus self-critiques, mean %d B)\n"+
		"gate: %d per CPU second with JSON parsing (%d per wall-clock second); %s the bar of %d/s\n",
		r.DecisionsPerCPUSec, r.DecisionsPerSec, r.Examples, r.MeanBytes, r.ParseAndDecidePerCPUSec, r.ParseAndDecidePerSec, verdict, r.BarPerSec)
	return err
}

// WriteText writes r as a table of each figure beside its baseline, with
// the bars on its first line.
func (r *ConsensusResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "consensus, %d records, %d CPUs, load %.2f → %.2f (bars: warm check p50 ≤ 1 ms, new process ≤ 100 ms, cold rebuild ≤ 10 s, memory ≤ 150 MB)\n",
		r.Records, r.CPUs, r.LoadBefore, r.LoadAfter)
	fmt.Fprintf(ew, "  %-22s %10s  %s\n", "", "parley", "baseline")
	fmt.Fprintf(ew, "  %-22s %7.0f ms  generating %.0f ms; index %.1f MB; written out before the timed steps in %.0f ms\n", "import (bulk, no fsync)", r.ImportMs, r.GenerateMs, r.IndexMB, r.FlushMs)
	fmt.Fprintf(ew, "  %-22s %7.1f ms  page write with fsync %.1f ms  (p50 of %d, max %.1f ms, %d record reads)\n", "filing one record", r.FilingP50Ms, r.PageWriteP50Ms, r.Filings, r.FilingMaxMs, r.FilingIndexReads)
	fmt.Fprintf(ew, "  %-22s %7.0f ms  reading every record file %.0f ms  (%.0f ms CPU, peak %.1f MB)\n", "cold rebuild", r.ColdRebuildMs, r.ReadAllMs, r.ColdRebuildCPUMs, r.ColdRebuildRSSMB)
	fmt.Fprintf(ew, "  %-22s %7.1f ms  parley --help %.1f ms  (p50 of %d, max %.1f ms)\n", "check, new process", r.NewProcessP50Ms, r.ProcessFloorP50Ms, r.NewProcessRuns, r.NewProcessMaxMs)
	fmt.Fprintf(ew, "  %-22s %7.1f MB  parley --help %.1f MB  (peak resident)\n", "memory of a check", r.NewProcessRSSMB, r.ProcessFloorRSSMB)
	fmt.Fprintf(ew, "  %-22s %7.0f µs  SELECT by name %.0f µs  (p50 of %d; p99 %.0f µs; %.0f µs CPU per check; %d record reads)\n", "warm check", r.WarmCheckP50Us, r.SelectP50Us, r.WarmChecks, r.WarmCheckP99Us, r.WarmCheckCPUUs, r.WarmRecordReads)
	fmt.Fprintf(ew, "  %-22s %7.0f µs  (p50 of %d; p99 %.0f µs)\n", "search", r.SearchP50Us, r.Searches, r.SearchP99Us)
	fmt.Fprintf(ew, "  warm check p50 by question: %v\n  answers: %v\n", r.WarmByKindP50Us, r.Answers)
	return ew.err
}

// errWriter keeps the first write error and drops what follows it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}

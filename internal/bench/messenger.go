package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	json "github.com/goccy/go-json"
	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
)

// SenderCommand is the name of the hidden parley command that
// RunMessenger re-executes as its sender process (see RunSender).
const SenderCommand = "bench-sender"

// MessengerOptions configures RunMessenger.
type MessengerOptions struct {
	// Parley is the binary started as the sender process, as
	// "parley [--root DIR] bench-sender ..."; "": this one.
	Parley string
	// Backend is the messenger measured: BackendFile (on Dir, every
	// delivery fsynced) or BackendNATS.
	Backend Backend
	Dir     string // scratch directory (file backend: the one measured); "": a temporary one

	Raw, Idle, Stream, Throughput int // operations of each run, each at least 1
}

// MessengerResult holds the figures of "parley bench messenger".
type MessengerResult struct {
	Bench      string `json:"bench"`
	Transport  string `json:"transport"`
	Dir        string `json:"dir,omitempty"`
	FileSystem string `json:"filesystem,omitempty"`
	Server     string `json:"server,omitempty"`
	CPUs       int    `json:"cpus"`

	// Raw is the engine's own rate for what one delivery does: for files
	// the disk's write+fsync+rename+directory-fsync, for NATS a JetStream
	// publish awaiting its acknowledgement.
	Raw        *RawFigures    `json:"raw_write_fsync_rename_dirfsync,omitempty"`
	RawPublish *RawFigures    `json:"raw_jetstream_publish,omitempty"`
	Idle       LatencyFigures `json:"latency_idle"`
	Stream     LatencyFigures `json:"latency_stream"`
	Throughput struct {
		Messages       int     `json:"messages"`
		SendPerSec     float64 `json:"send_msgs_per_sec"`
		EndToEndPerSec float64 `json:"end_to_end_msgs_per_sec"`
		RawOverSend    float64 `json:"raw_over_send_ratio"`
		RawOverE2E     float64 `json:"raw_over_end_to_end_ratio"`
	} `json:"throughput"`
}

type RawFigures struct {
	Ops       int     `json:"ops"`
	MeanMs    float64 `json:"mean_ms"`
	P50Ms     float64 `json:"p50_ms"`
	OpsPerSec float64 `json:"ops_per_sec"`
}

type LatencyFigures struct {
	Messages   int     `json:"messages"`
	IntervalMs float64 `json:"interval_ms"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	// DiskP50Ms and DiskP99Ms (files only) are the disk's own
	// write+fsync+rename+dir-fsync at the same cadence: the floor a durable
	// delivery cannot go below, since a disk idle between writes flushes
	// more slowly than one written back to back.
	DiskP50Ms float64 `json:"disk_p50_ms,omitempty"`
	DiskP99Ms float64 `json:"disk_p99_ms,omitempty"`
}

// benchTarget is the messenger a run measures: the file backend under a
// directory of the run's own, or a NATS server.
type benchTarget struct {
	dir     string // the runs' parent directory
	backend Backend
}

// open returns a transport for run (a directory or an inbox name of its
// own), with its closer.
func (bt benchTarget) open(ctx context.Context, run string) (inbox.Transport, func(), error) {
	return bt.backend.open(ctx, filepath.Join(bt.dir, run))
}

// senderArgs are the sender process's arguments for run: its root, whose
// config.json selects the backend (open wrote it).
func (bt benchTarget) senderArgs(run string) []string {
	return []string{"--root", filepath.Join(bt.dir, run), SenderCommand}
}

// RunMessenger measures, in one run, the engine's own rate for one
// delivery (raw), the throughput of one sender process into one inbox,
// and delivery latency between a separate sender process and this
// receiver, idle (one message every 50 ms) and under a stream (one every
// 20 ms).
//
// Without o.Parley its sender process is this process's executable. A
// NATS server that does not answer is jetstream.ErrUnavailable, saying
// how to start one.
func RunMessenger(ctx context.Context, o MessengerOptions) (*MessengerResult, error) {
	r, err := runMessenger(ctx, o)
	return r, withHint(err)
}

func runMessenger(ctx context.Context, o MessengerOptions) (*MessengerResult, error) {
	var err error
	if o.Parley, err = parley(o.Parley); err != nil {
		return nil, err
	}
	for _, n := range []int{o.Raw, o.Idle, o.Stream, o.Throughput} {
		if n < 1 {
			return nil, fmt.Errorf("bench messenger: every run needs at least one operation")
		}
	}
	if o.Backend.Name != BackendFile && o.Backend.Name != BackendNATS {
		// The raw figure beside the transport's is each engine's own.
		return nil, fmt.Errorf("%w: %q: bench messenger measures %s or %s", ErrBackend, o.Backend.Name, BackendFile, BackendNATS)
	}
	dir, cleanup, err := scratch(o.Dir, "parley-bench-")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	res := &MessengerResult{Bench: "messenger", Transport: o.Backend.Name, CPUs: runtime.NumCPU()}
	bt := benchTarget{dir: dir, backend: o.Backend}
	if o.Backend.Name == BackendNATS {
		version, err := serverVersion(o.Backend.url())
		if err != nil {
			return nil, err
		}
		res.Server = jetstream.Redact(o.Backend.url()) + " (nats-server " + version + ")"
		raw, err := rawPublishRate(ctx, o.Backend.url(), o.Raw)
		if err != nil {
			return nil, err
		}
		res.RawPublish = &raw
	} else {
		res.Dir, res.FileSystem = dir, FSType(dir)
		raw, err := rawRate(filepath.Join(dir, "raw"), o.Raw)
		if err != nil {
			return nil, err
		}
		res.Raw = &raw
	}
	rawRate := res.rawOpsPerSec()
	sendRate, e2e, err := benchThroughput(ctx, o.Parley, bt, o.Throughput)
	if err != nil {
		return nil, err
	}
	t := &res.Throughput
	t.Messages, t.SendPerSec, t.EndToEndPerSec = o.Throughput, sendRate, e2e
	t.RawOverSend, t.RawOverE2E = rawRate/sendRate, rawRate/e2e
	for _, run := range []struct {
		name     string
		n        int
		interval time.Duration
		out      *LatencyFigures
	}{
		{"idle", o.Idle, 50 * time.Millisecond, &res.Idle},
		{"stream", o.Stream, 20 * time.Millisecond, &res.Stream},
	} {
		lat, err := benchLatency(ctx, o.Parley, bt, run.name, run.n, run.interval)
		if err != nil {
			return nil, err
		}
		*run.out = LatencyFigures{Messages: run.n, IntervalMs: ms(run.interval), P50Ms: ms(pct(lat, 50)), P99Ms: ms(pct(lat, 99)), MaxMs: ms(lat[len(lat)-1])}
		if o.Backend.Name == BackendFile {
			disk, err := rawLatencies(filepath.Join(dir, "raw-"+run.name), min(run.n, 200), run.interval)
			if err != nil {
				return nil, err
			}
			run.out.DiskP50Ms, run.out.DiskP99Ms = ms(pct(disk, 50)), ms(pct(disk, 99))
		}
	}
	return res, nil
}

func (r *MessengerResult) rawOpsPerSec() float64 {
	if r.Raw != nil {
		return r.Raw.OpsPerSec
	}
	return r.RawPublish.OpsPerSec
}

// serverVersion connects to url and returns the server's version.
func serverVersion(url string) (string, error) {
	nc, err := nats.Connect(url, nats.Name("parley bench"), nats.Timeout(5*time.Second))
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", jetstream.ErrUnavailable, url, err)
	}
	defer nc.Close()
	return nc.ConnectedServerVersion(), nil
}

// rawPublishRate measures the server's own rate for what a delivery does:
// publish a 400-byte message to a file-backed stream and wait for its
// acknowledgement, back to back. It uses a scratch stream, deleted after.
func rawPublishRate(ctx context.Context, url string, n int) (RawFigures, error) {
	nc, err := nats.Connect(url, nats.Name("parley bench raw"))
	if err != nil {
		return RawFigures{}, err
	}
	defer nc.Close()
	js, err := njs.New(nc)
	if err != nil {
		return RawFigures{}, err
	}
	const name, subject = "PARLEY_BENCH_RAW", "parley-bench.raw"
	if _, err := js.CreateStream(ctx, njs.StreamConfig{Name: name, Subjects: []string{subject}, Storage: njs.FileStorage}); err != nil {
		return RawFigures{}, err
	}
	defer js.DeleteStream(context.WithoutCancel(ctx), name)
	data := make([]byte, 400)
	for i := range data {
		data[i] = 'x'
	}
	lat := make([]time.Duration, 0, n)
	start := time.Now()
	for range n {
		t0 := time.Now()
		if _, err := js.Publish(ctx, subject, data); err != nil {
			return RawFigures{}, err
		}
		lat = append(lat, time.Since(t0))
	}
	total := time.Since(start)
	slices.Sort(lat)
	return RawFigures{Ops: n, MeanMs: ms(total) / float64(n), P50Ms: ms(pct(lat, 50)), OpsPerSec: float64(n) / total.Seconds()}, nil
}

// rawRate measures the disk's own rate for what a delivery does: write a
// small file, fsync it, rename it into place, fsync the directory; back to
// back.
func rawRate(dir string, n int) (RawFigures, error) {
	start := time.Now()
	lat, err := rawLatencies(dir, n, 0)
	if err != nil {
		return RawFigures{}, err
	}
	total := time.Since(start)
	return RawFigures{Ops: n, MeanMs: ms(total) / float64(n), P50Ms: ms(pct(lat, 50)), OpsPerSec: float64(n) / total.Seconds()}, nil
}

// rawLatencies times n of the disk's own durable writes (write a small
// file, fsync it, rename it into place, fsync the directory), one every
// interval (0: back to back), and returns them sorted.
func rawLatencies(dir string, n int, interval time.Duration) ([]time.Duration, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	data := make([]byte, 400)
	for i := range data {
		data[i] = 'x'
	}
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		if interval > 0 {
			time.Sleep(interval)
		}
		t0 := time.Now()
		tmp := filepath.Join(dir, fmt.Sprintf(".raw-%d.tmp", i))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("raw-%d.json", i))); err != nil {
			return nil, err
		}
		if err := d.Sync(); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	return lat, nil
}

// startSender starts the sender process of run: count messages to agent,
// one every interval (0: back to back). What it prints lands in the buffer
// returned, complete once cmd.Wait has returned (receiveAll waits).
func startSender(ctx context.Context, exe string, bt benchTarget, run, agent string, count int, interval time.Duration) (*exec.Cmd, *bytes.Buffer, error) {
	args := append(bt.senderArgs(run), "--to", agent, "--count", strconv.Itoa(count), "--interval", interval.String())
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stderr = os.Stderr
	out := new(bytes.Buffer)
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return cmd, out, nil
}

// receiveAll claims and acks n messages, returning for each the time from
// the sender's Send call to the return of Receive.
func receiveAll(ctx context.Context, r inbox.Receiver, n int, cmd *exec.Cmd) ([]time.Duration, time.Time, time.Time, error) {
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		err := cmd.Wait()
		if err != nil {
			cancel()
		}
		done <- err
	}()
	lat := make([]time.Duration, 0, n)
	var first, last time.Time
	for i := 0; i < n; i++ {
		d, err := r.Receive(ctx)
		now := time.Now()
		if err != nil {
			if werr := <-done; werr != nil {
				return nil, first, last, fmt.Errorf("sender process: %w", werr)
			}
			return nil, first, last, err
		}
		var f struct {
			SentUnixNs int64 `json:"sent_unix_ns"`
		}
		if err := d.Message.DecodeFields(&f); err != nil {
			return nil, first, last, err
		}
		sent := time.Unix(0, f.SentUnixNs)
		if i == 0 {
			first = sent
		}
		last = now
		lat = append(lat, now.Sub(sent))
		if err := r.Ack(ctx, d); err != nil {
			return nil, first, last, err
		}
	}
	if err := <-done; err != nil {
		return nil, first, last, fmt.Errorf("sender process: %w", err)
	}
	return lat, first, last, nil
}

// benchInbox opens the receiving side of run: agent's inbox, listened to.
func benchInbox(ctx context.Context, bt benchTarget, run, agent string) (inbox.Receiver, func(), error) {
	tr, closeTr, err := bt.open(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	if err := tr.Create(ctx, agent); err != nil {
		closeTr()
		return nil, nil, err
	}
	r, err := tr.Listen(ctx, agent)
	if err != nil {
		closeTr()
		return nil, nil, err
	}
	// The first Receive runs the initial scan before any message exists.
	pctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _ = r.Receive(pctx)
	return r, func() { r.Close(); closeTr() }, nil
}

// benchAgent names the receiving agent of a run: runs on one NATS server
// need inboxes of their own.
func benchAgent(run string) string { return "Receiver_" + run }

func benchLatency(ctx context.Context, exe string, bt benchTarget, run string, n int, interval time.Duration) ([]time.Duration, error) {
	r, done, err := benchInbox(ctx, bt, run, benchAgent(run))
	if err != nil {
		return nil, err
	}
	defer done()
	cmd, _, err := startSender(ctx, exe, bt, run, benchAgent(run), n, interval)
	if err != nil {
		return nil, err
	}
	lat, _, _, err := receiveAll(ctx, r, n, cmd)
	if err != nil {
		return nil, err
	}
	slices.Sort(lat)
	return lat, nil
}

func benchThroughput(ctx context.Context, exe string, bt benchTarget, n int) (sendRate, e2e float64, err error) {
	const run = "throughput"
	r, done, err := benchInbox(ctx, bt, run, benchAgent(run))
	if err != nil {
		return 0, 0, err
	}
	defer done()
	cmd, out, err := startSender(ctx, exe, bt, run, benchAgent(run), n, 0)
	if err != nil {
		return 0, 0, err
	}
	_, first, last, err := receiveAll(ctx, r, n, cmd)
	if err != nil {
		return 0, 0, err
	}
	// receiveAll waited for the sender, so its report is all in out.
	var report SenderReport
	if err := json.NewDecoder(out).Decode(&report); err != nil {
		return 0, 0, fmt.Errorf("sender report: %w", err)
	}
	return float64(n) / time.Duration(report.ElapsedNs).Seconds(), float64(n) / last.Sub(first).Seconds(), nil
}

// SenderReport is what the sender process prints when it is done.
type SenderReport struct {
	Sent      int   `json:"sent"`
	ElapsedNs int64 `json:"elapsed_ns"`
}

// SenderOptions configure RunSender.
type SenderOptions struct {
	Root     string        // the root whose config.json selects the messenger
	To       string        // the recipient
	Count    int           // messages to send
	Interval time.Duration // pause between sends (0: back to back)
}

// RunSender is the sender process of RunMessenger: it sends Count
// messages, each stamped with the time its Send started, and reports how
// long that took.
func RunSender(ctx context.Context, o SenderOptions) (*SenderReport, error) {
	tr, done, err := openRoot(ctx, o.Root)
	if err != nil {
		return nil, err
	}
	defer done()
	start := time.Now()
	next := start
	for i := 0; i < o.Count; i++ {
		if o.Interval > 0 {
			next = next.Add(o.Interval)
			time.Sleep(time.Until(next))
		}
		m := &inbox.Message{From: "Sender", To: o.To, Text: "bench " + strconv.Itoa(i), Type: "bench"}
		if err := m.SetFields(map[string]any{"sent_unix_ns": time.Now().UnixNano(), "seq": i}); err != nil {
			return nil, err
		}
		if err := tr.Send(ctx, m); err != nil {
			return nil, err
		}
	}
	return &SenderReport{Sent: o.Count, ElapsedNs: time.Since(start).Nanoseconds()}, nil
}

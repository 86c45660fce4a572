package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

	"github.com/parleyhq/parley/internal/quicksend"
	"github.com/parleyhq/parley/internal/sleep"
)

// CLIOptions configures RunCLI. Zero counts and durations take the
// defaults of DefaultCLIOptions.
type CLIOptions struct {
	Parley string // the parley binary whose send and watch are measured; "": this one
	Floor  string // the floor binary; "": built with BuildFloor (ErrNoToolchain without go)
	Dir    string // scratch directory, on the file system to measure; "": a temporary one

	Idle      int           // paired idle rounds: one parley send and one floor write each
	IdleGap   time.Duration // pause after each idle send
	Stream    int           // messages per side in each stream block
	Blocks    int           // paired stream blocks
	Interval  time.Duration // the stream's cadence
	Senders   int           // concurrent senders of the throughput run
	PerSender int           // messages each of them sends, per side and round
	Rounds    int           // paired throughput rounds

	Progress io.Writer // one line per phase; nil: quiet
}

// DefaultCLIOptions are the sizes "parley bench cli" uses by default.
var DefaultCLIOptions = CLIOptions{
	Idle: 100, IdleGap: 50 * time.Millisecond,
	Stream: 50, Blocks: 4, Interval: 20 * time.Millisecond,
	Senders: 16, PerSender: 15, Rounds: 2,
}

// Latency is one latency run: from spawning the sender process to the
// watcher process's line for the message.
type Latency struct {
	Messages   int     `json:"messages"`
	IntervalMs float64 `json:"interval_ms"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
}

// Side holds the figures of one side: parley, or the floor.
type Side struct {
	Idle   Latency `json:"idle"`
	Stream Latency `json:"stream"`
	// CPUPerSendMs is the user+system CPU time of one sender process
	// (mean and median over the idle and stream sends).
	CPUPerSendMs    float64 `json:"cpu_per_send_ms"`
	CPUPerSendP50Ms float64 `json:"cpu_per_send_p50_ms"`
	// ThroughputPerSec is messages per second with Senders sender
	// processes at a time, each sending back to back.
	ThroughputPerSec float64 `json:"throughput_msgs_per_sec"`
	// Delivery: per sender, every message seen once and in send order.
	Sent       int `json:"sent"`
	Lost       int `json:"lost"`
	Duplicated int `json:"duplicated"`
	Reordered  int `json:"reordered"`
}

// CLIResult is what RunCLI measured.
type CLIResult struct {
	Bench string `json:"bench"`
	Dir   string `json:"dir"`
	// FileSystem names Dir's file system (a tmpfs's fsync is free).
	FileSystem string `json:"filesystem"`
	CPUs       int    `json:"cpus"`
	Senders    int    `json:"senders"`
	// ParleyBuild says how the measured parley binary was built, as its
	// "--json version" tells (nothing from a parley too old to say): a cgo
	// build is dynamically linked and starts more slowly (see
	// docs/performance.md).
	ParleyBuild struct {
		Go         string `json:"go,omitempty"`
		CgoEnabled bool   `json:"cgo_enabled"`
	} `json:"parley_build"`
	// Startup is the CPU time (user+system, median) of starting a process
	// that does next to nothing, measured in turn: the floor program
	// ("floor start"); parley answering "--version" on its fast path
	// (cmd/parley/internal/fastpath: the start-up no send from this binary
	// can cost less than); and the same with the fast path off, which
	// initialises every package parley links, as every command but a
	// plain send and the version does.
	Startup struct {
		Runs               int     `json:"runs"`
		FloorCPUMs         float64 `json:"floor_cpu_ms"`
		ParleyVersionCPUMs float64 `json:"parley_version_cpu_ms"`
		ParleyWholeCPUMs   float64 `json:"parley_whole_cpu_ms"`
	} `json:"startup"`
	Parley Side `json:"parley"`
	Floor  Side `json:"floor"`
	// Ratios are parley's figure over the floor's (throughput: parley's
	// share of the floor's rate).
	Ratios struct {
		IdleP50    float64 `json:"idle_p50"`
		IdleP99    float64 `json:"idle_p99"`
		StreamP50  float64 `json:"stream_p50"`
		StreamP99  float64 `json:"stream_p99"`
		CPU        float64 `json:"cpu_per_send"`
		Throughput float64 `json:"throughput"`
	} `json:"ratios"`
}

// arrivalTimeout bounds the wait for one message's line: past it the
// message counts as lost.
const arrivalTimeout = 20 * time.Second

// RunCLI measures "parley send" processes delivering to a "parley watch"
// process, beside the floor program's durable write seen by the floor's
// watcher, in paired rounds that alternate which side goes first: idle
// latency, latency under a steady stream, CPU per send, and the throughput
// of concurrent sender processes. It also checks every message arrived
// once, in send order per sender.
//
// Without o.Parley it measures this process's executable. Without o.Floor
// and a Go toolchain to build it, the error is ErrNoToolchain, saying how
// to build it.
func RunCLI(ctx context.Context, o CLIOptions) (*CLIResult, error) {
	r, err := runCLI(ctx, o)
	return r, withHint(err)
}

func runCLI(ctx context.Context, o CLIOptions) (*CLIResult, error) {
	o = withDefaults(o)
	var err error
	if o.Parley, err = parley(o.Parley); err != nil {
		return nil, err
	}
	dir, cleanup, err := scratch(o.Dir, "parley-bench-cli-")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	o.Dir = dir
	if o.Floor == "" {
		if o.Floor, err = BuildFloor(ctx, dir); err != nil {
			return nil, err
		}
	}
	res := &CLIResult{Bench: "cli", Dir: o.Dir, FileSystem: FSType(o.Dir), CPUs: runtime.NumCPU(), Senders: o.Senders}
	res.ParleyBuild.Go, res.ParleyBuild.CgoEnabled = parleyBuild(ctx, o.Parley)
	root := filepath.Join(o.Dir, "root")
	floorDir := filepath.Join(o.Dir, "floor-inbox")
	if err := os.MkdirAll(floorDir, 0o700); err != nil {
		return nil, err
	}
	if out, err := exec.CommandContext(ctx, o.Parley, "--root", root, "agents", "add", "Bench").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("parley agents add: %v: %s", err, out)
	}
	pw, err := startWatcher(ctx, false, o.Parley, "--root", root, "--json", "watch", "--as", "Bench")
	if err != nil {
		return nil, err
	}
	defer pw.stop()
	fw, err := startWatcher(ctx, true, o.Floor, "watch", floorDir)
	if err != nil {
		return nil, err
	}
	defer fw.stop()
	sides := [2]*side{
		{name: "parley", w: pw, res: &res.Parley, cmd: func(from, text string) []string {
			return []string{o.Parley, "--root", root, "send", "--from", from, "--to", "Bench", text}
		}},
		{name: "floor", w: fw, res: &res.Floor, cmd: func(from, text string) []string {
			return []string{o.Floor, "write", floorDir, from, text}
		}},
	}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}

	// Warm up: the page cache holds both binaries, both watchers run.
	for _, s := range sides {
		for i := range 3 {
			if _, _, err := s.one(ctx, "warmup", "Warm", i); err != nil {
				return nil, fmt.Errorf("%s warm-up: %w", s.name, err)
			}
		}
	}

	progress("start-up: %d paired runs of a process that does nothing", startupRuns)
	if err := startup(ctx, res, o.Floor, o.Parley); err != nil {
		return nil, err
	}

	progress("idle: %d paired rounds, one send each %v apart", o.Idle, o.IdleGap)
	for i := range o.Idle {
		for _, s := range ordered(sides, i) {
			lat, cpu, err := s.one(ctx, "idle", "Ida", i)
			if err != nil {
				return nil, err
			}
			s.idle = append(s.idle, lat...)
			s.cpu = append(s.cpu, cpu...)
			if err := sleep.For(ctx, o.IdleGap); err != nil {
				return nil, err
			}
		}
	}

	progress("stream: %d paired blocks of %d messages, one every %v", o.Blocks, o.Stream, o.Interval)
	for b := range o.Blocks {
		for _, s := range ordered(sides, b) {
			lat, cpu, err := s.stream(ctx, "stream", "Sten", b*o.Stream, o.Stream, o.Interval)
			if err != nil {
				return nil, err
			}
			s.streamLat = append(s.streamLat, lat...)
			s.cpu = append(s.cpu, cpu...)
			if err := sleep.For(ctx, 200*time.Millisecond); err != nil {
				return nil, err
			}
		}
	}

	progress("throughput: %d paired rounds of %d concurrent senders × %d messages", o.Rounds, o.Senders, o.PerSender)
	for r := range o.Rounds {
		for _, s := range ordered(sides, r) {
			if err := s.throughput(ctx, r, o.Senders, o.PerSender); err != nil {
				return nil, err
			}
		}
	}

	for _, s := range sides {
		s.finish(o)
	}
	rt := &res.Ratios
	rt.IdleP50 = ratio(res.Parley.Idle.P50Ms, res.Floor.Idle.P50Ms)
	rt.IdleP99 = ratio(res.Parley.Idle.P99Ms, res.Floor.Idle.P99Ms)
	rt.StreamP50 = ratio(res.Parley.Stream.P50Ms, res.Floor.Stream.P50Ms)
	rt.StreamP99 = ratio(res.Parley.Stream.P99Ms, res.Floor.Stream.P99Ms)
	rt.CPU = ratio(res.Parley.CPUPerSendMs, res.Floor.CPUPerSendMs)
	rt.Throughput = ratio(res.Parley.ThroughputPerSec, res.Floor.ThroughputPerSec)
	return res, nil
}

// parleyBuild is the Go version and the cgo setting the parley binary
// reports of its build ("parley --json version"); empty and false when it
// does not say. Asking the binary, rather than reading its build
// information with debug/buildinfo, keeps debug/elf and debug/dwarf (and
// their package initialisation) out of every parley command.
func parleyBuild(ctx context.Context, parley string) (goVersion string, cgo bool) {
	out, err := exec.CommandContext(ctx, parley, "--json", "version").Output()
	if err != nil {
		return "", false
	}
	var v struct {
		Go  string `json:"go"`
		Cgo bool   `json:"cgo"`
	}
	if json.Unmarshal(out, &v) != nil {
		return "", false
	}
	return v.Go, v.Cgo
}

// startupRuns is how many times each do-nothing process is started.
const startupRuns = 30

// startup measures the CPU time of starting the floor program, parley's
// fast path and the whole of parley doing next to nothing, in turn (in a
// rotating order, so that none is always first).
func startup(ctx context.Context, res *CLIResult, floor, parley string) error {
	var cpu [3][]time.Duration
	for i := range startupRuns {
		for j := range 3 {
			k := (i + j) % 3
			argv, env := []string{floor, "start"}, []string(nil)
			if k > 0 {
				argv = []string{parley, "--version"}
			}
			if k == 2 {
				env = append(os.Environ(), "PARLEY_FASTPATH="+quicksend.Off)
			}
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, bytes.TrimSpace(out))
			}
			cpu[k] = append(cpu[k], processCPU(cmd.ProcessState))
		}
	}
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return ms(pct(d, 50))
	}
	res.Startup.Runs = startupRuns
	res.Startup.FloorCPUMs = p50(cpu[0])
	res.Startup.ParleyVersionCPUMs = p50(cpu[1])
	res.Startup.ParleyWholeCPUMs = p50(cpu[2])
	return nil
}

func withDefaults(o CLIOptions) CLIOptions {
	d := DefaultCLIOptions
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setD := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&o.Idle, d.Idle)
	set(&o.Stream, d.Stream)
	set(&o.Blocks, d.Blocks)
	set(&o.Senders, d.Senders)
	set(&o.PerSender, d.PerSender)
	set(&o.Rounds, d.Rounds)
	setD(&o.IdleGap, d.IdleGap)
	setD(&o.Interval, d.Interval)
	return o
}

// ordered is the pair in round i's order: parley first in even rounds.
func ordered[T any](s [2]T, i int) [2]T {
	if i%2 == 1 {
		return [2]T{s[1], s[0]}
	}
	return s
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// side is one side's sender command, its watcher and what was measured.
type side struct {
	name string
	w    *watcher
	cmd  func(from, text string) []string
	res  *Side

	idle, streamLat, cpu []time.Duration
	sendTime             time.Duration // wall time of the throughput runs
	sendCount            int
	sent                 map[string]int // per sender: messages sent

	mu    sync.Mutex
	spans map[string]span // message text → its sender process's lifetime
}

// span is when a sender process was spawned and when it had exited.
type span struct{ start, end time.Time }

func (s *side) record(text string, start, end time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spans == nil {
		s.spans = map[string]span{}
	}
	s.spans[text] = span{start, end}
}

func token(kind, from string, seq int) string {
	return kind + " " + from + " " + strconv.Itoa(seq)
}

// spawn starts one sender process; wait returns its CPU time.
func (s *side) spawn(ctx context.Context, from, text string) (wait func() (time.Duration, error), err error) {
	argv := s.cmd(from, text)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if s.sent == nil {
		s.sent = map[string]int{}
	}
	s.sent[from]++
	return func() (time.Duration, error) {
		if err := cmd.Wait(); err != nil {
			return 0, fmt.Errorf("%s sender: %v: %s", s.name, err, strings.TrimSpace(stderr.String()))
		}
		s.record(text, start, time.Now())
		return processCPU(cmd.ProcessState), nil
	}, nil
}

// one sends one message and waits for its line.
func (s *side) one(ctx context.Context, kind, from string, seq int) ([]time.Duration, []time.Duration, error) {
	tok := token(kind, from, seq)
	ch := s.w.expect(tok)
	t0 := time.Now()
	wait, err := s.spawn(ctx, from, tok)
	if err != nil {
		return nil, nil, err
	}
	cpu, err := wait()
	if err != nil {
		return nil, nil, err
	}
	at, ok, err := s.w.await(ctx, ch)
	if err != nil || !ok {
		return nil, []time.Duration{cpu}, err
	}
	return []time.Duration{at.Sub(t0)}, []time.Duration{cpu}, nil
}

// stream spawns n senders, one every interval, and waits for their lines.
func (s *side) stream(ctx context.Context, kind, from string, first, n int, interval time.Duration) ([]time.Duration, []time.Duration, error) {
	type sent struct {
		ch   <-chan time.Time
		t0   time.Time
		wait func() (time.Duration, error)
	}
	all := make([]sent, 0, n)
	next := time.Now()
	for i := range n {
		tok := token(kind, from, first+i)
		ch := s.w.expect(tok)
		if err := sleep.For(ctx, time.Until(next)); err != nil {
			return nil, nil, err
		}
		next = next.Add(interval)
		t0 := time.Now()
		wait, err := s.spawn(ctx, from, tok)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, sent{ch, t0, wait})
	}
	var lat, cpu []time.Duration
	for _, m := range all {
		c, err := m.wait()
		if err != nil {
			return nil, nil, err
		}
		cpu = append(cpu, c)
		at, ok, err := s.w.await(ctx, m.ch)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			lat = append(lat, at.Sub(m.t0))
		}
	}
	return lat, cpu, nil
}

// throughput runs senders concurrent sender processes, each sending each
// messages back to back, and waits for every line.
func (s *side) throughput(ctx context.Context, round, senders, each int) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	var chans []<-chan time.Time
	for w := range senders {
		from := "T" + strconv.Itoa(w)
		for i := range each {
			chans = append(chans, s.w.expect(token("through", from, round*each+i)))
		}
	}
	// spawn counts sends per sender in s.sent, which is not safe for
	// concurrent use: count them here, up front.
	if s.sent == nil {
		s.sent = map[string]int{}
	}
	start := time.Now()
	for w := range senders {
		from := "T" + strconv.Itoa(w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				text := token("through", from, round*each+i)
				argv := s.cmd(from, text)
				cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
				start := time.Now()
				out, err := cmd.CombinedOutput()
				s.record(text, start, time.Now())
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s sender: %v: %s", s.name, err, bytes.TrimSpace(out))
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	s.sendTime += time.Since(start)
	s.sendCount += senders * each
	for w := range senders {
		s.sent["T"+strconv.Itoa(w)] += each
	}
	if firstErr != nil {
		return firstErr
	}
	for _, ch := range chans {
		if _, _, err := s.w.await(ctx, ch); err != nil {
			return err
		}
	}
	return nil
}

// await waits for a message's line: ok false when it did not come within
// arrivalTimeout (the message counts as lost); an error when the run
// cannot go on (interrupted, or the watcher process ended).
func (w *watcher) await(ctx context.Context, ch <-chan time.Time) (time.Time, bool, error) {
	t := time.NewTimer(arrivalTimeout)
	defer t.Stop()
	select {
	case at := <-ch:
		return at, true, nil
	case <-t.C:
		return time.Time{}, false, nil
	case <-w.done:
		select {
		case at := <-ch: // its last line
			return at, true, nil
		default:
		}
		return time.Time{}, false, fmt.Errorf("the watcher process ended: %s", w.lastWords())
	case <-ctx.Done():
		return time.Time{}, false, ctx.Err()
	}
}

// finish turns the samples into figures and checks the delivery.
func (s *side) finish(o CLIOptions) {
	r := s.res
	r.Idle = latency(s.idle, o.IdleGap)
	r.Stream = latency(s.streamLat, o.Interval)
	slices.Sort(s.cpu)
	if len(s.cpu) > 0 {
		var sum time.Duration
		for _, c := range s.cpu {
			sum += c
		}
		r.CPUPerSendMs = ms(sum) / float64(len(s.cpu))
		r.CPUPerSendP50Ms = ms(pct(s.cpu, 50))
	}
	if s.sendTime > 0 {
		r.ThroughputPerSec = float64(s.sendCount) / s.sendTime.Seconds()
	}
	r.Lost, r.Duplicated, r.Reordered, r.Sent = s.w.check(s.sent, s.spans)
}

func latency(lat []time.Duration, interval time.Duration) Latency {
	slices.Sort(lat)
	return Latency{Messages: len(lat), IntervalMs: ms(interval), P50Ms: ms(pct(lat, 50)), P99Ms: ms(pct(lat, 99)), MaxMs: ms(pct(lat, 100))}
}

// watcher is a watcher process whose stdout lines are messages, one JSON
// object each with "from" and "text" (parley watch --json, floor watch).
type watcher struct {
	cmd   *exec.Cmd
	ready chan struct{}
	done  chan struct{}

	mu      sync.Mutex
	waiting map[string]chan time.Time
	seen    map[string]int      // text → times seen
	order   map[string][]string // "kind sender" → message texts in arrival order
	stderr  *lockedBuffer
	wait    sync.Once // cmd.Wait, once: by stop or by lastWords
}

// lockedBuffer is the watcher's stderr, written by exec's copying
// goroutine and read when the watcher ends.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (w *watcher) stderrText() string {
	w.stderr.mu.Lock()
	defer w.stderr.mu.Unlock()
	return w.stderr.b.String()
}

// lastWords is what the watcher wrote to stderr before it ended: its
// stdout is closed (done), and waiting for the process lets exec's
// copying goroutine finish what it was still writing (on a busy machine
// stdout's end can be read first). A process that closed its stdout and
// lives on is waited for no more than lastWordsWait.
func (w *watcher) lastWords() string {
	exited := make(chan struct{})
	go func() {
		w.wait.Do(func() { _ = w.cmd.Wait() })
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(lastWordsWait):
	}
	return strings.TrimSpace(w.stderrText())
}

// lastWordsWait bounds how long lastWords waits for the watcher to exit.
const lastWordsWait = 5 * time.Second

// startWatcher starts a watcher process; saysReady: it prints "ready"
// once armed (the floor's), else it is ready at once (parley's watch finds
// what was sent before it armed by its first scan).
func startWatcher(ctx context.Context, saysReady bool, argv0 string, args ...string) (*watcher, error) {
	cmd := exec.Command(argv0, args...)
	w := &watcher{cmd: cmd, ready: make(chan struct{}), done: make(chan struct{}),
		waiting: map[string]chan time.Time{}, seen: map[string]int{}, order: map[string][]string{}, stderr: &lockedBuffer{}}
	cmd.Stderr = w.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if !saysReady {
		close(w.ready)
	}
	go w.read(out, saysReady)
	select {
	case <-w.ready:
		return w, nil
	case <-w.done:
		return nil, fmt.Errorf("%s ended: %s", argv0, w.lastWords())
	case <-time.After(30 * time.Second):
		w.stop()
		return nil, errors.New("the floor's watcher did not start")
	case <-ctx.Done():
		w.stop()
		return nil, ctx.Err()
	}
}

func (w *watcher) read(out io.Reader, saysReady bool) {
	defer close(w.done)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 2<<20)
	for sc.Scan() {
		at := time.Now()
		line := sc.Bytes()
		if saysReady && string(line) == "ready" {
			close(w.ready)
			saysReady = false
			continue
		}
		var m struct{ From, Text string }
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		w.mu.Lock()
		w.seen[m.Text]++
		if f := strings.Fields(m.Text); len(f) == 3 {
			w.order[f[0]+" "+f[1]] = append(w.order[f[0]+" "+f[1]], m.Text)
		}
		if ch, ok := w.waiting[m.Text]; ok {
			ch <- at
			delete(w.waiting, m.Text)
		}
		w.mu.Unlock()
	}
}

// expect registers a message text about to be sent; the channel receives
// the time its line arrives.
func (w *watcher) expect(text string) <-chan time.Time {
	ch := make(chan time.Time, 1)
	w.mu.Lock()
	w.waiting[text] = ch
	w.mu.Unlock()
	return ch
}

// check counts, over what was sent (per sender name, how many), the
// messages never seen, those seen more than once, and the pairs of one
// sender's messages seen in the opposite order to their sends. Only sends
// that did not overlap have an order: the first sender process had exited
// before the second was spawned (spans).
func (w *watcher) check(sent map[string]int, spans map[string]span) (lost, dup, reordered, total int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for text, n := range w.seen {
		if n > 1 && !strings.HasPrefix(text, "warmup ") {
			dup += n - 1
		}
	}
	for key, texts := range w.order {
		if strings.HasPrefix(key, "warmup ") {
			continue
		}
		for i := range texts {
			for j := i + 1; j < len(texts); j++ {
				// texts[i] arrived first: wrong if texts[j]'s sender
				// had exited before texts[i]'s was spawned.
				a, b := spans[texts[i]], spans[texts[j]]
				if !a.start.IsZero() && !b.end.IsZero() && b.end.Before(a.start) {
					reordered++
				}
			}
		}
	}
	for text := range w.waiting {
		if !strings.HasPrefix(text, "warmup ") {
			lost++
		}
	}
	for from, n := range sent {
		if from != "Warm" {
			total += n
		}
	}
	return lost, dup, reordered, total
}

// stop ends the watcher: SIGTERM first (parley's watch unregisters), then
// a kill. Not SIGINT: a bench started with SIGINT ignored (a background
// job of a script) starts its processes ignoring it too.
func (w *watcher) stop() {
	if w.cmd.Process == nil {
		return
	}
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
		_ = w.cmd.Process.Kill()
		<-w.done
	}
	w.wait.Do(func() { _ = w.cmd.Wait() })
}

package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// DebateOptions configures RunDebate. Zero counts take the defaults of
// DefaultDebateOptions.
type DebateOptions struct {
	Sequential int // debates run one after another for the per-turn figures
	Concurrent int // debates run at once
	Rounds     int // rounds per debate (2 turns each)

	// Backends are the messenger backends of the agent-process runs: on
	// each, Concurrent debates at once, spoken by AgentPairs pairs of
	// "parley agent run" processes (Parley). None: no such run.
	Backends   []Backend
	AgentPairs int
	Parley     string   // the parley binary the agent processes run; "": this one
	Env        []string // added to the agent processes' environment
	Dir        string   // directory the runs are kept in; "": a temporary one, removed after
}

// DefaultDebateOptions are the sizes "parley bench debate" uses by default.
var DefaultDebateOptions = DebateOptions{Sequential: 200, Concurrent: 1000, Rounds: 4, AgentPairs: 4}

// RunDebate measures the coordinator's overhead per turn with agents that
// answer instantly (in this process, over the memory and file transports),
// many concurrent debates run to completion, and, on each of o.Backends,
// concurrent debates spoken by agent processes. It hands each figure to
// report as it is measured and stops at report's first error.
//
// Without o.Parley the agent processes run this process's executable. A
// NATS server that does not answer is jetstream.ErrUnavailable, saying
// how to start one.
func RunDebate(ctx context.Context, o DebateOptions, report func(*DebateResult) error) error {
	return withHint(runDebate(ctx, o, report))
}

func runDebate(ctx context.Context, o DebateOptions, report func(*DebateResult) error) error {
	var err error
	if o.Parley, err = parley(o.Parley); err != nil {
		return err
	}
	d := DefaultDebateOptions
	for _, v := range []struct {
		p   *int
		def int
	}{{&o.Sequential, d.Sequential}, {&o.Concurrent, d.Concurrent}, {&o.Rounds, d.Rounds}, {&o.AgentPairs, d.AgentPairs}} {
		if *v.p <= 0 {
			*v.p = v.def
		}
	}
	for _, b := range o.Backends {
		if err := b.Check(); err != nil {
			return err
		}
		if b.Name == BackendNATS {
			// Before anything runs: a server that is not there fails at
			// once, not after the other figures and a connect's retries.
			if _, err := serverVersion(b.url()); err != nil {
				return err
			}
		}
	}
	for _, sc := range debateBenchScenarios() {
		res, err := debateBenchTurns(ctx, sc, o.Sequential, o.Rounds)
		if err != nil {
			return fmt.Errorf("bench debate %s: %w", sc.name, err)
		}
		if err := report(&res); err != nil {
			return err
		}
	}
	for _, sc := range debateBenchScenarios() {
		if !sc.concurrent {
			continue
		}
		res, err := debateBenchConcurrent(ctx, sc, o.Concurrent, o.Rounds)
		if err != nil {
			return fmt.Errorf("bench debate %s: %w", sc.name, err)
		}
		if err := report(&res); err != nil {
			return err
		}
	}
	if len(o.Backends) == 0 {
		return nil
	}
	// The runs go where --dir says, kept there to be looked at (unlike
	// the scratch of a measurement, which scratch removes).
	dir, cleanup := o.Dir, func() {}
	if dir == "" {
		dir, cleanup, err = scratch("", "parley-bench-debate-")
	} else {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return err
	}
	defer cleanup()
	for _, b := range o.Backends {
		res, err := debateBenchProcesses(ctx, o, b, filepath.Join(dir, b.Name))
		if err != nil {
			return fmt.Errorf("bench debate processes_%s: %w", b.Name, err)
		}
		if err := report(res); err != nil {
			return err
		}
	}
	return nil
}

// DebateResult is one figure of RunDebate.
type DebateResult struct {
	Bench   string  `json:"bench"`
	Name    string  `json:"name"`
	Setup   string  `json:"setup"`
	Debates int     `json:"debates"`
	Turns   int     `json:"turns"`
	Seconds float64 `json:"seconds"`
	PerTurn float64 `json:"us_per_turn,omitempty"`
	// Amortized is wall time per turn including opening and closing each
	// debate (session and verdict files, the inbox, the filing step).
	Amortized float64 `json:"us_per_turn_amortized,omitempty"`
	// Fsync is the mean time of one 600-byte append and fsync to a file
	// beside the transcripts, measured just before: the disk's floor for a
	// durable turn.
	Fsync    float64 `json:"fsync_us,omitempty"`
	P50      float64 `json:"p50_us,omitempty"`
	P99      float64 `json:"p99_us,omitempty"`
	Complete int     `json:"completed,omitempty"`
	// The agent-process runs: the backend, how many agent processes,
	// completed debates per second, a turn's latency from its request
	// event to its recorded turn (p50, p99), and the CPU time of this
	// process (the coordinators; with an embedded server, the server too)
	// and of the agent processes, with their sum per turn.
	Backend        string  `json:"backend,omitempty"`
	AgentProcesses int     `json:"agent_processes,omitempty"`
	DebatesPerSec  float64 `json:"debates_per_sec,omitempty"`
	TurnP50Ms      float64 `json:"turn_p50_ms,omitempty"`
	TurnP99Ms      float64 `json:"turn_p99_ms,omitempty"`
	CoordinatorCPU float64 `json:"coordinator_cpu_s,omitempty"`
	AgentsCPU      float64 `json:"agents_cpu_s,omitempty"`
	CPUPerTurn     float64 `json:"cpu_ms_per_turn,omitempty"`
	// Error is the first failure of a debate that did not complete, when
	// others did.
	Error string `json:"error,omitempty"`
	Bar   string `json:"bar"`
	// Pass is nil for a figure reported without a bar.
	Pass *bool `json:"pass,omitempty"`
}

// judge is a bar's result, nil when the figure has no bar.
func judge(has, ok bool) *bool {
	if !has {
		return nil
	}
	return &ok
}

// debateScenario is a transport and journal combination to measure.
type debateScenario struct {
	name, setup string
	bar         string // "" for a figure reported without a bar
	concurrent  bool
	disk        bool // transcripts are fsynced to disk
	env         debateEnv
}

// debateEnv makes a scenario's transport and journals; cleanup undoes it.
type debateEnv func() (tr inbox.Transport, journal func(*debate.DebateSession) (debate.Journal, error), cleanup func(), err error)

func debateBenchScenarios() []debateScenario {
	return []debateScenario{
		{
			name:  "turn_mem",
			setup: "in-memory transport, in-memory journal, agents in-process answering instantly",
			bar:   "≤ 1000 µs per turn (mean)",
			env: func() (inbox.Transport, func(*debate.DebateSession) (debate.Journal, error), func(), error) {
				return inbox.NewMemTransport(), func(*debate.DebateSession) (debate.Journal, error) { return debate.NewMemJournal(), nil }, func() {}, nil
			},
		},
		{
			name:       "turn_mem_transcript",
			setup:      "in-memory transport, fsynced transcripts on disk, agents in-process answering instantly",
			bar:        "≤ 1000 µs per turn (mean)",
			concurrent: true,
			disk:       true,
			env:        onTranscripts(func(string) (inbox.Transport, func(), error) { return inbox.NewMemTransport(), func() {}, nil }),
		},
		{
			name:       "turn_file_transcript",
			setup:      "file transport (durable delivery, fsync) and fsynced transcripts in one root, agents in-process goroutines sharing the transport; end to end, dominated by the transport's fsyncs (request and reply delivered and acknowledged)",
			concurrent: true,
			disk:       true,
			env: onTranscripts(func(root string) (inbox.Transport, func(), error) {
				tr, err := inbox.NewFileTransport(root)
				if err != nil {
					return nil, nil, err
				}
				return tr, func() { tr.Close() }, nil
			}),
		},
	}
}

// onTranscripts is the env of a scenario whose journals are fsynced
// transcripts in a new temporary root, and whose transport newTransport
// makes on that root. Cleanup closes the transport (with closeTr), then
// the transcripts, and removes the root.
func onTranscripts(newTransport func(root string) (tr inbox.Transport, closeTr func(), err error)) debateEnv {
	return func() (inbox.Transport, func(*debate.DebateSession) (debate.Journal, error), func(), error) {
		dir, err := os.MkdirTemp("", "parley-bench-")
		if err != nil {
			return nil, nil, nil, err
		}
		st, err := transcripts.OpenStore(dir, nil)
		if err != nil {
			os.RemoveAll(dir)
			return nil, nil, nil, err
		}
		tr, closeTr, err := newTransport(dir)
		if err != nil {
			st.Close()
			os.RemoveAll(dir)
			return nil, nil, nil, err
		}
		journal := func(s *debate.DebateSession) (debate.Journal, error) { return st.Create(context.Background(), s) }
		return tr, journal, func() { closeTr(); st.Close(); os.RemoveAll(dir) }, nil
	}
}

// debateBenchResponder answers at once with a new position every round, so
// that a debate runs until its round budget is spent.
var debateBenchResponder = agent.ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
	t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: fmt.Sprintf("%s position %d", req.Role, req.Round),
		ConfidenceChange: -1, Tokens: 50, Text: "An argument of a realistic length: a sentence or two, citing nothing in particular."}
	if req.Role == debate.RoleAttacker {
		t.CounterTo = req.Position
	}
	return &agent.Reply{Turn: t}, nil
})

// debateBenchAgents runs pairs of instant agents on tr until stop is called.
func debateBenchAgents(ctx context.Context, tr inbox.Transport, pairs int) (stop func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	stop = func() { cancel(); wg.Wait() }
	for i := 0; i < pairs; i++ {
		for _, p := range []debate.Participant{debateBenchAttacker(i), debateBenchDefender(i)} {
			ready := make(chan struct{})
			errc := make(chan error, 1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				errc <- (&agent.Runner{Name: p.Name, Transport: tr, Responder: debateBenchResponder, Ready: func() { close(ready) }}).Run(ctx)
			}()
			select {
			case <-ready:
			case err := <-errc:
				stop()
				return nil, err
			}
		}
	}
	return stop, nil
}

func debateBenchAttacker(i int) debate.Participant {
	return debate.Participant{Name: fmt.Sprintf("BenchCritic%d", i), Role: debate.RoleAttacker}
}
func debateBenchDefender(i int) debate.Participant {
	return debate.Participant{Name: fmt.Sprintf("BenchProposer%d", i), Role: debate.RoleDefender}
}

// debateBenchSession is debate n of a run, spoken by agent pair n%pairs.
func debateBenchSession(n, pairs, rounds int) *debate.DebateSession {
	return benchSession(n, rounds, 0, debateBenchAttacker(n%pairs), debateBenchDefender(n%pairs))
}

// benchSession is debate n of a run whose ids are offset by base (0, or a
// random base that keeps the ids of runs on one NATS server apart),
// spoken by attacker and defender.
func benchSession(n, rounds int, base uint32, attacker, defender debate.Participant) *debate.DebateSession {
	// Ids (and so coordinator names) unique within a run: the suffix spells
	// base+n in 30 bits.
	const digits = "abcdefghijklmnopqrstuvwxyz234567"
	var suffix [6]byte
	for i, m := 5, (base+uint32(n))&(1<<30-1); i >= 0; i, m = i-1, m/32 {
		suffix[i] = digits[m%32]
	}
	id := fmt.Sprintf("%s-verify-bench-%d-%s", time.Now().UTC().Format("20060102"), n, suffix[:])
	return &debate.DebateSession{
		ID: id, Topic: fmt.Sprintf("bench %d", n), Layer: debate.LayerVerify, Created: inbox.Now(),
		Participants: []debate.Participant{attacker, defender},
		Budget:       debate.ConsensusBudget{MaxRounds: rounds, MaxTokens: 1 << 30, MaxTokensPerRound: 2000, MaxWallClockMs: 600000, ConvergenceRounds: 1},
		Coordinator:  debate.CoordinatorName(id),
	}
}

// debateBenchFiler files nothing: the bench measures the debate, not filing.
type debateBenchFiler struct{}

func (debateBenchFiler) File(context.Context, *debate.Outcome) (string, error) { return "", nil }

func debateBenchRun(ctx context.Context, tr inbox.Transport, j debate.Journal, s *debate.DebateSession, progress func(debate.Progress)) (*debate.Outcome, error) {
	defer j.Close()
	o, err := (&debate.Coordinator{Messenger: tr, Journal: j, Filer: debateBenchFiler{}, Progress: progress}).Start(ctx, s)
	if err != nil {
		return nil, err
	}
	if o.Verdict != debate.BudgetExhausted || len(o.Turns) != 2*s.Budget.MaxRounds {
		return nil, fmt.Errorf("debate %s ended %s after %d turns, expected %d turns", s.ID, o.Verdict, len(o.Turns), 2*s.Budget.MaxRounds)
	}
	return o, nil
}

// debateBenchTurns runs n debates one after another and measures the time per
// turn: overall (wall time / turns) and per request→turn.
func debateBenchTurns(ctx context.Context, sc debateScenario, n, rounds int) (DebateResult, error) {
	tr, journal, cleanup, err := sc.env()
	if err != nil {
		return DebateResult{}, err
	}
	defer cleanup()
	stop, err := debateBenchAgents(ctx, tr, 1)
	if err != nil {
		return DebateResult{}, err
	}
	defer stop()
	var lat []time.Duration
	var sent time.Time
	progress := func(p debate.Progress) {
		switch p.Event.Kind {
		case debate.EventRequest:
			sent = time.Now()
		case debate.EventTurn:
			lat = append(lat, time.Since(sent))
		}
	}
	// One debate to warm up.
	if _, err := debateBenchJournal(ctx, tr, journal, debateBenchSession(0, 1, rounds), nil); err != nil {
		return DebateResult{}, err
	}
	runtime.GC()
	turns := 0
	start := time.Now()
	for i := 1; i <= n; i++ {
		// Debate ids must differ: request ids derive from them, and agents
		// drop a request id they have already seen.
		o, err := debateBenchJournal(ctx, tr, journal, debateBenchSession(i, 1, rounds), progress)
		if err != nil {
			return DebateResult{}, err
		}
		turns += len(o.Turns)
	}
	el := time.Since(start)
	var fsync float64
	if sc.disk {
		if fsync, err = debateBenchFsync(); err != nil {
			return DebateResult{}, err
		}
	}
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	per := us(sum) / float64(len(lat))
	slices.Sort(lat)
	return DebateResult{
		Bench: "debate", Name: sc.name, Setup: sc.setup + "; a turn is timed from its request event to its recorded turn event (fsynced when on disk)",
		Debates: n, Turns: turns, Seconds: el.Seconds(),
		PerTurn: per, Fsync: fsync, Amortized: float64(el.Microseconds()) / float64(turns), P50: us(lat[len(lat)/2]), P99: us(lat[len(lat)*99/100]),
		Bar: sc.bar, Pass: judge(sc.bar != "", per <= 1000),
	}, nil
}

func debateBenchJournal(ctx context.Context, tr inbox.Transport, journal func(*debate.DebateSession) (debate.Journal, error), s *debate.DebateSession, progress func(debate.Progress)) (*debate.Outcome, error) {
	j, err := journal(s)
	if err != nil {
		return nil, err
	}
	return debateBenchRun(ctx, tr, j, s, progress)
}

// debateBenchConcurrent runs n debates at once, each its own coordinator, spoken
// by a pool of agent pairs, and counts those that complete.
func debateBenchConcurrent(ctx context.Context, sc debateScenario, n, rounds int) (DebateResult, error) {
	tr, journal, cleanup, err := sc.env()
	if err != nil {
		return DebateResult{}, err
	}
	defer cleanup()
	pairs := min(n, 50)
	stop, err := debateBenchAgents(ctx, tr, pairs)
	if err != nil {
		return DebateResult{}, err
	}
	defer stop()
	start := time.Now()
	done, turns, _, firstErr := concurrentDebates(n, func(i int) (*debate.Outcome, []time.Duration, error) {
		o, err := debateBenchJournal(ctx, tr, journal, debateBenchSession(i, pairs, rounds), nil)
		return o, nil, err
	})
	el := time.Since(start)
	res := DebateResult{
		Bench: "debate", Name: "concurrent_" + sc.name[len("turn_"):], Setup: fmt.Sprintf("%s; %d coordinators at once, %d agent pairs", sc.setup, n, pairs),
		Debates: n, Turns: turns, Seconds: el.Seconds(), Complete: done, Bar: fmt.Sprintf("%d debates complete", n), Pass: judge(true, done == n),
	}
	if firstErr != nil && done == 0 {
		return res, firstErr
	}
	return res, nil
}

// debateBenchFsync measures the mean time of a 600-byte append and fsync in the
// directory the transcripts go to.
func debateBenchFsync() (float64, error) {
	f, err := os.CreateTemp("", "parley-bench-fsync-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	line := make([]byte, 600)
	line[599] = '\n'
	const n = 200
	start := time.Now()
	for i := 0; i < n; i++ {
		if _, err := f.Write(line); err != nil {
			return 0, err
		}
		if err := f.Sync(); err != nil {
			return 0, err
		}
	}
	return us(time.Since(start)) / n, nil
}

// concurrentDebates runs n debates at once, run(i) being the i-th, and
// sums what the finished ones report: how many finished, their turns and
// their turn latencies; firstErr is the first failure, if any.
func concurrentDebates(n int, run func(i int) (*debate.Outcome, []time.Duration, error)) (done, turns int, lat []time.Duration, firstErr error) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, mine, err := run(i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			done++
			turns += len(o.Turns)
			lat = append(lat, mine...)
		}()
	}
	wg.Wait()
	return done, turns, lat, firstErr
}

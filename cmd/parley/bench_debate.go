package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// newBenchDebateCmd is "parley bench debate": the coordinator's overhead per
// turn with agents that answer instantly, and many concurrent debates run
// to completion (SPEC §11).
func newBenchDebateCmd(a *factory) *cobra.Command {
	var sequential, concurrent, rounds int
	cmd := &cobra.Command{
		Use:   "debate",
		Short: "Coordinator overhead per turn, and concurrent debates to completion",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if sequential < 1 || concurrent < 1 || rounds < 1 {
				return usagef("--debates, --concurrent and --rounds must be positive")
			}
			ctx := cmd.Context()
			for _, sc := range debateBenchScenarios() {
				res, err := debateBenchTurns(ctx, sc, sequential, rounds)
				if err != nil {
					return fmt.Errorf("bench debate %s: %w", sc.name, err)
				}
				if err := a.reportDebateBench(res); err != nil {
					return err
				}
			}
			for _, sc := range debateBenchScenarios() {
				if !sc.concurrent {
					continue
				}
				res, err := debateBenchConcurrent(ctx, sc, concurrent, rounds)
				if err != nil {
					return fmt.Errorf("bench debate %s: %w", sc.name, err)
				}
				if err := a.reportDebateBench(res); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&sequential, "debates", 200, "debates run one after another for the per-turn figure")
	cmd.Flags().IntVar(&concurrent, "concurrent", 1000, "debates run at once")
	cmd.Flags().IntVar(&rounds, "rounds", 4, "rounds per debate (2 turns each)")
	return cmd
}

// debateBenchResult is one figure of "parley bench debate".
type debateBenchResult struct {
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
	Bar      string  `json:"bar"`
	// Pass is nil for a figure reported without a bar.
	Pass *bool `json:"pass,omitempty"`
}

func (a *factory) reportDebateBench(r debateBenchResult) error {
	if a.json {
		return a.emit(r)
	}
	verdict := "(reported)"
	switch {
	case r.Pass == nil:
	case *r.Pass:
		verdict = "ok"
	default:
		verdict = "FAIL"
	}
	if r.Complete > 0 || r.PerTurn == 0 {
		a.printf("debate %-22s %d/%d debates complete, %d turns in %.2f s (%.0f debates/s)  bar: %s  %s\n    %s\n",
			r.Name, r.Complete, r.Debates, r.Turns, r.Seconds, float64(r.Complete)/r.Seconds, r.Bar, verdict, r.Setup)
		return nil
	}
	if r.Bar == "" {
		r.Bar = "none, an end-to-end figure"
	}
	fsync := ""
	if r.Fsync > 0 {
		fsync = fmt.Sprintf("; the disk's append+fsync alone: %.0f µs", r.Fsync)
	}
	a.printf("debate %-20s %.0f µs/turn (request→turn: p50 %.0f µs, p99 %.0f µs; %.0f µs/turn with each debate's open and close%s), %d turns  bar: %s  %s\n    %s\n",
		r.Name, r.PerTurn, r.P50, r.P99, r.Amortized, fsync, r.Turns, r.Bar, verdict, r.Setup)
	return nil
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
	// Ids (and so coordinator names) unique within a run: the suffix spells n.
	const digits = "abcdefghijklmnopqrstuvwxyz234567"
	var suffix [6]byte
	for i, m := 5, n; i >= 0; i, m = i-1, m/32 {
		suffix[i] = digits[m%32]
	}
	id := fmt.Sprintf("%s-verify-bench-%d-%s", time.Now().UTC().Format("20060102"), n, suffix[:])
	return &debate.DebateSession{
		ID: id, Topic: fmt.Sprintf("bench %d", n), Layer: debate.LayerVerify, Created: inbox.Now(),
		Participants: []debate.Participant{debateBenchAttacker(n % pairs), debateBenchDefender(n % pairs)},
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
func debateBenchTurns(ctx context.Context, sc debateScenario, n, rounds int) (debateBenchResult, error) {
	tr, journal, cleanup, err := sc.env()
	if err != nil {
		return debateBenchResult{}, err
	}
	defer cleanup()
	stop, err := debateBenchAgents(ctx, tr, 1)
	if err != nil {
		return debateBenchResult{}, err
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
		return debateBenchResult{}, err
	}
	runtime.GC()
	turns := 0
	start := time.Now()
	for i := 1; i <= n; i++ {
		// Debate ids must differ: request ids derive from them, and agents
		// drop a request id they have already seen.
		o, err := debateBenchJournal(ctx, tr, journal, debateBenchSession(i, 1, rounds), progress)
		if err != nil {
			return debateBenchResult{}, err
		}
		turns += len(o.Turns)
	}
	el := time.Since(start)
	var fsync float64
	if sc.disk {
		if fsync, err = debateBenchFsync(); err != nil {
			return debateBenchResult{}, err
		}
	}
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	per := us(sum) / float64(len(lat))
	slices.Sort(lat)
	return debateBenchResult{
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
func debateBenchConcurrent(ctx context.Context, sc debateScenario, n, rounds int) (debateBenchResult, error) {
	tr, journal, cleanup, err := sc.env()
	if err != nil {
		return debateBenchResult{}, err
	}
	defer cleanup()
	pairs := min(n, 50)
	stop, err := debateBenchAgents(ctx, tr, pairs)
	if err != nil {
		return debateBenchResult{}, err
	}
	defer stop()
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, turns := 0, 0
	var firstErr error
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := debateBenchJournal(ctx, tr, journal, debateBenchSession(i, pairs, rounds), nil)
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
		}()
	}
	wg.Wait()
	el := time.Since(start)
	res := debateBenchResult{
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

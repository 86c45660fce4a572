package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// MaxContextBytes bounds one --context file.
const maxContextBytes = 256 << 10

// debateFlags are what "debate run" and "debate start" share.
type debateFlags struct {
	layer, topic, position, scope, workspace string
	agents, context                          []string
	budget                                   budgetFlags
}

func (f *debateFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.layer, "layer", "", "spec, plan or verify (sets the default budget)")
	fl.StringVar(&f.topic, "topic", "", "the question debated")
	fl.StringArrayVar(&f.agents, "agent", nil, "ROLE=SPEC, once per participant in speaking order; SPEC is script:FILE, exec:COMMAND, openai:MODEL or @NAME")
	fl.StringVar(&f.position, "position", "", "the defender's opening position (default: the topic)")
	fl.StringVar(&f.scope, "scope", "", "what the debate covers, in a line")
	fl.StringArrayVar(&f.context, "context", nil, "a file handed to every turn (repeatable)")
	fl.StringVar(&f.workspace, "workspace", ".", "the directory evidence paths are checked under")
	f.budget.add(cmd)
}

// session builds and validates the session the flags describe. It does not
// touch the disk but to read the --context files.
func (f *debateFlags) session(cmd *cobra.Command, a *factory) (*debate.DebateSession, error) {
	if f.layer == "" || strings.TrimSpace(f.topic) == "" || len(f.agents) == 0 {
		return nil, usagef("--layer, --topic and --agent are required (see parley debate run --help)")
	}
	l, err := debate.ParseLayer(f.layer)
	if err != nil {
		return nil, usagef("--layer: %v", err)
	}
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	b, err := f.budget.apply(cmd, cfg.Budget(l))
	if err != nil {
		return nil, err
	}
	id := debate.NewID(time.Now(), l, f.topic)
	s := &debate.DebateSession{
		ID: id, Topic: strings.TrimSpace(f.topic), Layer: l, Scope: f.scope, Position: f.position,
		Budget: b, Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
	}
	attackers, defenders := 0, 0
	for _, arg := range f.agents {
		roleS, specS, ok := strings.Cut(arg, "=")
		if !ok {
			return nil, usagef("--agent %q: use ROLE=SPEC, e.g. attacker=script:critic.json", arg)
		}
		role, err := debate.ParseRole(roleS)
		if err != nil {
			return nil, usagef("--agent %q: %v", arg, err)
		}
		sp, err := agent.ParseSpec(specS)
		if err != nil {
			return nil, usagef("--agent %q: %v", arg, err)
		}
		name := sp.Arg
		switch {
		case sp.Kind == agent.KindRegistered:
		case !adapters().Has(sp.Kind):
			if _, err := adapters().New(sp); err != nil {
				return nil, usagef("--agent %q: %v", arg, err)
			}
		default:
			n := 0
			if role == debate.RoleAttacker {
				attackers++
				n = attackers
			} else {
				defenders++
				n = defenders
			}
			name = participantName(id, role, n)
		}
		if sp.Kind == agent.KindScript {
			// The agent process may run elsewhere: give it an absolute path,
			// and fail now rather than in the middle of the debate.
			abs, err := filepath.Abs(sp.Arg)
			if err != nil {
				return nil, err
			}
			if _, err := agent.LoadScript(abs); err != nil {
				return nil, fileError(fmt.Sprintf("--agent %q", arg), err)
			}
			sp.Arg = abs
		}
		s.Participants = append(s.Participants, debate.Participant{Name: name, Role: role, Agent: sp.String()})
	}
	for _, path := range f.context {
		text, err := readContext(path)
		if err != nil {
			return nil, fileError("--context", err)
		}
		s.Context = append(s.Context, debate.ContextItem{Kind: "file", Ref: path, Text: text})
	}
	ws, err := filepath.Abs(f.workspace)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(ws); err != nil || !st.IsDir() {
		return nil, notFoundf("--workspace %s is not a directory", f.workspace)
	}
	s.Workspace = ws
	if err := s.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return s, nil
}

func readContext(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxContextBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxContextBytes {
		return "", fmt.Errorf("%s is larger than %d bytes", path, maxContextBytes)
	}
	return string(b), nil
}

func newDebateRunCmd(a *factory) *cobra.Command {
	var (
		f                  debateFlags
		gateFile, gateMode string
	)
	cmd := &cobra.Command{
		Use:   "run --layer L --topic T --agent ROLE=SPEC... [budget flags]",
		Short: "Run a debate to its verdict (exit 0 on CONSENSUS_REACHED, 4 on UNAVAILABLE, 3 otherwise)",
		Long: "Starts the agents it needs as separate processes (script:FILE, exec:COMMAND)\n" +
			"or uses running ones (@NAME), runs the debate, files the verdict in the vault\n" +
			"and prints it. Attackers speak in the order given, then the defender.\n" +
			"With --json: one JSON line per event, then a closing \"verdict\" line.",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.session(cmd, a)
			if err != nil {
				return err
			}
			if gateFile != "" {
				skip, err := a.gateDebate(cmd.Context(), s, gateFile, gateMode)
				if err != nil || skip {
					return err
				}
			}
			return a.runDebate(cmd.Context(), s, false)
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&gateFile, "gate", "", "a self-critique (FILE or -): run the gate first and debate only when it says so")
	cmd.Flags().StringVar(&gateMode, "gate-mode", "model", "the gate's mode with --gate: model or rules")
	return cmd
}

// runDebate runs (resume false) or resumes a debate in this process and
// prints its verdict: nil for CONSENSUS_REACHED, exit 3 for UNAVAILABLE (as for every other verdict but CONSENSUS_REACHED),
// exit 3 otherwise.
func (a *factory) runDebate(ctx context.Context, s *debate.DebateSession, resume bool) error {
	o, err := a.execDebate(ctx, s, resume)
	if err != nil {
		return err
	}
	return a.printVerdict(o)
}

// execDebate runs or resumes a debate: opens the messenger and the
// transcript, starts the agents the debate owns, runs the coordinator with
// a progress view, and files the verdict.
func (a *factory) execDebate(ctx context.Context, s *debate.DebateSession, resume bool) (*debate.Outcome, error) {
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	m, err := a.openMessenger()
	if err != nil {
		return nil, err
	}
	defer m.Close()
	store, err := a.writeStore()
	if err != nil {
		return nil, err
	}
	defer store.Close()
	var log *transcripts.Log
	if resume {
		log, err = store.Open(ctx, s.ID)
	} else {
		log, err = store.Create(ctx, s)
	}
	if err != nil {
		return nil, a.debateError(err, s.ID)
	}
	defer log.Close()
	// A debate that has its verdict only needs filing: no agents. A resumed
	// debate is the one its transcript records (the source of truth, hash
	// chained), whatever session.json says now.
	closed := false
	var procs *agentProcs
	if st, err := debate.Replay(log.Events()); err == nil {
		closed = st.Verdict != nil
		if resume && !sameSession(st.Session, s) {
			a.warnf("%s differs from the session the transcript of %s records; resuming the recorded one",
				transcripts.Path(s.ID, transcripts.SessionFile), s.ID)
		}
		s = st.Session
	}
	if !closed {
		for _, p := range s.Participants {
			if strings.HasPrefix(p.Agent, "@") {
				if alive, err := m.reg.Alive(ctx, p.Name); err != nil || !alive {
					return nil, fmt.Errorf("agent %s is not running (see parley agents list, or start it with parley agent run --name %s …)", p.Name, p.Name)
				}
			}
		}
		var err error
		procs, err = a.startAgents(ctx, m, store, s)
		if err != nil {
			return nil, err
		}
		defer procs.stop()
	}
	filer, closeFiler, err := a.openFiler(store)
	if err != nil {
		return nil, err
	}
	defer closeFiler()
	view := a.newProgress()
	c := &debate.Coordinator{
		Messenger: m.tr, Journal: log, Filer: filer, Presence: presence{m.reg, procs}, Enroller: a.enroller(m.reg, s.ID),
		Pages: vaultPages{filer.v}, Progress: view.Event, Logger: a.logger(),
	}
	var o *debate.Outcome
	if resume && len(log.Events()) > 0 {
		o, err = c.Resume(ctx)
		if err == nil && o.Record == "" {
			// A debate sealed earlier: its record is named in verdict.json.
			if v, verr := store.Verdict(s.ID); verr == nil {
				o.Record = v.Record
			}
		}
	} else {
		o, err = c.Start(ctx, s)
	}
	view.Close()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("%w; the debate can go on with: %s", errInterrupted, a.cmdLine("debate", "resume", s.ID))
		}
		return nil, fmt.Errorf("debate %s stopped: %w (%s continues it)", s.ID, err, a.cmdLine("debate", "resume", s.ID))
	}
	return o, nil
}

// debateError turns the transcripts' errors into one line that says what to do.
func (a *factory) debateError(err error, id string) error {
	var te *transcripts.TamperError
	switch {
	case errors.Is(err, transcripts.ErrBusy):
		return fmt.Errorf("debate %s is running in another process (follow it with %s)", id, a.cmdLine("debate", "watch", id))
	case errors.Is(err, transcripts.ErrNotFound):
		return notFoundf("no debate %s (%s lists them)", id, a.cmdLine("debate", "list"))
	case errors.As(err, &te):
		return blockedError{msg: fmt.Sprintf("%v; it cannot be resumed (%s)", err, a.cmdLine("transcripts", "verify", id))}
	}
	return err
}

// sameSession reports whether two sessions encode alike.
func sameSession(a, b *debate.DebateSession) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

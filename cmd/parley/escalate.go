package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/transcripts"
)

// probeTimeout bounds the check that an openai endpoint answers before a
// debate is started with it.
const probeTimeout = 5 * time.Second

func newEscalateCmd(a *factory) *cobra.Command {
	var (
		telemetry, workspace     string
		follow, retryUnavailable bool
	)
	cmd := &cobra.Command{
		Use:   "escalate --telemetry FILE [--follow] [--workspace DIR]",
		Short: "Decide proceed or hold for a verifier's DRIFT verdicts (one JSON line per record)",
		Long: "Reads mini-verifier telemetry (JSON Lines) and applies the cascade: only DRIFT is\n" +
			"escalated; L priority holds without a debate; M (or none) goes through the gate\n" +
			"and, if it says so, a verify-layer debate between config.json's escalation.defender\n" +
			"(the claims hold) and escalation.attacker (the verifier's reasons); H and BLOCKER\n" +
			"are skipped. proceed only when the debate reaches CONSENSUS_REACHED on the claims;\n" +
			"everything else is hold with its reason. Prints one JSON line per record decided,\n" +
			"also appended to <root>/escalations.jsonl; a record already there is not decided\n" +
			"again. Malformed lines are reported on stderr with their number and skipped.\n" +
			"--follow keeps reading lines appended to FILE until interrupted.\n" +
			"--retry-unavailable decides again, in a new debate, the records held because\n" +
			"their agents could not be reached (reason \"unavailable\").\n\n" +
			"Each line of FILE is one JSON object with task_id (a string or an integer),\n" +
			"timestamp (RFC 3339) and verdict (CONFIRMED, DRIFT, HALLUCINATION, SKIP, …), all\n" +
			"required; and, optional: priority (L, M, H or BLOCKER; none counts as M),\n" +
			"confidence (0–1, or \"80%\"), reasons[] (the verifier's doubts, which the attacker\n" +
			"argues), claims[] (what the task claims, which the defender holds), evidence_paths[]\n" +
			"(files under the workspace), latency_ms, model_id, cost_usd, fallback_used. Other\n" +
			"fields are ignored. task_id and timestamp together identify a record.\n\n" +
			"--workspace (default: escalation.workspace of config.json, else the working\n" +
			"directory) is where evidence paths are checked; a relative escalation.workspace\n" +
			"is relative to the root, a relative --workspace to the working directory.",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if telemetry == "" {
				return usagef("--telemetry FILE is required (the mini-verifier's JSONL log)")
			}
			return a.escalate(cmd.Context(), telemetry, workspace, cmd.Flags().Changed("workspace"), follow, retryUnavailable)
		},
	}
	f := cmd.Flags()
	f.StringVar(&telemetry, "telemetry", "", "the verifier's telemetry file (JSON Lines)")
	f.BoolVar(&follow, "follow", false, "keep reading records appended to the file until interrupted")
	f.BoolVar(&retryUnavailable, "retry-unavailable", false, "decide again the records held because their agents could not be reached")
	f.StringVar(&workspace, "workspace", "", "the directory evidence paths are read and checked under (default: config's escalation.workspace, else .)")
	return cmd
}

// escalate runs the cascade over the telemetry file (once, or following it).
func (a *factory) escalate(ctx context.Context, telemetry, workspace string, wsGiven, follow, retryUnavailable bool) error {
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if !follow {
		if st, err := os.Stat(telemetry); err != nil {
			return fileError("--telemetry", err)
		} else if !st.Mode().IsRegular() {
			return notFoundf("--telemetry %s is not a regular file", telemetry)
		}
	}
	ws, err := a.escalationWorkspace(cfg, workspace, wsGiven)
	if err != nil {
		return err
	}
	mode := cfg.Escalation.GateMode
	if mode == "" {
		mode = config.DefaultGateMode
	}
	g, err := a.gate(mode, "")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(a.rootDir(), 0o700); err != nil {
		return fmt.Errorf("create root: %w", err)
	}
	root, err := os.OpenRoot(a.rootDir())
	if err != nil {
		return err
	}
	defer root.Close()
	ledger, err := escalation.OpenLedger(root)
	if errors.Is(err, escalation.ErrBusy) {
		return fmt.Errorf("another parley escalate is running on %s (%s is locked): wait for it, or stop it", a.rootDir(), escalation.LedgerName)
	}
	if err != nil {
		return err
	}
	defer ledger.Close()
	if n := ledger.Bad(); n > 0 {
		a.warnf("%d line(s) of %s do not decode and were ignored", n, filepath.Join(a.rootDir(), escalation.LedgerName))
	}
	gateLog, err := a.gateLogOnce()
	if err != nil {
		return err
	}
	e := &escalation.Escalator{
		Ledger: ledger, Gate: g, Debater: escalationDebater{a: a},
		GateLog:  gateLog,
		Defender: a.rootRelativeSpec(cfg.Escalation.Defender), Attacker: a.rootRelativeSpec(cfg.Escalation.Attacker),
		Workspace: ws, Budget: cfg.Budget(debate.LayerVerify), Logger: a.logger(),
		RetryUnavailable: retryUnavailable,
	}
	out := a.stdout
	sink := escalation.Sink{
		Malformed: func(line int, err error) {
			fmt.Fprintf(a.stderr, "parley: %s:%d: %v (line skipped)\n", telemetry, line, err)
		},
		Decided: func(d *escalation.Decision, line []byte) error {
			_, err := out.Write(line)
			return err
		},
	}
	var st escalation.Stats
	if follow {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		reconcile := escalation.DefaultReconcile
		if ms := cfg.Messenger.ReconcileMs; ms > 0 {
			reconcile = time.Duration(ms) * time.Millisecond
		}
		fmt.Fprintf(a.stderr, "parley: following %s: a line per record decided, as records arrive (Ctrl-C stops)\n", telemetry)
		err = escalation.Follow(ctx, telemetry, escalation.FollowOptions{
			Reconcile: reconcile, Logger: a.logger(),
			Incomplete: func(src escalation.Source, line int) {
				fmt.Fprintf(a.stderr, "parley: %s:%d: a partial last line was given up: the file was rotated or truncated before its newline came\n", src.Path, line)
			},
		}, func(_ escalation.Source, l escalation.Line) error {
			return e.HandleLine(ctx, l, sink, &st)
		})
		if err != nil && ctx.Err() != nil {
			fmt.Fprintf(a.stderr, "parley: interrupted (%v); the next parley escalate takes the record up again\n", err)
			err = nil
		}
	} else {
		var f *os.File
		if f, err = os.Open(telemetry); err != nil {
			return err
		}
		st, err = e.Run(ctx, f, sink)
		f.Close()
	}
	if err != nil {
		if errors.Is(err, escalation.ErrNoAgents) {
			return usagef("%v: a record needs a debate; set escalation.defender and escalation.attacker in %s (see docs/escalation.md)", err, filepath.Join(a.rootDir(), config.FileName))
		}
		return err
	}
	if st.Incomplete {
		fmt.Fprintf(a.stderr, "parley: %s: the last line has no newline and is not a whole record yet; a later run takes it\n", telemetry)
	}
	fmt.Fprintf(a.stderr, "parley: %d record(s): %d decided, %d already escalated, %d malformed line(s) skipped\n", st.Records, st.Decided, st.Already, st.Malformed)
	return nil
}

// escalationWorkspace is where evidence is read: --workspace (relative to
// the working directory), else escalation.workspace (relative to the
// root), else the working directory.
func (a *factory) escalationWorkspace(cfg *config.Config, flag string, given bool) (string, error) {
	ws := "."
	switch {
	case given:
		ws = flag
	case cfg.Escalation.Workspace != "":
		ws = config.Resolve(a.rootDir(), cfg.Escalation.Workspace)
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", notFoundf("the escalation workspace %s is not a directory", ws)
	}
	return abs, nil
}

// rootRelativeSpec makes a relative script:FILE of config.json absolute
// against the root, where config.json is.
func (a *factory) rootRelativeSpec(spec string) string {
	sp, err := agent.ParseSpec(spec)
	if err != nil || sp.Kind != agent.KindScript || filepath.IsAbs(sp.Arg) {
		return spec
	}
	abs, err := filepath.Abs(config.Resolve(a.rootDir(), sp.Arg))
	if err != nil {
		return spec
	}
	sp.Arg = abs
	return sp.String()
}

// escalationDebater runs escalation debates with the machinery of "debate
// run": agent processes, the file messenger, the transcript, the filer.
type escalationDebater struct{ a *factory }

var _ escalation.Debater = escalationDebater{}

func (d escalationDebater) Debate(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error) {
	store, err := d.a.writeStore()
	if err != nil {
		return nil, err
	}
	existing, err := store.Session(s.ID)
	if err != nil && !errors.Is(err, transcripts.ErrNotFound) {
		store.Close()
		return nil, err
	}
	resume := err == nil
	if resume {
		if existing.Topic != s.Topic || debate.PositionHash(existing.OpeningPosition()) != debate.PositionHash(s.OpeningPosition()) {
			store.Close()
			return nil, fmt.Errorf("%w: %s is about %q", escalation.ErrConflict, s.ID, existing.Topic)
		}
		if _, verr := store.Verdict(s.ID); verr == nil {
			// Closed and filed before a crash: its outcome, no debate.
			o, err := store.LoadOutcome(ctx, s.ID)
			store.Close()
			return o, err
		}
		s = existing
	}
	store.Close()
	if err := d.available(ctx, s); err != nil {
		return nil, fmt.Errorf("%w: %v", escalation.ErrUnavailable, err)
	}
	// The debate's own progress is not escalate's output: one JSON line
	// per record is.
	quiet := *d.a
	quiet.stdout, quiet.json = io.Discard, true
	return quiet.execDebate(ctx, s, resume)
}

// available checks, before a debate, that its agents can be had: a
// running agent (@NAME) is alive, an adapter spec makes a responder (its
// script loads, its templates parse), and an openai endpoint answers.
func (d escalationDebater) available(ctx context.Context, s *debate.DebateSession) error {
	ads, err := d.a.agentAdapters()
	if err != nil {
		return err
	}
	var m *messenger
	defer func() {
		if m != nil {
			m.Close()
		}
	}()
	for _, p := range s.Participants {
		sp, err := agent.ParseSpec(p.Agent)
		if err != nil {
			return err
		}
		if sp.Kind == agent.KindRegistered {
			if m == nil {
				if m, err = d.a.openMessenger(); err != nil {
					return err
				}
			}
			if alive, err := m.reg.Alive(ctx, p.Name); err != nil || !alive {
				return fmt.Errorf("the %s %s is not running (%s)", p.Role, p.Name, d.a.cmdLine("agents", "list"))
			}
			continue
		}
		resp, err := ads.New(sp)
		if err != nil {
			return fmt.Errorf("the %s (%s): %v", p.Role, sp, err)
		}
		if pr, ok := resp.(agent.Prober); ok {
			pctx, cancel := context.WithTimeout(ctx, probeTimeout)
			err := pr.Probe(pctx)
			cancel()
			if err != nil {
				return fmt.Errorf("the %s (%s): %v", p.Role, sp, err)
			}
		}
	}
	return nil
}

package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/userfile"
	"github.com/parleyhq/parley/transcripts"
)

// probeTimeout bounds the check that an openai endpoint answers before an
// escalation debate is started with it.
const probeTimeout = 5 * time.Second

// Fields of EscalateOptions, as an *Error names them.
const (
	FieldTelemetry = "telemetry"
	// FieldEscalationWorkspace is the workspace of EscalateOptions or of
	// config.json's escalation section.
	FieldEscalationWorkspace = "escalation workspace"
)

var (
	// ErrEscalateBusy: another escalation holds the root's ledger.
	ErrEscalateBusy = escalation.ErrBusy
	// ErrFollowStream: Follow asked of Records, a stream, which has no
	// file to follow.
	ErrFollowStream = errors.New("a stream cannot be followed")
	// ErrFollowAbsent: the file to follow does not exist (yet); the run
	// waits for it. Told to Warn, not returned.
	ErrFollowAbsent = errors.New("does not exist yet")
)

// EscalateOptions are one escalation run: the telemetry to read and what
// the caller is told as it goes. The callbacks are called on the run's
// goroutine; nil ones are not called.
type EscalateOptions struct {
	// Telemetry is the verifier's telemetry file (JSON Lines).
	Telemetry string
	// Records, when set, is read instead of the file Telemetry, once, line
	// by line as it arrives (a front end's standard input); Telemetry then
	// only names it. It cannot be followed.
	Records io.Reader
	// Workspace is where evidence paths are read and checked: relative to
	// the working directory; "" means config.json's escalation.workspace
	// (relative to the root), else the working directory.
	Workspace string
	// Follow keeps reading lines appended to Telemetry until ctx ends
	// (then the run returns what it did, and no error unless one stopped
	// it first).
	Follow bool
	// RetryUnavailable decides again the records held because their agents
	// could not be reached.
	RetryUnavailable bool

	// Decided is given each decision and its ledger line, before the line
	// is recorded in the ledger; an error (the output's reader gone) stops
	// the run and leaves that record undecided, for the next run to decide
	// and give again (from its debate, when one ran: never a second).
	Decided func(d *escalation.Decision, line []byte) error
	// Already is told of each record already decided (by an earlier run,
	// or earlier in this one) and unchanged since, with its line's number
	// and the decision the ledger holds (without its detail): it is not
	// decided again, and Decided is not called for it.
	Already func(line int, d *escalation.Decision)
	// Malformed is told of each line skipped, with its number.
	Malformed func(line int, err error)
	// Incomplete is told, when following, of a partial last line given up
	// because the file was rotated or truncated before its newline came.
	Incomplete func(path string, line int)
	// Ready is called once the run has checked its settings and begins to
	// read.
	Ready func()
	// Warn is told what the run noticed and went on from (ledger lines
	// that do not decode; a record already escalated whose verdict or
	// priority changed since, an escalation.ErrChanged naming its line).
	Warn func(error)
}

// Escalate applies the cascade to the records of o.Telemetry (see package
// escalation): each decision is appended to <root>/escalations.jsonl and
// given to o.Decided, and a record already there is not decided again.
// Debates run in this process, silently, with config.json's escalation
// agents. Settings that cannot work are *Error of ProblemFile (the
// telemetry file, the workspace) or ProblemInvalid (Follow with Records:
// ErrFollowStream), escalation.ErrNoAgents, or ErrEscalateBusy.
func (a *App) Escalate(ctx context.Context, o EscalateOptions) (escalation.Stats, error) {
	var st escalation.Stats
	if o.Records != nil && o.Follow {
		return st, newError(ProblemInvalid, "follow", ErrFollowStream, "{follow} watches a file for the records appended to it: standard input is read to its end without it")
	}
	cfg, err := a.Config()
	if err != nil {
		return st, err
	}
	in := o.Records
	// A stream (standard input, a pipe) is read once: what it holds is
	// not there for a later run.
	stream := in != nil
	var absent error
	switch {
	case in == nil && !o.Follow:
		f, err := userfile.Open(ctx, o.Telemetry)
		if err != nil {
			return st, refuse(ProblemFile, FieldTelemetry, err)
		}
		defer f.Close()
		_, regular := f.(*os.File)
		in, stream = f, !regular
	case in == nil:
		// --follow tails a file that may not exist yet: what is there
		// must be a regular file to tail; a file that is not there is
		// waited for, which the caller is told (a mistyped path would
		// otherwise wait in silence for ever).
		fi, err := os.Stat(o.Telemetry)
		switch {
		case err == nil && !fi.Mode().IsRegular():
			return st, refuse(ProblemFile, FieldTelemetry, &userfile.Error{Name: o.Telemetry, Mode: fi.Mode().Type()})
		case errors.Is(err, fs.ErrNotExist):
			absent = followAbsent(o.Telemetry)
		}
	}
	ws, err := a.escalationWorkspace(cfg, o.Workspace)
	if err != nil {
		return st, err
	}
	mode := cfg.Escalation.GateMode
	if mode == "" {
		mode = config.DefaultGateMode
	}
	// Loaded now so that a gate that cannot decide stops the run before
	// any record; the model mode loads the root's model again for each
	// record (rootGate).
	g, err := a.LoadGate(ctx, mode, "")
	if err != nil {
		return st, err
	}
	var gate escalation.Gate = g
	if g.Mode() == gating.ModeModel {
		gate = rootGate{a: a, warn: o.Warn}
	}
	if err := os.MkdirAll(a.root, 0o700); err != nil {
		return st, fmt.Errorf("create root: %w", err)
	}
	root, err := os.OpenRoot(a.root)
	if err != nil {
		return st, err
	}
	defer root.Close()
	ledger, err := escalation.OpenLedger(root)
	if err != nil {
		return st, err
	}
	defer ledger.Close()
	if n := ledger.Bad(); n > 0 && o.Warn != nil {
		o.Warn(fmt.Errorf("%d line(s) of %s do not decode and were ignored", n, filepath.Join(a.root, escalation.LedgerName)))
	}
	gateLog, err := a.gateLogOnce()
	if err != nil {
		return st, err
	}
	e := &escalation.Escalator{
		Ledger: ledger, Gate: gate, Debater: escalationDebater{a: a}, Lookup: escalationDebater{a: a}, GateLog: gateLog,
		Defender: a.rootRelativeSpec(cfg.Escalation.Defender), Attacker: a.rootRelativeSpec(cfg.Escalation.Attacker),
		Workspace: ws, Budget: cfg.Budget(debate.LayerVerify), Logger: a.log, RetryUnavailable: o.RetryUnavailable,
	}
	sink := escalation.Sink{Malformed: o.Malformed, Decided: o.Decided, Already: o.Already}
	if o.Warn != nil {
		sink.Changed = func(line int, err error) { o.Warn(fmt.Errorf("%s:%d: %w", o.Telemetry, line, err)) }
	}
	if absent != nil && o.Warn != nil {
		o.Warn(absent)
	}
	if o.Ready != nil {
		o.Ready()
	}
	if o.Follow {
		reconcile := escalation.DefaultReconcile
		if d := cfg.Messenger.Reconcile(); d > 0 {
			reconcile = d
		}
		fo := escalation.FollowOptions{Reconcile: reconcile, Logger: a.log}
		if o.Incomplete != nil {
			fo.Incomplete = func(src escalation.Source, line int) { o.Incomplete(src.Path, line) }
		}
		err = escalation.Follow(ctx, o.Telemetry, fo, func(_ escalation.Source, l escalation.Line) error {
			return e.HandleLine(ctx, l, sink, &st)
		})
		return st, err
	}
	st, err = e.Run(ctx, in, sink)
	if err == nil && stream && st.Incomplete {
		// A file's last line without its newline may be one its writer
		// is still writing, left for a later run; a stream that ended
		// inside a line has nothing more to give, and no later run reads
		// it: the line is malformed.
		st.Incomplete = false
		st.Malformed++
		if o.Malformed != nil {
			o.Malformed(st.Lines+1, fmt.Errorf("%w: the input ended inside the line, which is not a whole record", escalation.ErrMalformed))
		}
	}
	return st, err
}

// followAbsent is what a follow of a file that is not there tells: that
// it waits for it, and its directory when that is missing too.
func followAbsent(path string) error {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %w, nor does its directory %s: it is followed from when it is created (check the path if the verifier writes elsewhere)", path, ErrFollowAbsent, dir)
	}
	return fmt.Errorf("%s %w: it is followed from when it is created (check the path if the verifier writes elsewhere)", path, ErrFollowAbsent)
}

// escalationWorkspace is where evidence is read: flag (relative to the
// working directory), else escalation.workspace (relative to the root),
// else the working directory.
func (a *App) escalationWorkspace(cfg *config.Config, flag string) (string, error) {
	ws := "."
	switch {
	case flag != "":
		ws = flag
	case cfg.Escalation.Workspace != "":
		ws = config.Resolve(a.root, cfg.Escalation.Workspace)
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		// The workspace comes from --workspace or from config.json: the
		// message names it as neither.
		return "", newError(ProblemFile, FieldEscalationWorkspace, nil, "the escalation workspace: %s is not a directory", ws)
	}
	return abs, nil
}

// rootRelativeSpec makes a relative script:FILE of config.json absolute
// against the root, where config.json is.
func (a *App) rootRelativeSpec(spec string) string {
	sp, err := agent.ParseSpec(spec)
	if err != nil || sp.Kind != agent.KindScript || filepath.IsAbs(sp.Arg) {
		return spec
	}
	abs, err := filepath.Abs(config.Resolve(a.root, sp.Arg))
	if err != nil {
		return spec
	}
	sp.Arg = abs
	return sp.String()
}

// escalationDebater runs escalation debates as RunDebate does (agent
// processes, the messenger, the transcript, the filer), with no progress.
type escalationDebater struct{ a *App }

var (
	_ escalation.Debater = escalationDebater{}
	_ escalation.Lookup  = escalationDebater{}
)

// Settled is the outcome of the debate whose record settles s's question
// (consensus check's active record of it, of the very same topic, binding
// and verified against its debate's seal), nil when none does or when a
// debate of s.ID exists (Debate resumes or reads it). A record of the
// question that fails its seal check, or whose seal cannot be checked,
// decides nothing: passed names it and says why.
func (d escalationDebater) Settled(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, string, error) {
	store, err := d.a.debates(false)
	if err != nil {
		return nil, "", err
	}
	_, err = store.Session(s.ID)
	store.Close()
	if err == nil {
		return nil, "", nil
	}
	if !errors.Is(err, transcripts.ErrNotFound) {
		return nil, "", err
	}
	c, err := d.a.OpenConsensus()
	if err != nil {
		return nil, "", err
	}
	defer c.Close()
	res, err := c.Store().Check(ctx, s.Layer, s.Topic, s.OpeningPosition())
	if err != nil {
		return nil, "", err
	}
	rec := res.Record
	if rec == nil || rec.Slug != consensus.TopicSlug(s.Topic) {
		return nil, "", nil
	}
	switch {
	case res.Status == consensus.CheckTampered:
		// Whatever the page says now (binding or not) is not to be trusted.
		return nil, fmt.Sprintf("the filed consensus %s was not decided from: it does not verify against its debate's seal: %s", rec.Path, res.Problem), nil
	case !rec.Binding():
		return nil, "", nil
	case res.Unsealed != "":
		return nil, fmt.Sprintf("the filed consensus %s was not decided from: its seal cannot be checked: %s", rec.Path, res.Unsealed), nil
	}
	o, err := d.a.LoadOutcome(ctx, rec.DebateID)
	if err != nil {
		return nil, "", err
	}
	o.Record = rec.Path
	return o, "", nil
}

func (d escalationDebater) Debate(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error) {
	store, err := d.a.debates(false)
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
		t, err := d.a.Audit(ctx, store, s.ID)
		if err != nil {
			store.Close()
			return nil, err
		}
		in := transcripts.IntegrityOf(t)
		if _, verr := store.Verdict(s.ID); verr == nil {
			// Closed and filed before a crash: its outcome, no debate,
			// once its files verify against its seal (a record rewritten
			// since is acted on by no one).
			defer store.Close()
			if in.Tampered() {
				return nil, &TamperedError{ID: s.ID, Trouble: in.Trouble()}
			}
			return store.LoadOutcome(ctx, s.ID)
		}
		// Interrupted before its verdict: resumed, as parley debate
		// resume would, unless its files were changed since.
		if in.RefusesResume() {
			store.Close()
			return nil, &TamperedError{ID: s.ID, Trouble: in.Trouble()}
		}
		s = existing
	}
	store.Close()
	if !resume {
		if rec, err := d.filedBy(ctx, s.ID); err != nil {
			return nil, err
		} else if rec != "" {
			return nil, fmt.Errorf("%w: %s filed %s", escalation.ErrDebateGone, s.ID, rec)
		}
	}
	if err := d.available(ctx, s); err != nil {
		return nil, fmt.Errorf("%w: %v", escalation.ErrUnavailable, err)
	}
	return d.a.runDebate(ctx, s, resume, RunOptions{})
}

// filedBy is the vault path of the record debate id filed, "" when none
// did: a debate that is not under the root may still have filed one, its
// debates/ directory removed since (a root cleared to decide its records
// again), and a new debate under its id would leave that record standing
// as its own.
func (d escalationDebater) filedBy(ctx context.Context, id string) (string, error) {
	c, err := d.a.OpenConsensus()
	if err != nil {
		return "", err
	}
	defer c.Close()
	return c.Store().RecordOf(ctx, id)
}

// available checks, before a debate, that its agents can be had: a
// running agent (@NAME) is alive, an adapter spec makes a responder (its
// script loads, its templates parse), and an openai endpoint answers.
// Every participant is checked: the error names each that cannot be had,
// why, and what to do (agents with the same cause and remedy together).
func (d escalationDebater) available(ctx context.Context, s *debate.DebateSession) error {
	ads, err := d.a.Adapters(nil)
	if err != nil {
		return err
	}
	var m Backend
	defer func() {
		if m != nil {
			m.Close()
		}
	}()
	var problems []agentProblem
	for _, p := range s.Participants {
		sp, err := agent.ParseSpec(p.Agent)
		if err != nil {
			return err
		}
		if sp.Kind == agent.KindRegistered {
			if m == nil {
				if m, err = d.a.Messenger(ctx); err != nil {
					return err
				}
			}
			var re *RoleError
			switch err := checkAgent(ctx, m.Registry(), p); {
			case errors.As(err, &re):
				problems = append(problems, agentProblem{who: fmt.Sprintf("the %s %s", p.Role, p.Name),
					why:  re.Mismatch(),
					hint: fmt.Sprintf("name an agent that joined as %s in escalation.%s in %s", p.Role, p.Role, filepath.Join(d.a.root, config.FileName))})
			case err != nil:
				// The hint of a debate run with an @NAME that is not running.
				problems = append(problems, agentProblem{who: fmt.Sprintf("the %s %s", p.Role, p.Name),
					why: "is not running", hint: fmt.Sprintf("start it with %s --name %s …", d.a.CommandLine("agent", "run"), p.Name)})
			}
			continue
		}
		who := fmt.Sprintf("the %s (%s)", p.Role, sp)
		fix := fmt.Sprintf("check escalation.%s in %s", p.Role, filepath.Join(d.a.root, config.FileName))
		resp, err := ads.New(sp)
		if err != nil {
			problems = append(problems, agentProblem{who: who, why: "cannot start: " + err.Error(), hint: fix})
			continue
		}
		if pr, ok := resp.(agent.Prober); ok {
			pctx, cancel := context.WithTimeout(ctx, probeTimeout)
			err := pr.Probe(pctx)
			cancel()
			if err != nil {
				problems = append(problems, probeProblem(who, fix, resp, err))
			}
		}
	}
	return joinProblems(problems)
}

// agentProblem is why an agent of an escalation cannot be had: who, why
// and what to do.
type agentProblem struct{ who, why, hint string }

// probeProblem describes a failed probe of resp as a debate would describe
// the agent unavailable (the endpoint, the cause and the remedy) when the
// responder can say, else as err with fix.
func probeProblem(who, fix string, resp agent.Responder, err error) agentProblem {
	var u *debate.UnavailableError
	if d, ok := resp.(interface {
		Unavailable(error) *debate.UnavailableError
	}); ok {
		u = d.Unavailable(err)
	}
	if u == nil || strings.TrimSpace(u.Detail) == "" {
		return agentProblem{who: who, why: "cannot be reached: " + err.Error(), hint: fix}
	}
	hint := u.Hint
	if hint == "" {
		hint = fix
	}
	return agentProblem{who: who, why: "is unavailable: " + u.Detail, hint: hint}
}

// joinProblems is one line naming every agent that cannot be had (nil
// when none), agents with the same cause and remedy named together.
func joinProblems(ps []agentProblem) error {
	if len(ps) == 0 {
		return nil
	}
	var parts []string
	for i, p := range ps {
		if p.who == "" {
			continue // named with an earlier one
		}
		who := []string{p.who}
		for j := i + 1; j < len(ps); j++ {
			if ps[j].who != "" && ps[j].why == p.why && ps[j].hint == p.hint {
				who = append(who, ps[j].who)
				ps[j].who = ""
			}
		}
		why := p.why
		if rest, ok := strings.CutPrefix(why, "is "); ok && len(who) > 1 {
			why = "are " + rest
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", strings.Join(who, " and "), why, p.hint))
	}
	return errors.New(strings.Join(parts, "; "))
}

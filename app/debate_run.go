package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// RunOptions are what a front end gives a debate run besides its session.
type RunOptions struct {
	// Progress, when set, is called after every recorded event, on the
	// coordinator's goroutine.
	Progress func(debate.Progress)
	// Warn, when set, is told what the run noticed and went on from
	// (ErrSessionChanged).
	Warn func(error)
}

func (o RunOptions) warn(err error) {
	if o.Warn != nil {
		o.Warn(err)
	}
}

var (
	// ErrSessionChanged: a resumed debate's session.json differs from the
	// session its transcript records; the recorded one is resumed (the
	// transcript is the source of truth, hash chained).
	ErrSessionChanged = errors.New("it differs from the session the transcript records; resuming the recorded one")
	// ErrNotRunning: a debate has no verdict and nothing runs it.
	ErrNotRunning = errors.New("the debate is not running and has no verdict")
)

// NotRunningError is a debate participant named @NAME that is not alive.
type NotRunningError struct {
	Agent string
	// NoRoot is the root the agent was looked for in, when there is no
	// root there at all (so no agent can run there); "" otherwise.
	NoRoot string
}

func (e *NotRunningError) Error() string {
	if e.NoRoot != "" {
		return "agent " + e.Agent + " is not running: there is no parley root at " + e.NoRoot
	}
	return "agent " + e.Agent + " is not running"
}

// RoleError is a running agent (@NAME) that a debate names in a role it
// did not join: it registered for other debate roles only (as "parley
// agent run --role" and debate_join do), so it would be sent turns it
// did not sign up to argue.
type RoleError struct {
	Agent string
	// Joined are the debate roles its registration names.
	Joined []debate.Role
	// Asked is the role the debate names it in.
	Asked debate.Role
}

func (e *RoleError) Error() string { return "agent " + e.Agent + " " + e.Mismatch() }

// Mismatch says what is wrong without naming the agent: "joined as
// defender, not attacker".
func (e *RoleError) Mismatch() string {
	joined := make([]string, len(e.Joined))
	for i, r := range e.Joined {
		joined[i] = string(r)
	}
	return fmt.Sprintf("joined as %s, not %s", strings.Join(joined, " or "), e.Asked)
}

// StoppedError is a debate that stopped before its verdict: Err says why
// (context.Canceled when it was interrupted). ResumeDebate continues it.
type StoppedError struct {
	ID  string
	Err error
}

func (e *StoppedError) Error() string { return fmt.Sprintf("debate %s stopped: %v", e.ID, e.Err) }
func (e *StoppedError) Unwrap() error { return e.Err }

// NotClosedError is a debate that recorded its verdict but that no process
// runs and whose closing did not finish (the verdict filed, the transcript
// sealed, verdict.json written): its coordinator stopped in between (a
// crash, a full disk). Its verdict is not the debate's outcome yet;
// ResumeDebate finishes closing it.
type NotClosedError struct {
	ID      string
	Verdict debate.Verdict
}

func (e *NotClosedError) Error() string {
	return fmt.Sprintf("debate %s recorded its verdict, %s, but is not running and did not finish closing", e.ID, e.Verdict)
}

// RunDebate runs the new debate s in this process to its verdict: it
// checks that the running agents (@NAME) are alive (a *NotRunningError,
// and nothing written, when one is not) and joined in the roles s names
// them in (a *RoleError, nothing written), writes the transcript, starts the
// agents the debate owns (adapter specs) as processes, runs the
// coordinator and files the verdict. The transcripts' errors are returned
// as they are (transcripts.ErrBusy, …); a debate that stops before its
// verdict is a *StoppedError.
func (a *App) RunDebate(ctx context.Context, s *debate.DebateSession, o RunOptions) (*debate.Outcome, error) {
	return a.runDebate(ctx, s, false, o)
}

// runDebate runs (resume false) or resumes a debate.
func (a *App) runDebate(ctx context.Context, s *debate.DebateSession, resume bool, o RunOptions) (*debate.Outcome, error) {
	if err := a.noRootForAgents(s); err != nil {
		return nil, err
	}
	// The messenger is opened only for a debate that still runs: one that
	// has its verdict only needs filing, and is filed and shown even while
	// the messenger cannot be reached (a NATS server that is down).
	var m Backend
	messenger := func() error {
		if m != nil {
			return nil
		}
		var err error
		m, err = a.Messenger(ctx)
		return err
	}
	defer func() {
		if m != nil {
			m.Close()
		}
	}()
	if !resume {
		if err := messenger(); err != nil { // makes the root if it is new
			return nil, err
		}
	}
	store, err := a.debates(true)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	var log *transcripts.Log
	if resume {
		log, err = store.Open(ctx, s.ID)
	} else if err = a.checkAgents(ctx, m, s); err == nil {
		// A new debate whose running agents are not all there is refused
		// before anything is written: no debate is left interrupted.
		log, err = store.Create(ctx, s)
	}
	if err != nil {
		return nil, err
	}
	defer log.Close()
	// A debate that has its verdict only needs filing: no agents. A resumed
	// debate is the one its transcript records, whatever session.json says.
	closed := false
	var procs *agentProcs
	if st, err := debate.Replay(log.Events()); err == nil {
		closed = st.Verdict != nil
		if resume && !sameSession(st.Session, s) {
			o.warn(fmt.Errorf("%s: %w", transcripts.Path(s.ID, transcripts.SessionFile), ErrSessionChanged))
		}
		s = st.Session
	}
	if !closed {
		if err := messenger(); err != nil {
			return nil, err
		}
		if resume {
			if err := a.checkAgents(ctx, m, s); err != nil {
				return nil, err
			}
		}
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
	c := &debate.Coordinator{
		Journal: log, Filer: filer, Pages: vaultPages{filer.v}, Progress: o.Progress, Logger: a.log,
	}
	if m != nil {
		c.Messenger, c.Presence, c.Enroller = m.Transport(), presence{m.Registry(), procs}, a.enroller(m.Registry(), s.ID)
	}
	var out *debate.Outcome
	if resume && len(log.Events()) > 0 {
		out, err = c.Resume(ctx)
		if err == nil && out.Record == "" {
			// A debate sealed earlier: its record is named in verdict.json.
			if v, verr := store.Verdict(s.ID); verr == nil {
				out.Record = v.Record
			}
		}
	} else {
		out, err = c.Start(ctx, s)
	}
	if err != nil {
		return nil, &StoppedError{ID: s.ID, Err: err}
	}
	if out.Record != "" {
		// A debate that started before its question's current record's
		// (resumed late) is filed superseded by it: say so.
		if r, _, err := filer.cs.Record(ctx, out.Record); err == nil && r.OvertakenBy != "" && r.DebateID == s.ID {
			o.warn(&OvertakenError{DebateID: s.ID, Record: out.Record, By: r.OvertakenBy})
		}
	}
	return out, nil
}

// CheckAgents checks that every running agent (@NAME) s names is alive (a
// *NotRunningError names the first that is not) and joined in the role s
// names it in (a *RoleError names the first that did not).
func (a *App) CheckAgents(ctx context.Context, s *debate.DebateSession) error {
	if err := a.noRootForAgents(s); err != nil {
		return err
	}
	m, err := a.Messenger(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	return a.checkAgents(ctx, m, s)
}

// noRootForAgents is the *NotRunningError of the first running agent
// (@NAME) s names when there is no root at all: none can run there (the
// command was likely run from another directory than the agents'). It
// is said before opening the messenger would make the root.
func (a *App) noRootForAgents(s *debate.DebateSession) error {
	if a.HaveRoot() {
		return nil
	}
	for _, p := range s.Participants {
		if len(p.Agent) > 0 && p.Agent[0] == '@' {
			return &NotRunningError{Agent: p.Name, NoRoot: a.root}
		}
	}
	return nil
}

// checkAgents checks that every running agent (@NAME) s names is alive (a
// *NotRunningError) and joined in the role s names it in (a *RoleError):
// an agent whose registration names debate roles takes only those; one
// that names none (a pi-messenger agent, "parley watch") claims none, and
// takes whichever role it is given.
func (a *App) checkAgents(ctx context.Context, m Backend, s *debate.DebateSession) error {
	for _, p := range s.Participants {
		if len(p.Agent) > 0 && p.Agent[0] == '@' {
			if err := checkAgent(ctx, m.Registry(), p); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkAgent checks the running agent (@NAME) p: alive (else a
// *NotRunningError) and joined as p's role (else a *RoleError).
func checkAgent(ctx context.Context, reg Registry, p debate.Participant) error {
	e, err := reg.Get(ctx, p.Name)
	if alive, err := registry.AliveOf(e, err); err != nil || !alive {
		return &NotRunningError{Agent: p.Name}
	}
	if joined := debateRoles(e.Roles); len(joined) > 0 && !slices.Contains(joined, p.Role) {
		return &RoleError{Agent: p.Name, Joined: joined, Asked: p.Role}
	}
	return nil
}

// debateRoles are the debate roles among a registration's roles (others,
// such as "watcher" or "coordinator", say nothing about debates).
func debateRoles(roles []string) []debate.Role {
	var out []debate.Role
	for _, r := range roles {
		if _, ok := debate.LookupRole(debate.Role(r)); ok {
			out = append(out, debate.Role(r))
		}
	}
	return out
}

// debates opens the debates of the root; with sign, their seals are signed
// with config.json's seal.signingKey when it has one (for running them).
func (a *App) debates(sign bool) (*transcripts.Store, error) {
	var cfgKey []byte
	if sign {
		cfg, err := a.Config()
		if err != nil {
			return nil, err
		}
		key, err := cfg.SealSigningKey()
		if err != nil {
			return nil, err
		}
		cfgKey = key
	}
	st, err := transcripts.OpenStore(a.root, a.log)
	if err != nil {
		return nil, err
	}
	if cfgKey != nil {
		st.SignWith(cfgKey)
	}
	return st, nil
}

// sameSession reports whether two sessions encode alike.
func sameSession(a, b *debate.DebateSession) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// debateFiler is the filing step of a debate: the consensus record in
// <vault>/wiki/consensus/, then the readable transcript page
// <vault>/wiki/debates/<id>.md that the record links to, both bound to the
// transcript's seal (transcripts.Filer). Filing a debate again rewrites its
// record and its page.
type debateFiler struct {
	v     *vault.Vault
	cs    *consensus.Store
	store *transcripts.Store
}

var _ debate.Filer = (*debateFiler)(nil)

// openFiler opens (creating) the vault and the consensus store; close
// releases them.
func (a *App) openFiler(store *transcripts.Store) (*debateFiler, func(), error) {
	v, err := vault.Create(a.vault, vault.WithLogger(a.log))
	if err != nil {
		return nil, nil, err
	}
	cs, err := consensus.Open(a.root, v, consensus.WithLogger(a.log))
	if err != nil {
		v.Close()
		return nil, nil, err
	}
	return &debateFiler{v: v, cs: cs, store: store}, func() { cs.Close(); v.Close() }, nil
}

func (f *debateFiler) File(ctx context.Context, o *debate.Outcome) (string, error) {
	return (&transcripts.Filer{Store: f.store, Vault: f.v, Records: f.cs}).File(ctx, o)
}

// vaultPages checks [[page]] evidence against the vault.
type vaultPages struct{ v *vault.Vault }

func (p vaultPages) PageExists(ctx context.Context, name string) (bool, error) {
	_, err := p.v.Resolve(name)
	switch {
	case err == nil, errors.Is(err, vault.ErrAmbiguous):
		return true, nil
	case errors.Is(err, vault.ErrNotFound):
		return false, nil
	}
	return false, err
}

// LoadOutcome is the verified outcome of debate id
// (transcripts.Store.LoadOutcome), for filing it again: a tampered
// transcript is refused, naming its first bad line; a debate without a
// verdict is consensus.ErrNotClosed. The App is a consensus.OutcomeLoader.
func (a *App) LoadOutcome(ctx context.Context, id string) (*debate.Outcome, error) {
	st, err := a.debates(false)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	o, err := st.LoadOutcome(ctx, id)
	if errors.Is(err, transcripts.ErrNotSealed) {
		return nil, fmt.Errorf("%w: %v", consensus.ErrNotClosed, err)
	}
	return o, err
}

var _ consensus.OutcomeLoader = (*App)(nil)

// OpenDebates opens the debates of the root for reading; the caller
// closes the store. A root that does not exist is an error wrapping
// fs.ErrNotExist.
func (a *App) OpenDebates() (*transcripts.Store, error) { return a.debates(false) }

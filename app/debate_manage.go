package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
)

// TamperedError is a debate whose files disagree with its seal: resuming
// it would rewrite the vault page and the record over the evidence, so it
// is left as it is. Trouble says what disagrees (text from the files: a
// front end cleans it before a terminal shows it).
type TamperedError struct{ ID, Trouble string }

func (e *TamperedError) Error() string {
	return fmt.Sprintf("debate %s was tampered with: %s", e.ID, e.Trouble)
}

// ResumeDebate continues debate id in this process from its transcript
// (a crash, a kill, an interrupt): requests are sent again under the same
// ids, replies that arrived meanwhile are taken from the inbox, nothing
// recorded counts twice. A closed debate is filed if it was not yet. A
// debate whose files disagree with its seal is a *TamperedError.
func (a *App) ResumeDebate(ctx context.Context, id string, o RunOptions) (*debate.Outcome, error) {
	st, err := a.debates(false)
	if err != nil {
		return nil, err
	}
	s, err := st.Session(id)
	if err != nil {
		st.Close()
		return nil, err
	}
	t, err := a.Audit(ctx, st, id)
	st.Close()
	if err != nil {
		return nil, err
	}
	if in := transcripts.IntegrityOf(t); in.RefusesResume() {
		return nil, &TamperedError{ID: id, Trouble: in.Trouble()}
	}
	return a.runDebate(ctx, s, true, o)
}

// StartDebate checks that the running agents (@NAME) of the new debate s
// are alive (a *NotRunningError, and nothing written, when one is not)
// and joined in the roles s names them in (a *RoleError, nothing written),
// and that config.json's seal keys can sign its seal (nothing written
// when they cannot), writes the debate and runs it in a detached process
// ("parley debate resume ID" in a session of its own, its output in the
// debate's logs/coordinator.log), and returns that process's id without
// waiting for the verdict. While this process runs it reaps the debate's
// when it ends (a long-running server makes no zombie); if this process
// ends first, the system does.
func (a *App) StartDebate(ctx context.Context, s *debate.DebateSession) (pid int, err error) {
	if err := a.noRootForAgents(s); err != nil {
		return 0, err
	}
	m, err := a.Messenger(ctx) // makes the root if it is new
	if err != nil {
		return 0, err
	}
	err = a.checkAgents(ctx, m, s)
	m.Close()
	if err != nil {
		return 0, err
	}
	// The debate's process signs its seal: a signing key it could not use
	// is refused here, before a debate it would only leave interrupted.
	store, err := a.debates(true)
	if err != nil {
		return 0, err
	}
	defer store.Close()
	log, err := store.Create(ctx, s)
	if err != nil {
		return 0, err
	}
	log.Close()
	return a.detach(store, s.ID)
}

// ResumeDebateDetached continues the interrupted debate id in a detached
// process, as StartDebate runs a new one ("parley debate resume ID" in a
// session of its own, its output appended to logs/coordinator.log), and
// returns that process's id without waiting: ResumeDebate for a caller
// that cannot wait (a server). Nothing is started, and the error says
// why, for a debate that is not there (transcripts.ErrNotFound), one a
// coordinator runs (transcripts.ErrBusy), one that is closed
// (debate.ErrClosed), one whose files disagree with its seal
// (*TamperedError), and one still to be argued whose running agents
// (@NAME) are not alive or not in their roles (*NotRunningError,
// *RoleError). Two calls at once may start two processes: the one that
// takes the debate runs it, the other finds it busy and exits.
func (a *App) ResumeDebateDetached(ctx context.Context, id string) (pid int, err error) {
	// Signed as StartDebate signs: a key the process could not use is
	// refused here.
	store, err := a.debates(true)
	if err != nil {
		return 0, err
	}
	defer store.Close()
	switch st, err := store.Stamp(id); {
	case errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Errorf("%w: %s", transcripts.ErrNotFound, id)
	case err != nil:
		return 0, err
	case st.State == transcripts.StateRunning:
		return 0, fmt.Errorf("%w: %s", transcripts.ErrBusy, id)
	case st.State == transcripts.StateClosed:
		return 0, fmt.Errorf("%w: %s", debate.ErrClosed, id)
	}
	t, err := a.Audit(ctx, store, id)
	if err != nil {
		return 0, err
	}
	if in := transcripts.IntegrityOf(t); in.RefusesResume() {
		return 0, &TamperedError{ID: id, Trouble: in.Trouble()}
	}
	// A debate that has its verdict only needs filing: no agents.
	if st, err := debate.Replay(t.Events); err == nil && st.Verdict == nil {
		if err := a.CheckAgents(ctx, st.Session); err != nil {
			return 0, err
		}
	}
	return a.detach(store, id)
}

// detach runs "parley debate resume ID" in a session of its own, its
// output appended to the debate's logs/coordinator.log, and returns its
// process id. While this process runs it reaps the debate's when it ends
// (a long-running server makes no zombie); if this process ends first,
// the system does.
func (a *App) detach(store *transcripts.Store, id string) (int, error) {
	logf, err := store.AgentLog(id, "coordinator")
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	cmd, err := a.command(logf, "debate", "resume", id)
	if err != nil {
		return 0, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start the debate's process: %w", err)
	}
	p := cmd.Process
	ended := make(chan struct{})
	go func() { _, _ = p.Wait(); close(ended) }() // ends when the debate's process does
	// Running from the moment its id is handed back: "debate status" at
	// once must not read the debate as interrupted (and say to resume it)
	// because its process has not taken it yet.
	deadline := time.NewTimer(takeWait)
	defer deadline.Stop()
	for {
		if st, err := store.Stamp(id); err != nil || st.State != transcripts.StateInterrupted {
			return p.Pid, nil
		}
		select {
		case <-ended: // it failed, or ran and let go: its log says which
			return p.Pid, nil
		case <-deadline.C:
			return p.Pid, nil
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// takeWait bounds how long detach waits for the debate's process to take
// the debate (its start-up: tens of milliseconds on a busy machine).
const takeWait = 10 * time.Second

// DebateStatus is where debate id stands: running, closed or interrupted;
// round, tokens and time against its budget; its verdict once closed; and
// its integrity, as ListDebates has it.
func (a *App) DebateStatus(ctx context.Context, id string) (*transcripts.Status, error) {
	st, err := a.debates(false)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	line, err := st.Status(id)
	if err != nil {
		return nil, err
	}
	if err := a.withIntegrity(ctx, st, 1, func(int) (string, *string, *bool) { return id, &line.Integrity, &line.ResumeRefused }); err != nil {
		return nil, err
	}
	return line, nil
}

// watchIdle is how long a debate that no process runs may stay without a
// new event before WatchDebate gives up on it (one just started may not
// hold its lock yet).
const watchIdle = 5 * time.Second

// WatchDebate follows debate id as its transcript grows, calling progress
// for each event (those recorded so far first), until its verdict is
// filed: it returns the outcome. A debate that is found not running and
// without a verdict is a *StoppedError wrapping ErrNotRunning; one found not
// running with its verdict recorded but not filed and sealed, a
// *NotClosedError; ctx's end returns ctx's error.
func (a *App) WatchDebate(ctx context.Context, id string, progress func(debate.Progress)) (*debate.Outcome, error) {
	store, err := a.debates(false)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if _, err := store.Session(id); err != nil {
		return nil, err
	}
	st := &debate.State{}
	shown := 0
	idle := time.Now()
	var seen transcripts.Stamp
	for {
		// The transcript is read (and its chain verified) again only when
		// its stamp moved since the last read.
		stamp, err := store.Stamp(id)
		if err != nil {
			return nil, err
		}
		var events []debate.Event
		if stamp != seen {
			events, err = store.Events(id)
			if err != nil && !errors.Is(err, transcripts.ErrTampered) {
				return nil, err
			}
			seen = stamp
		}
		for ; shown < len(events); shown++ {
			e := events[shown]
			if err := st.Apply(&e); err != nil {
				return nil, fmt.Errorf("transcript of %s: %w", id, err)
			}
			// The seal records the filing, not a step of the debate: a
			// coordinator never reports it, and neither does a watch.
			if progress != nil && e.Kind != debate.EventSeal {
				progress(st.ProgressOf(&e))
			}
			idle = time.Now()
		}
		if err != nil {
			return nil, err
		}
		if st.Verdict != nil {
			if v, err := store.Verdict(id); err == nil {
				st.Verdict.Record = v.Record
				return st.Verdict, nil
			}
		}
		if stamp.State != transcripts.StateRunning && time.Since(idle) > watchIdle {
			if st.Verdict != nil {
				// Recorded, but its filing did not finish: not the
				// debate's outcome until resume closes it.
				return nil, &NotClosedError{ID: id, Verdict: st.Verdict.Verdict}
			}
			return nil, &StoppedError{ID: id, Err: ErrNotRunning}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ListDebates summarises the debates under the root, newest first, each
// with its integrity: the audit's summary ("verified", "verdict.json
// differs", …), "TAMPERED at line N" when its hash chain breaks there,
// "TAMPERED: …" when its files disagree with its seal, "unreadable" when
// it cannot be audited. A missing root is an error
// wrapping fs.ErrNotExist.
func (a *App) ListDebates(ctx context.Context) ([]transcripts.Summary, error) {
	st, err := a.debates(false)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	list, err := st.List()
	if err != nil {
		return nil, err
	}
	err = a.withIntegrity(ctx, st, len(list), func(i int) (string, *string, *bool) { return list[i].DebateID, &list[i].Integrity, nil })
	return list, err
}

// DebateStatuses is ListDebates with where each debate stands (round,
// tokens, time replayed from its events), as DebateStatus has it.
func (a *App) DebateStatuses(ctx context.Context) ([]*transcripts.Status, error) {
	st, err := a.debates(false)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	lines, err := st.Statuses()
	if err != nil {
		return nil, err
	}
	err = a.withIntegrity(ctx, st, len(lines), func(i int) (string, *string, *bool) { return lines[i].DebateID, &lines[i].Integrity, nil })
	return lines, err
}

// withIntegrity audits n debates, the i-th named by at(i), and sets the
// integrity at(i) points to, and, when at(i) gives one, whether resume
// refuses the debate (transcripts.Integrity.RefusesResume).
func (a *App) withIntegrity(ctx context.Context, st *transcripts.Store, n int, at func(i int) (id string, integrity *string, refused *bool)) error {
	w, done, err := a.Witnesses()
	if err != nil {
		return err
	}
	defer done()
	for i := range n {
		id, integrity, refused := at(i)
		t, err := st.Audit(ctx, id, w)
		if err != nil {
			*integrity = "unreadable"
			continue
		}
		in := transcripts.IntegrityOf(t)
		*integrity = in.Label()
		if refused != nil {
			*refused = in.RefusesResume()
		}
	}
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
)

// storeFor opens the debates of the root to read debate id.
func (a *factory) storeFor(id string) (*transcripts.Store, error) {
	st, err := a.store()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, a.noRootError(fmt.Sprintf("no debate %s: ", id))
	}
	return st, err
}

// openDebate checks the ID argument of a debate subcommand and opens the
// debates of the root to read it. The caller closes the store.
func (a *factory) openDebate(args []string) (string, *transcripts.Store, error) {
	id, err := a.debateID(args)
	if err != nil {
		return "", nil, err
	}
	store, err := a.storeFor(id)
	if err != nil {
		return "", nil, err
	}
	return id, store, nil
}

// debateID is the debate the ID argument of a command names: its id, or
// a unique prefix of it.
func (a *factory) debateID(args []string) (string, error) {
	return a.resolveDebateID(args[0])
}

func newDebateResumeCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "resume ID",
		Short: "Continue an interrupted debate from its transcript (and file a verdict not yet filed)",
		Long: "Continues a debate whose coordinator stopped (crash, kill -9, Ctrl-C): requests are\n" +
			"sent again under the same request ids, replies that arrived meanwhile are taken\n" +
			"from the inbox, nothing recorded is counted twice, and time spent stopped does\n" +
			"not count against the wall clock. A closed debate prints its verdict. A debate\n" +
			"whose files disagree with its seal (see parley transcripts verify) is refused.",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, store, err := a.openDebate(args)
			if err != nil {
				return err
			}
			s, err := store.Session(id)
			if err != nil {
				store.Close()
				return a.debateError(err, id)
			}
			// Resuming would rewrite the vault page and the record over the
			// evidence: a debate whose files disagree with its seal is left
			// as it is.
			t, err := a.audit(cmd.Context(), store, id)
			store.Close()
			if err != nil {
				return a.debateError(err, id)
			}
			if in := transcripts.NewView(t).Integrity; in.Tampered() && !transcripts.OnlyVerdictMissing(in.Files) {
				return blockedError{msg: fmt.Sprintf("debate %s was tampered with, resume refuses to continue it: %s (see parley transcripts verify %s)", id, termClean(in.Trouble()), id)}
			}
			return a.runDebate(cmd.Context(), s, true)
		},
	}
}

func newDebateStartCmd(a *factory) *cobra.Command {
	var f debateFlags
	cmd := &cobra.Command{
		Use:   "start --layer L --topic T --agent ROLE=SPEC... [budget flags]",
		Short: "Start a debate in the background and print its id",
		Long: "Like \"debate run\", but the debate runs in a detached process (its output in\n" +
			"<root>/debates/<id>/logs/coordinator.log). Follow it with \"parley debate watch ID\".",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.session(cmd, a)
			if err != nil {
				return err
			}
			m, err := a.openMessenger() // makes the root if it is new
			if err != nil {
				return err
			}
			m.Close()
			store, err := a.store()
			if err != nil {
				return err
			}
			defer store.Close()
			log, err := store.Create(cmd.Context(), s)
			if err != nil {
				return err
			}
			log.Close()
			proc, err := a.detach(store, s.ID)
			if err != nil {
				return err
			}
			pid := proc.Pid
			// Nobody here waits for it: this process ends at once and the
			// detached one is reparented (and reaped) by the system.
			if err := proc.Release(); err != nil {
				return err
			}
			if a.json {
				return a.emit(map[string]any{"event": "started", "debate_id": s.ID, "pid": pid})
			}
			a.printf("%s\n", s.ID)
			fmt.Fprintf(a.stderr, "debate %s runs in the background (pid %d); follow it with: %s\n", s.ID, pid, a.cmdLine("debate", "watch", s.ID))
			return nil
		},
	}
	f.add(cmd)
	return cmd
}

// detach starts "parley debate resume ID" in a new session, its output in
// the debate's logs, and does not wait for it. The caller owns the process:
// one that ends at once releases it (the system reaps it); one that keeps
// running must reap it (reapChild), or it stays a zombie once it exits.
func (a *factory) detach(store *transcripts.Store, id string) (*os.Process, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	logf, err := store.AgentLog(id, "coordinator")
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	args, err := a.childArgs()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, append(args, "debate", "resume", id)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), childEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the debate's process: %w", err)
	}
	return cmd.Process, nil
}

// reapChild waits for a child process that runs on after its starter
// returned (a debate detached by a long-running "parley mcp"), so that it
// does not stay a zombie once it exits. The goroutine ends when the child
// does; if this process ends first, the child is reparented and reaped by
// the system.
func reapChild(p *os.Process) {
	go func() { _, _ = p.Wait() }()
}

// debateCmd is a subcommand "USE ID" on one debate of the root: run is
// given the checked id and the store that holds the debate, closed after.
func (a *factory) debateCmd(use, short string, run func(ctx context.Context, store *transcripts.Store, id string) error) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, store, err := a.openDebate(args)
			if err != nil {
				return err
			}
			defer store.Close()
			return run(cmd.Context(), store, id)
		},
	}
}

func newDebateStatusCmd(a *factory) *cobra.Command {
	return a.debateCmd("status ID", "Where a debate stands: running, closed or interrupted; round, tokens, time",
		func(_ context.Context, store *transcripts.Store, id string) error {
			line, err := store.Status(id)
			if err != nil {
				return a.debateError(err, id)
			}
			if a.json {
				return a.emit(line)
			}
			a.printf("%s  [%s] %s\n", line.DebateID, termClean(string(line.Layer)), clipLine(line.Topic, 200))
			a.printf("  state:  %s\n", line.State)
			a.printf("  round %d/%d · tokens %d/%d · %.1f s / %.0f s · %d events\n", line.Round, line.MaxRounds,
				line.Tokens, line.MaxTokens, float64(line.ElapsedMs)/1000, float64(line.MaxWallClockMs)/1000, line.Events)
			if line.Verdict != "" {
				a.printf("  verdict: %s → %s\n", line.Verdict, line.Action)
			}
			if line.Record != "" {
				a.printf("  record:  %s\n", line.Record)
			}
			if line.State == transcripts.StateInterrupted && line.Verdict == "" {
				a.printf("  the coordinator is not running: %s\n", a.cmdLine("debate", "resume", id))
			}
			return nil
		})
}

func newDebateListCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the debates under the root, newest first",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			store, err := a.listStore()
			if store == nil {
				return err
			}
			defer store.Close()
			if a.json {
				lines, err := store.Statuses()
				if err != nil {
					return err
				}
				ids := make([]string, len(lines))
				for i, l := range lines {
					ids[i] = l.DebateID
				}
				integrity, err := a.integrity(cmd.Context(), store, ids)
				if err != nil {
					return err
				}
				for _, line := range lines {
					line.Integrity = integrity[line.DebateID]
					if err := a.emit(line); err != nil {
						return err
					}
				}
				return nil
			}
			list, err := store.List()
			if err != nil {
				return err
			}
			if len(list) == 0 {
				a.printf("no debates yet under %s (start one with %s)\n", a.rootDir(), a.cmdLine("debate", "run"))
			} else if a.stdoutTTY() {
				a.printf("%-52s %-11s %-17s %s\n", "ID", "STATE", "VERDICT", "TOPIC")
			}
			ids := make([]string, len(list))
			for i, sum := range list {
				ids[i] = sum.ID
			}
			integrity, err := a.integrity(cmd.Context(), store, ids)
			if err != nil {
				return err
			}
			for _, sum := range list {
				verdict := string(sum.Verdict)
				if verdict == "" {
					verdict = "-"
				}
				a.printf("%-52s %-11s %-17s %-16s %s\n", sum.ID, sum.State, verdict, integrity[sum.ID], clipLine(sum.Topic, 60))
			}
			return nil
		},
	}
}

func newDebateWatchCmd(a *factory) *cobra.Command {
	return a.debateCmd("watch ID", "Follow a running or finished debate until its verdict (exit 0 on CONSENSUS_REACHED, 4 on UNAVAILABLE, 3 otherwise)",
		a.watchDebate)
}

// watchDebate prints a debate's events as its transcript grows, until the
// verdict is filed, the debate is found interrupted, or ctx ends.
func (a *factory) watchDebate(ctx context.Context, store *transcripts.Store, id string) error {
	if _, err := store.Session(id); err != nil {
		return a.debateError(err, id)
	}
	view := a.newProgress()
	defer view.Close()
	st := &debate.State{}
	shown := 0
	idle := time.Now()
	var seen transcripts.Stamp
	for {
		// The transcript is read (and its chain verified) again only when
		// its stamp moved since the last read.
		stamp, err := store.Stamp(id)
		if err != nil {
			return a.debateError(err, id)
		}
		var events []debate.Event
		if stamp != seen {
			events, err = store.Events(id)
			if err != nil && !errors.Is(err, transcripts.ErrTampered) {
				return err
			}
			seen = stamp
		}
		for ; shown < len(events); shown++ {
			e := events[shown]
			if err := st.Apply(&e); err != nil {
				return fmt.Errorf("transcript of %s: %w", id, err)
			}
			view.Event(st.ProgressOf(&e))
			idle = time.Now()
		}
		if err != nil {
			view.Close()
			return a.debateError(err, id)
		}
		if st.Verdict != nil {
			if v, err := store.Verdict(id); err == nil {
				view.Close()
				st.Verdict.Record = v.Record
				return a.printVerdict(st.Verdict)
			}
		}
		// A debate just started by "debate start" may not hold its lock yet.
		if stamp.State != transcripts.StateRunning && time.Since(idle) > 5*time.Second {
			if st.Verdict != nil {
				view.Close()
				return a.printVerdict(st.Verdict) // recorded, but its filing did not finish
			}
			view.Close()
			return fmt.Errorf("debate %s is not running and has no verdict (its logs: %s): %s continues it",
				id, filepath.Join(a.rootDir(), filepath.FromSlash(transcripts.Path(id, transcripts.LogsDir))), a.cmdLine("debate", "resume", id))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(100 * time.Millisecond):
		}
	}
}

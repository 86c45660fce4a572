package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// onTranscripts gives a scenario journals that are transcripts in the same
// root as its transport, and removes that root on cleanup, or at once when
// the transport cannot be made.
func TestOnTranscripts(t *testing.T) {
	t.Parallel()
	var root string
	env := onTranscripts(func(dir string) (inbox.Transport, func(), error) {
		root = dir
		tr, err := inbox.NewFileTransport(dir)
		if err != nil {
			return nil, nil, err
		}
		return tr, func() { tr.Close() }, nil
	})
	tr, journal, cleanup, err := env()
	if err != nil {
		t.Fatal(err)
	}
	s := debateBenchSession(0, 1, 1)
	j, err := journal(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(context.Background(), debate.EventOpen, 0, s); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(transcripts.Path(s.ID, transcripts.TranscriptFile)))); err != nil {
		t.Errorf("the journal is not a transcript in the transport's root: %v", err)
	}
	if err := tr.Create(context.Background(), "Bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "inbox", "Bob")); err != nil {
		t.Errorf("the transport is not on the root: %v", err)
	}
	cleanup()
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cleanup left the root: %v", err)
	}

	failed := errors.New("no transport")
	env = onTranscripts(func(dir string) (inbox.Transport, func(), error) { root = dir; return nil, nil, failed })
	if _, _, _, err := env(); !errors.Is(err, failed) {
		t.Errorf("env: %v, want the transport's error", err)
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed env left its root: %v", err)
	}
}

// An agent process that exits before it listens (here: a program that is
// not parley) fails the run at once, naming the agent and its log,
// rather than leaving the debates to wait for it.
func TestAgentProcessThatNeverListens(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	o := DebateOptions{Parley: "/bin/false", Rounds: 2}
	_, err := startAgentProcs(context.Background(), o, root, "_t", 1)
	if err == nil || !strings.Contains(err.Error(), "BenchCritic0_t") || !strings.Contains(err.Error(), filepath.Join(root, "BenchCritic0_t.log")) {
		t.Fatalf("err %v, want one naming the agent and its log", err)
	}
	if _, err := startAgentProcs(context.Background(), DebateOptions{Rounds: 2}, root, "_t", 1); err == nil {
		t.Fatal("no parley binary: no error")
	}
}

// A backend name no backend is registered under is refused before
// anything runs.
func TestRunDebateRefusesUnknownBackend(t *testing.T) {
	t.Parallel()
	ran := false
	err := RunDebate(context.Background(), DebateOptions{Backends: []Backend{{Name: "pigeon"}}}, func(*DebateResult) error { ran = true; return nil })
	if !errors.Is(err, ErrBackend) || ran {
		t.Fatalf("err %v, ran %v", err, ran)
	}
}

// The agents' scripts take a new position every round, the attacker
// countering the defender's position of that round, so a debate runs its
// whole budget.
func TestBenchScript(t *testing.T) {
	t.Parallel()
	for _, role := range []debate.Role{debate.RoleAttacker, debate.RoleDefender} {
		data, err := benchScript(role, 3)
		if err != nil {
			t.Fatal(err)
		}
		s, err := agent.ParseScript(data)
		if err != nil {
			t.Fatalf("%s: %v", role, err)
		}
		seen := map[string]bool{}
		for r := 1; r <= 3; r++ {
			e := s.Entry(r)
			if seen[e.Position] {
				t.Errorf("%s round %d repeats %q", role, r, e.Position)
			}
			seen[e.Position] = true
			if role == debate.RoleAttacker && e.CounterTo != fmt.Sprintf("defender position %d", r) {
				t.Errorf("round %d counters %q", r, e.CounterTo)
			}
		}
	}
}

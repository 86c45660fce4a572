package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// The closing line of a debate names its files where they are under this
// root and vault, and says "" for a record never filed; the verdict's own
// progress event has no line (the closing line comes after filing).
func TestVerdictLineAndProgressJSON(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	a := New(Options{Root: root, Vault: filepath.Join(root, "notes")})
	id := "20261201-plan-compaction-0a1b2c"
	o := &debate.Outcome{DebateID: id, Verdict: debate.Deadlock, Record: "consensus/plan/compaction.md", Rounds: 2, Tokens: 310}
	v := a.Verdict(o)
	if v.Event != "verdict" || v.DebateID != id || v.Verdict != debate.Deadlock {
		t.Fatalf("line %+v", v)
	}
	if want := filepath.Join(root, "debates", id, "transcript.jsonl"); v.Transcript != want {
		t.Errorf("transcript %q, want %q", v.Transcript, want)
	}
	if want := filepath.Join(root, "notes", "consensus", "plan", "compaction.md"); v.Record != want {
		t.Errorf("record %q, want %q", v.Record, want)
	}
	o.Record, o.Verdict = "", debate.Unavailable
	b, err := json.Marshal(a.Verdict(o))
	if err != nil || !strings.Contains(string(b), `"record":""`) || !strings.Contains(string(b), `"event":"verdict"`) {
		t.Fatalf("%s %v", b, err)
	}
	if _, ok := ProgressJSON(debate.Progress{DebateID: id, Event: debate.Event{Kind: debate.EventVerdict}}); ok {
		t.Error("the verdict's event has a progress line")
	}
	line, ok := ProgressJSON(debate.Progress{DebateID: id, Event: debate.Event{Kind: debate.EventTurn, Seq: 7}, Round: 2, MaxRounds: 4,
		Role: debate.RoleDefender, Agent: "Keeper", Detail: "Compact one segment at a time", Tokens: 120, MaxTokens: 9000})
	if !ok || line.Seq != 7 || line.Round != 2 || line.Agent != "Keeper" || line.Event != debate.EventTurn || line.MaxTokens != 9000 {
		t.Fatalf("%+v %v", line, ok)
	}
}

// Each way a debate call fails is worded with what to do, and the
// commands it suggests are left for the front end to name; a failure that
// is not the debate's own is left to the caller.
func TestExplainDebate(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	a := New(Options{Root: root})
	id := "20261201-verify-retention-9f8e7d"
	cmd := func(field string) string { return "<" + field + ">" }
	for _, c := range []struct {
		err     error
		problem Problem
		want    string
	}{
		{&NotRunningError{Agent: "Archivist"}, ProblemNotActive, "agent Archivist is not running (see <parley agents list>, or start it with <parley agent run> --name Archivist …)"},
		{&NotRunningError{Agent: "Archivist", NoRoot: root}, ProblemNotActive, "agent Archivist is not running: there is no parley root at " + root + " (give the --root it runs under, or start it there with <parley agent run> --name Archivist …)"},
		{&TamperedError{ID: id, Trouble: "verdict.json differs\x1b[2J"}, ProblemTampered, "debate " + id + " was tampered with, resume refuses to continue it: verdict.json differs"},
		{&StoppedError{ID: id, Err: context.Canceled}, ProblemInterrupted, "interrupted; the debate can go on with: <parley debate resume " + id + ">"},
		{&StoppedError{ID: id, Err: ErrNotRunning}, ProblemNotActive, "(its logs: " + filepath.Join(root, "debates", id, "logs") + "): <parley debate resume " + id + "> continues it"},
		{fmt.Errorf("open: %w", transcripts.ErrBusy), ProblemTaken, "follow it with <parley debate watch " + id + ">"},
		{transcripts.ErrNotFound, ProblemNotFound, "no debate " + id + " (<parley debate list> lists them)"},
	} {
		var e *Error
		if !errors.As(a.ExplainDebate(c.err, id), &e) {
			t.Errorf("%v: not explained", c.err)
			continue
		}
		if got := e.Format(cmd); e.Problem != c.problem || !strings.Contains(got, c.want) || strings.ContainsRune(got, '\x1b') {
			t.Errorf("%v: %s %q, want %s %q", c.err, e.Problem, got, c.problem, c.want)
		}
		if !errors.Is(e, c.err) {
			t.Errorf("%v: the cause is lost", c.err)
		}
	}
	// A full disk stops the debate with its own words: the resume that
	// continues it is said once, as the front end names it (with its
	// --root), not also as the literal "parley debate resume ID" that
	// the StorageError's text ends with.
	full := &StoppedError{ID: id, Err: &debate.StorageError{DebateID: id, Path: filepath.Join(root, "debates", id, "transcript.jsonl"), Err: syscall.ENOSPC}}
	var e *Error
	if !errors.As(a.ExplainDebate(full, id), &e) || !errors.Is(e, syscall.ENOSPC) || !errors.Is(e, debate.ErrStorage) {
		t.Fatalf("a full disk explained as %v", a.ExplainDebate(full, id))
	}
	if got := e.Format(cmd); strings.Count(got, "debate resume") != 1 || !strings.HasSuffix(got, "free space or fix the disk, then run <parley debate resume "+id+">") ||
		!strings.Contains(got, "failed (no space left on device): debate "+id+" stopped without a verdict and no agent is blamed") {
		t.Errorf("a full disk explained as %q", got)
	}
	// A debate the full disk did not let open left nothing: no resume is
	// offered, and the disk's advice is not said twice.
	unopened := fmt.Errorf("create: %w", &debate.StorageError{DebateID: id, Path: filepath.Join(root, "debates", id), Err: syscall.ENOSPC, NotOpened: true})
	if !errors.As(a.ExplainDebate(unopened, id), &e) || !errors.Is(e, syscall.ENOSPC) {
		t.Fatalf("a debate not opened explained as %v", a.ExplainDebate(unopened, id))
	}
	if got := e.Format(cmd); strings.Contains(got, "resume") || strings.Contains(got, "try again") || !strings.HasSuffix(got, "free space or fix the disk, then start the debate again") {
		t.Errorf("a debate not opened explained as %q", got)
	}
	foreign := errors.New("disk on fire")
	if e := a.ExplainDebate(foreign, id); e != foreign {
		t.Errorf("a foreign error explained as %v", e)
	}
	// The messenger's own errors are explained as everywhere (Explain).
	busy := fmt.Errorf("listen: %w", inbox.ErrBusy)
	if e := a.ExplainDebate(busy, id); !IsProblem(e, ProblemMessenger) || !errors.Is(e, inbox.ErrBusy) || !strings.Contains(e.Error(), "stop the other receiver") {
		t.Errorf("a busy inbox explained as %v", e)
	}
	if e := a.ExplainDebate(nil, id); e != nil {
		t.Errorf("nil explained as %v", e)
	}
}

// An agent answers in exactly one way, and a spec that names no adapter
// of this build is refused as such before anything is opened.
func TestAgentSpecAndResponder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		exec, script, openAI, spec, want string
	}{
		{exec: "./answer.sh --fast", want: "exec:./answer.sh --fast"},
		{script: "turns.json", want: "script:turns.json"},
		{openAI: "small-model", want: "openai:small-model"},
		{spec: "@Archivist", want: "@Archivist"},
	} {
		if got, err := AgentSpec(c.exec, c.script, c.openAI, c.spec); err != nil || got != c.want {
			t.Errorf("%+v: %q %v", c, got, err)
		}
	}
	for _, given := range [][4]string{{}, {"./a.sh", "t.json", "", ""}, {"", "", "m", "exec:x"}} {
		if _, err := AgentSpec(given[0], given[1], given[2], given[3]); !errors.Is(err, ErrAgentSpec) {
			t.Errorf("%q: %v", given, err)
		}
	}
	if ParentPID(false, 42) != 0 || ParentPID(true, 42) != 42 || ParentPID(true, 0) <= 0 {
		t.Error("ParentPID")
	}
	a := New(Options{Root: t.TempDir()})
	if _, _, err := a.AgentResponder("carrier-pigeon:fast", nil); !errors.Is(err, agent.ErrBadSpec) && !errors.Is(err, agent.ErrUnavailable) {
		t.Errorf("unknown kind: %v", err)
	}
	if _, _, err := a.AgentResponder("no colon here", nil); !errors.Is(err, agent.ErrBadSpec) {
		t.Errorf("no kind: %v", err)
	}
}

// An agent whose parent is already gone serves nothing and says so; a
// second agent under a live agent's name is refused with the name.
func TestServeAgentRefusals(t *testing.T) {
	t.Parallel()
	a := New(Options{Root: t.TempDir()})
	runAgent(t, a, "Archivist", debate.RoleDefender, adjustingDefender)
	m, err := a.Messenger(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sc, err := agent.ParseScript([]byte(yieldingCritic))
	if err != nil {
		t.Fatal(err)
	}
	ready := func() { t.Error("a refused agent became ready") }
	err = a.ServeAgent(context.Background(), m, AgentRun{Name: "Skeptic", Role: debate.RoleAttacker, Responder: sc, Parent: os.Getppid() + 1_000_003, Ready: ready})
	if !errors.Is(err, agent.ErrParentGone) {
		t.Errorf("parent gone: %v", err)
	}
	if ok, _ := m.Registry().Alive(context.Background(), "Skeptic"); ok {
		t.Error("an agent whose parent is gone registered")
	}
	err = a.ServeAgent(context.Background(), m, AgentRun{Name: "Archivist", Role: debate.RoleAttacker, Responder: sc, Ready: ready})
	if !errors.Is(err, registry.ErrNameTaken) {
		t.Errorf("name taken: %v", err)
	}
}

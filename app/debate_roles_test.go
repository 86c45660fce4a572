package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// A running agent (@NAME) that joined as one role is not given another's
// turns: a debate that names it in a role it did not join is refused
// before anything is written, naming the agent, the role it joined as and
// the role asked. An agent that registered no debate role (a pi-messenger
// agent, a "parley watch") claims none, and takes whichever it is given.
func TestDebateRefusesAnAgentInARoleItDidNotJoin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := New(Options{Root: filepath.Join(dir, "root")})
	runAgent(t, a, "Skeptic", debate.RoleAttacker, yieldingCritic)
	runAgent(t, a, "Planner", debate.RoleDefender, adjustingDefender)
	m, err := a.Messenger(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for name, roles := range map[string][]string{"Pi": nil, "Watcher": {"watcher"}} {
		if _, err := m.Registry().Register(context.Background(), registry.Registration{Name: name, SessionID: inbox.NewID(), Roles: roles, PID: os.Getpid()}); err != nil {
			t.Fatal(err)
		}
	}
	newSession := func(agents ...string) *debate.DebateSession {
		t.Helper()
		s, err := a.NewSession(context.Background(), DebateRequest{Layer: "plan", Topic: "Log compaction", Position: "Compact the log every hour", Agents: agents, Workspace: dir})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	swapped := newSession("attacker=@Planner", "defender=@Skeptic")
	var re *RoleError
	if err := a.CheckAgents(context.Background(), swapped); !errors.As(err, &re) || re.Agent != "Planner" ||
		len(re.Joined) != 1 || re.Joined[0] != debate.RoleDefender || re.Asked != debate.RoleAttacker {
		t.Fatalf("CheckAgents: %v", err)
	} else if msg := err.Error(); msg != "agent Planner joined as defender, not attacker" {
		t.Errorf("message %q", msg)
	}
	if _, err := a.RunDebate(context.Background(), swapped, RunOptions{}); !errors.As(err, &re) {
		t.Errorf("RunDebate: %v", err)
	}
	if _, err := a.StartDebate(context.Background(), swapped); !errors.As(err, &re) {
		t.Errorf("StartDebate: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(a.Root(), "debates")); len(ents) != 0 {
		t.Errorf("a refused debate left %d debate(s)", len(ents))
	}
	e, ok := a.ExplainDebate(a.CheckAgents(context.Background(), swapped), swapped.ID).(*Error)
	if !ok || e.Problem != ProblemWrongRole {
		t.Fatalf("explained as %v", e)
	}
	if got := e.Format(func(f string) string { return "<" + f + ">" }); !strings.Contains(got, "agent Planner joined as defender, not attacker: name it defender=@Planner, or an agent that joined as attacker (see <parley agents list>)") {
		t.Errorf("explained as %q", got)
	}

	// No debate role registered: no claim to check.
	if err := a.CheckAgents(context.Background(), newSession("attacker=@Pi", "defender=@Watcher")); err != nil {
		t.Errorf("agents that registered no debate role: %v", err)
	}
	if err := a.CheckAgents(context.Background(), newSession("attacker=@Skeptic", "defender=@Planner")); err != nil {
		t.Errorf("agents in the roles they joined: %v", err)
	}
}

// An escalation's @NAME agent running in another role than the one
// config.json names it in is an agent that cannot be had: the record is
// held (unavailable), and the detail says which, as what it joined, and
// what to do.
func TestEscalateNamesAnAgentInARoleItDidNotJoin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o700)
	os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"escalation":{"gateMode":"rules","defender":"@Keeper","attacker":"@Doubter"}}`), 0o600)
	telemetry := filepath.Join(dir, "verifier.jsonl")
	os.WriteFile(telemetry, []byte(`{"timestamp":"2026-06-02T09:00:00Z","task_id":"7","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["maybe not"],"claims":["Done"]}`+"\n"), 0o600)
	a := New(Options{Root: root})
	runAgent(t, a, "Keeper", debate.RoleAttacker, yieldingCritic)
	runAgent(t, a, "Doubter", debate.RoleAttacker, yieldingCritic)
	var got []escalation.Decision
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := a.Escalate(ctx, EscalateOptions{Telemetry: telemetry, Workspace: dir,
		Decided: func(d *escalation.Decision, _ []byte) error { got = append(got, *d); return nil }})
	if err != nil || len(got) != 1 || got[0].Action != escalation.ActionHold || got[0].Reason != escalation.ReasonUnavailable {
		t.Fatalf("decisions %+v, %v; want one hold/unavailable", got, err)
	}
	if want := "the defender Keeper joined as attacker, not defender (name an agent that joined as defender in escalation.defender"; !strings.Contains(got[0].Detail, want) {
		t.Errorf("detail %q does not say %q", got[0].Detail, want)
	}
}

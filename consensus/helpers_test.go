package consensus

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vault"
)

// env is a parley root and a vault with a Store over them.
type env struct {
	root, vaultDir string
	v              *vault.Vault
	s              *Store
	fault          *durable.FaultFS
	logs           *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// fakeClock starts at 2026-11-30 09:00 UTC and moves one minute per call.
func fakeClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Minute)
		return t
	}
}

func newEnv(t testing.TB) *env {
	t.Helper()
	base := t.TempDir()
	e := &env{root: filepath.Join(base, "root"), vaultDir: filepath.Join(base, "vault"), fault: &durable.FaultFS{}, logs: &syncBuffer{}}
	var err error
	e.v, err = vault.Create(e.vaultDir, vault.WithFS(func(f durable.FS) durable.FS { e.fault.FS = f; return e.fault }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.v.Close() })
	e.s = e.open(t)
	return e
}

// open opens another Store over the same root and vault, like a new process.
func (e *env) open(t testing.TB) *Store {
	t.Helper()
	s, err := Open(e.root, e.v, WithClock(fakeClock()), WithLogger(slog.New(slog.NewTextHandler(e.logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// page writes a file into the vault.
func (e *env) page(t testing.TB, p, content string) {
	t.Helper()
	full := filepath.Join(e.vaultDir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// fileRule files a record of layer l whose debate agreed on position.
func (e *env) fileRule(t testing.TB, l debate.Layer, id, topic, position string) {
	t.Helper()
	o := outcome(id, topic, l, debate.ConsensusReached, false)
	o.FinalPosition, o.FinalPositionHash = position, debate.PositionHash(position)
	e.file(t, o)
}

// foundCase is a question of a check, the status it should answer and
// the record it should find ("" for none).
type foundCase struct {
	name, topic, position string
	want                  CheckStatus
	record                string
}

// checkFound asks each question in layer l and reports the answers that
// differ in status or record.
func checkFound(t *testing.T, e *env, l debate.Layer, cases []foundCase) {
	t.Helper()
	for _, tc := range cases {
		res, err := e.s.Check(context.Background(), l, tc.topic, tc.position)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Record != nil {
			got = res.Record.Name
		}
		if res.Status != tc.want || got != tc.record {
			t.Errorf("%s: %s on %q (topic score %.2f, %v), want %s on %q", tc.name, res.Status, got, res.TopicScore, res.Comparison.Differences, tc.want, tc.record)
		}
	}
}

func (e *env) file(t testing.TB, o *debate.Outcome) string {
	t.Helper()
	p, err := e.s.File(context.Background(), o)
	if err != nil {
		t.Fatalf("File(%s): %v", o.DebateID, err)
	}
	return p
}

func (e *env) read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.vaultDir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// session is a debate between SwiftRaven (defender) and GoldFalcon
// (attacker) on topic.
func session(id, topic string, l debate.Layer) *debate.DebateSession {
	return &debate.DebateSession{
		ID: id, Topic: topic, Layer: l,
		Participants: []debate.Participant{{Name: "SwiftRaven", Role: debate.RoleDefender}, {Name: "GoldFalcon", Role: debate.RoleAttacker}},
		Budget:       debate.DefaultBudget(l),
		Created:      "2026-11-30T08:00:00.000Z",
	}
}

func turn(round int, role debate.Role, agent, pos, counter string, conf int, ev ...debate.EvidenceCheck) debate.TurnRecord {
	tr := debate.TurnRecord{
		Turn:         debate.Turn{Round: round, Role: role, Position: pos, CounterTo: counter, ConfidenceChange: conf, Tokens: 100, Text: "argument for " + pos},
		Agent:        agent,
		PositionHash: debate.PositionHash(pos),
		Evidence:     ev,
	}
	for _, e := range ev {
		tr.EvidenceRefs = append(tr.EvidenceRefs, e.Ref)
	}
	return tr
}

const (
	defPos = "Use a client-supplied Idempotency-Key header, stored for 24 hours"
	attPos = "Derive the key from a hash of the request body instead"
)

// outcome builds a closed debate by hand for each verdict kind.
func outcome(id, topic string, l debate.Layer, v debate.Verdict, agreed bool) *debate.Outcome {
	s := session(id, topic, l)
	o := &debate.Outcome{DebateID: id, Verdict: v, Session: s, Closed: "2026-11-30T10:00:00.000Z", ElapsedMs: 4200, DefenderPosition: defPos,
		AttackerPositions: map[string]string{"GoldFalcon": attPos}}
	okPage := debate.EvidenceCheck{Ref: "[[idempotency-notes]]", Kind: "wiki", Status: debate.EvidenceOK}
	file := debate.EvidenceCheck{Ref: "api/handler.go:10-20", Kind: "range", Status: debate.EvidenceOK}
	missing := debate.EvidenceCheck{Ref: "[[no-such-page]]", Kind: "wiki", Status: debate.EvidenceMissing}
	url := debate.EvidenceCheck{Ref: "https://example.com/rfc?a=1&b=`x`", Kind: "url", Status: debate.EvidenceUnchecked}
	switch v {
	case debate.ConsensusReached:
		o.Action, o.Rule, o.Reason = debate.ActionProceed, debate.RuleConceded, "GoldFalcon had no further objections in round 2."
		o.FinalPosition, o.FinalPositionHash = defPos, debate.PositionHash(defPos)
		o.Turns = []debate.TurnRecord{
			turn(1, debate.RoleAttacker, "GoldFalcon", attPos, defPos, -1, file, url),
			turn(1, debate.RoleDefender, "SwiftRaven", defPos, attPos, 0, okPage, missing),
			turn(2, debate.RoleAttacker, "GoldFalcon", "", "", 0),
		}
		o.Rounds, o.Tokens = 2, 300
	case debate.Deadlock:
		o.Action, o.Rule, o.Reason = debate.ActionEscalate, debate.RuleRepeated, "The defender held while GoldFalcon only repeated its counter."
		o.Turns = []debate.TurnRecord{
			turn(1, debate.RoleAttacker, "GoldFalcon", attPos, defPos, -1, file),
			turn(1, debate.RoleDefender, "SwiftRaven", defPos, attPos, 0),
			turn(2, debate.RoleAttacker, "GoldFalcon", attPos, defPos, -1),
			turn(2, debate.RoleDefender, "SwiftRaven", defPos, attPos, 0),
		}
		o.Rounds, o.Tokens = 2, 400
	case debate.BudgetExhausted:
		o.Rule, o.Reason = debate.RuleMaxRounds, "3 rounds complete."
		o.Turns = []debate.TurnRecord{
			turn(1, debate.RoleAttacker, "GoldFalcon", attPos, defPos, -1),
			turn(1, debate.RoleDefender, "SwiftRaven", defPos, attPos, 0),
			turn(2, debate.RoleAttacker, "GoldFalcon", "Keys expire after 24 hours", defPos, -1),
			turn(2, debate.RoleDefender, "SwiftRaven", defPos, "", 0),
		}
		last := "Keys expire after one hour"
		if agreed {
			o.Action = debate.ActionProceed
			o.FinalPosition, o.FinalPositionHash = last, debate.PositionHash(last)
			o.Turns = append(o.Turns, turn(3, debate.RoleAttacker, "GoldFalcon", last, defPos, -1), turn(3, debate.RoleDefender, "SwiftRaven", last, "", 0))
			o.DefenderPosition, o.AttackerPositions["GoldFalcon"] = last, last
		} else {
			o.Action = debate.ActionEscalate
			o.Turns = append(o.Turns, turn(3, debate.RoleAttacker, "GoldFalcon", last, defPos, -1), turn(3, debate.RoleDefender, "SwiftRaven", defPos, "", 0))
			o.AttackerPositions["GoldFalcon"] = last
		}
		o.Rounds, o.Tokens = 3, 600
	case debate.Timeout:
		o.Action, o.Rule, o.Reason = debate.ActionEscalate, debate.RuleForfeit, "SwiftRaven missed its deadline in round 1."
		o.Turns = []debate.TurnRecord{turn(1, debate.RoleAttacker, "GoldFalcon", attPos, defPos, -1)}
		o.Forfeits = []debate.ForfeitEvent{{Round: 1, Role: debate.RoleDefender, Agent: "SwiftRaven", Reason: debate.ForfeitDeadline, Detail: "no reply in 30 s"}}
		o.Rounds, o.Tokens = 1, 100
	}
	return o
}

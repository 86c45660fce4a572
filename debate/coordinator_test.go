package debate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// Each verdict, reached by a scripted debate built for it.
func TestVerdicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		budget  debate.ConsensusBudget
		parties []party
		verdict debate.Verdict
		rule    debate.Rule
		action  debate.Action
		final   string
		rounds  int
	}{
		{
			name:   "conceded: no further objections in round 2",
			budget: budgetOf(3, 6000),
			parties: []party{
				att("Critic", turns("1|Use random UUIDv4 keys|Use UUIDv7 keys|-1", "2|||0")),
				def("Proposer", turns("1|Use UUIDv7 keys with a 24h dedup window|")),
			},
			verdict: debate.ConsensusReached, rule: debate.RuleConceded, action: debate.ActionProceed,
			final: "Use UUIDv7 keys with a 24h dedup window", rounds: 2,
		},
		{
			name:   "adopted: the defender takes the attacker's position, worded differently",
			budget: budgetOf(3, 6000),
			parties: []party{
				att("Critic", turns("1|Keys are client-generated UUIDv7|Use UUIDv7 keys|-1")),
				def("Proposer", turns("1|  keys are CLIENT-GENERATED uuidv7!|")),
			},
			verdict: debate.ConsensusReached, rule: debate.RuleAdopted, action: debate.ActionProceed,
			final: "  keys are CLIENT-GENERATED uuidv7!", rounds: 1,
		},
		{
			name:   "survived: the defender holds against a new counter",
			budget: budgetOf(3, 6000),
			parties: []party{
				att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide across regions|Use UUIDv7 keys|-1")),
				def("Proposer", turns("1|Use UUIDv7 keys|")),
			},
			verdict: debate.ConsensusReached, rule: debate.RuleSurvived, action: debate.ActionProceed,
			final: "Use UUIDv7 keys", rounds: 2,
		},
		{
			name:   "survived: a position restated in other case, spacing and punctuation is unchanged",
			budget: budgetOf(3, 6000),
			parties: []party{
				att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide across regions|Use UUIDv7 keys|-1")),
				def("Proposer", turns("1|Use UUIDv7 keys|", "2|  use   UUIDv7\tKEYS!!|")),
			},
			verdict: debate.ConsensusReached, rule: debate.RuleSurvived, action: debate.ActionProceed,
			final: "  use   UUIDv7\tKEYS!!", rounds: 2,
		},
		{
			name:   "deadlock: the attacker only repeats itself",
			budget: budgetOf(4, 6000),
			parties: []party{
				att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1")),
				def("Proposer", turns("1|Use UUIDv7 keys|")),
			},
			verdict: debate.Deadlock, rule: debate.RuleRepeated, action: debate.ActionEscalate, rounds: 2,
		},
		{
			name:   "budget exhausted by rounds, nothing agreed: escalate",
			budget: budgetOf(2, 6000),
			parties: []party{
				att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide|x|-1")),
				def("Proposer", turns("1|Use UUIDv7 keys, hashed|", "2|Use UUIDv7 keys, hashed and salted|")),
			},
			verdict: debate.BudgetExhausted, rule: debate.RuleMaxRounds, action: debate.ActionEscalate, rounds: 2,
		},
		{
			name:   "budget exhausted by rounds with a last agreed position: proceed on it",
			budget: budgetOf(2, 6000),
			parties: []party{
				att("Critic", turns("1|Use UUIDv7 keys|the retention window|-1", "2|Keys collide|x|-1")),
				def("Proposer", turns("1|Use UUIDv7 keys|", "2|Use UUIDv7 keys, hashed|")),
			},
			verdict: debate.BudgetExhausted, rule: debate.RuleMaxRounds, action: debate.ActionProceed,
			final: "Use UUIDv7 keys", rounds: 2,
		},
		{
			name:   "budget exhausted by tokens",
			budget: budgetOf(4, 900),
			parties: []party{
				att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1|400", "2|Keys collide|x|-1|400")),
				def("Proposer", turns("1|Use UUIDv7 keys, hashed||0|400")),
			},
			verdict: debate.BudgetExhausted, rule: debate.RuleMaxTokens, action: debate.ActionEscalate, rounds: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc.budget, tc.parties...)
			o, j := h.run()
			wantOutcome(t, o, tc.verdict, tc.rule, tc.action, tc.final)
			if o.Rounds != tc.rounds {
				t.Errorf("rounds = %d, want %d", o.Rounds, tc.rounds)
			}
			if h.filer.count() != 1 || !j.Sealed() || o.Record == "" || j.Record() != o.Record {
				t.Errorf("filed %d times, sealed %v, record %q", h.filer.count(), j.Sealed(), o.Record)
			}
			ev := j.Events()
			if ev[0].Kind != debate.EventOpen || ev[len(ev)-1].Kind != debate.EventVerdict {
				t.Errorf("events %v", kinds(t, ev))
			}
			// The journal alone describes the same outcome.
			st, err := debate.Replay(ev)
			if err != nil {
				t.Fatal(err)
			}
			if st.Verdict.Verdict != o.Verdict || st.Tokens != o.Tokens || !slices.Equal(turnLines(st.Turns()), turnLines(o.Turns)) {
				t.Errorf("replay: %+v, tokens %d", st.Verdict, st.Tokens)
			}
		})
	}
}

func TestTimeoutBySlowAgent(t *testing.T) {
	t.Parallel()
	b := budgetOf(3, 6000)
	// Long enough for the critic's instant turn even on a loaded machine;
	// the proposer's 60 s delay is what must run the clock out.
	b.MaxWallClockMs = 2000
	h := newHarness(t, b,
		att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1")),
		def("Proposer", `{"turns":[{"round":1,"position":"Use UUIDv7 keys","delay_ms":60000}]}`),
	)
	o, j := h.run()
	wantOutcome(t, o, debate.Timeout, debate.RuleWallClock, debate.ActionEscalate, "")
	k := kinds(t, j.Events())
	if !slices.Contains(k, "forfeit:Proposer:deadline") {
		t.Fatalf("no deadline forfeit: %v", k)
	}
	if o.ElapsedMs < 2000 {
		t.Fatalf("elapsed %d before the wall clock ran out", o.ElapsedMs)
	}
	if o.Reason != "the wall clock (2000 ms) ran out waiting for Proposer (round 1)" {
		t.Errorf("reason %q", o.Reason)
	}
}

func TestTimeoutWhenAnAgentDies(t *testing.T) {
	t.Parallel()
	var h *harness
	dying := party{name: "Proposer", role: debate.RoleDefender, respond: func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		if req.Round == 2 {
			// The process dies: it never answers, and the registry says so.
			h.presence.kill("Proposer")
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &agent.Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "Use UUIDv7 keys, hashed"}}, nil
	}}
	h = newHarness(t, budgetOf(3, 6000), att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide|x|-1")), dying)
	o, j := h.run()
	wantOutcome(t, o, debate.Timeout, debate.RuleForfeit, debate.ActionEscalate, "")
	k := kinds(t, j.Events())
	if k[len(k)-2] != "forfeit:Proposer:agent_died" || o.Rounds != 2 {
		t.Fatalf("events %v rounds %d", k, o.Rounds)
	}
	if o.ElapsedMs >= 60000 {
		t.Fatalf("waited for the wall clock (%d ms) instead of noticing the death", o.ElapsedMs)
	}
}

func TestTwoAttackersSpeakInOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(2, 6000),
		att("Alpha", turns("1|A1|Use UUIDv7 keys|-1", "2|A2|x|-1")),
		att("Beta", turns("1|B1|Use UUIDv7 keys|-1", "2|B2|x|-1")),
		def("Proposer", turns("1|P1|", "2|P2|")),
	)
	o, j := h.run()
	wantOutcome(t, o, debate.BudgetExhausted, debate.RuleMaxRounds, debate.ActionEscalate, "")
	want := []string{"open",
		"request:Alpha", "turn:Alpha", "request:Beta", "turn:Beta", "request:Proposer", "turn:Proposer",
		"request:Alpha", "turn:Alpha", "request:Beta", "turn:Beta", "request:Proposer", "turn:Proposer",
		"verdict"}
	if got := kinds(t, j.Events()); !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	wantTurns := []string{`r1 attacker Alpha "A1" 100`, `r1 attacker Beta "B1" 100`, `r1 defender Proposer "P1" 100`,
		`r2 attacker Alpha "A2" 100`, `r2 attacker Beta "B2" 100`, `r2 defender Proposer "P2" 100`}
	if got := turnLines(o.Turns); !slices.Equal(got, wantTurns) {
		t.Fatalf("turns\n got %v\nwant %v", got, wantTurns)
	}
	// Each request carried the turns before it.
	var n int
	for _, e := range j.Events() {
		if e.Kind == debate.EventTurn {
			n++
		}
	}
	if o.AttackerPositions["Alpha"] != "A2" || o.AttackerPositions["Beta"] != "B2" || o.DefenderPosition != "P2" || n != 6 {
		t.Fatalf("positions %v %q", o.AttackerPositions, o.DefenderPosition)
	}
}

// A reply with the wrong round, role or debate, or one that does not
// decode, is rejected and re-requested once, then forfeited.
func TestBadRepliesRejectedThenForfeited(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, override string
		reason         string
	}{
		{"wrong round", `"reply_round":7`, "round 7, expected 1"},
		{"wrong role", `"reply_role":"defender"`, `role "defender", expected "attacker"`},
		{"wrong debate", `"reply_debate_id":"20260101-spec-other-aaaaaa"`, "debate_id"},
		{"undecodable", `"reply_fields":{"round":"one"}`, "does not decode"},
		{"empty position", `"reply_fields":{"debate_id":"%ID%","round":1,"role":"attacker","position":"","counter_to":"x","confidence_change":-1}`, "empty position"},
		// Convinced, and meaning to concede, with +1: the reason says how
		// to concede (it said only "empty position").
		{"conceding with +1", `"reply_fields":{"debate_id":"%ID%","round":1,"role":"attacker","position":"","counter_to":"","confidence_change":1,"text":"Convinced."}`,
			"empty position with confidence_change +1; it says: Convinced. (to concede, send confidence_change 0 with an empty position and counter_to)"},
		{"confidence out of range", `"reply_fields":{"debate_id":"%ID%","round":1,"role":"attacker","position":"p","confidence_change":5}`, "confidence_change 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Build the harness first to learn the id, then start the critic.
			h := newHarness(t, budgetOf(1, 6000), def("Proposer", turns("1|Use UUIDv7 keys|")))
			script := `{"turns":[{"round":1,"position":"Keys leak time","counter_to":"x","confidence_change":-1,` + strings.ReplaceAll(tc.override, "%ID%", h.session.ID) + `}]}`
			h.session.Participants = append([]debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}}, h.session.Participants...)
			h.startAgent(att("Critic", script))
			o, j := h.run()
			want := []string{"open", "request:Critic", "rejected:Critic", "request:Critic", "rejected:Critic",
				"forfeit:Critic:bad_reply", "request:Proposer", "turn:Proposer", "verdict"}
			got := kinds(t, j.Events())
			if !slices.Equal(got, want) {
				t.Fatalf("events\n got %v\nwant %v", got, want)
			}
			var rej debate.RejectedEvent
			if err := json.Unmarshal(j.Events()[2].Data, &rej); err != nil || !strings.Contains(rej.Reason, tc.reason) {
				t.Fatalf("reason %q (want %q): %v", rej.Reason, tc.reason, err)
			}
			var r1, r2 debate.RequestEvent
			_ = json.Unmarshal(j.Events()[1].Data, &r1)
			_ = json.Unmarshal(j.Events()[3].Data, &r2)
			if r1.Attempt != 1 || r2.Attempt != 2 || r1.RequestID == r2.RequestID {
				t.Fatalf("re-request %+v after %+v", r2, r1)
			}
			// A bad-reply forfeit does not end the debate: the round
			// completes. But the critic, whose every reply was rejected,
			// never took part: the debate is its failure, not an outcome.
			wantOutcome(t, o, debate.Unavailable, debate.RuleUnavailable, debate.ActionEscalate, "")
			if o.Unavailable == nil || o.Unavailable.Agent != "Critic" || o.Unavailable.Kind != debate.UnavailableFailed || !strings.Contains(o.Unavailable.Detail, tc.reason) {
				t.Fatalf("unavailable %+v, want Critic, failed, %q", o.Unavailable, tc.reason)
			}
		})
	}
}

func TestBadReplyCorrectedOnSecondAttempt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(1, 6000),
		att("Critic", `{"turns":[{"round":1,"position":"Keys leak time","counter_to":"x","confidence_change":-1,"reply_round":3,"wrong_attempts":1}]}`),
		def("Proposer", turns("1|Use UUIDv7 keys|")))
	_, j := h.run()
	want := []string{"open", "request:Critic", "rejected:Critic", "request:Critic", "turn:Critic", "request:Proposer", "turn:Proposer", "verdict"}
	if got := kinds(t, j.Events()); !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
}

func TestTurnRecordTokensAndEvidence(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(1, 60000),
		att("Critic", `{"turns":[{"round":1,"position":"Keys leak time","counter_to":"x","confidence_change":-1,"tokens":2500,
			"evidence_refs":["main.go","main.go:3","main.go:2-4","main.go:9","../secret","/etc/passwd","nope.go:1","https://example.com/rfc","[[some page]]","what?:0"]}]}`),
		def("Proposer", `{"turns":[{"round":1,"position":"Use UUIDv7 keys","text":"`+strings.Repeat("x", 398)+`"}]}`))
	if err := os.WriteFile(filepath.Join(h.session.Workspace, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o, _ := h.run()
	crit, prop := o.Turns[0], o.Turns[1]
	if crit.Tokens != 2500 || crit.TokensEstimated || !crit.OverBudget {
		t.Errorf("critic tokens %d estimated %v over %v", crit.Tokens, crit.TokensEstimated, crit.OverBudget)
	}
	// "Use UUIDv7 keys" (15) + 398 characters = 413 → ceil(413/4) = 104.
	if prop.Tokens != 104 || !prop.TokensEstimated || prop.OverBudget {
		t.Errorf("proposer tokens %d estimated %v over %v", prop.Tokens, prop.TokensEstimated, prop.OverBudget)
	}
	if o.Tokens != 2604 {
		t.Errorf("tokens %d, want 2604 (an over-budget turn counts in full)", o.Tokens)
	}
	got := map[string]debate.EvidenceStatus{}
	for _, e := range crit.Evidence {
		got[e.Ref] = e.Status
	}
	want := map[string]debate.EvidenceStatus{
		"main.go": debate.EvidenceOK, "main.go:3": debate.EvidenceOK, "main.go:2-4": debate.EvidenceOutOfRange,
		"main.go:9": debate.EvidenceOutOfRange, "../secret": debate.EvidenceOutside, "/etc/passwd": debate.EvidenceOutside,
		"nope.go:1": debate.EvidenceMissing, "https://example.com/rfc": debate.EvidenceUnchecked,
		"[[some page]]": debate.EvidenceUnchecked, "what?:0": debate.EvidenceInvalid,
	}
	for ref, st := range want {
		if got[ref] != st {
			t.Errorf("%s: %s, want %s", ref, got[ref], st)
		}
	}
}

func TestStrayAndDuplicateRepliesIgnored(t *testing.T) {
	t.Parallel()
	var h *harness
	// The critic answers each request twice; an intruder answers too.
	double := party{name: "Critic", role: debate.RoleAttacker, respond: func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		return &agent.Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "Keys leak time", CounterTo: "x", ConfidenceChange: -1}}, nil
	}}
	h = newHarness(t, budgetOf(1, 6000), double, def("Proposer", turns("1|Use UUIDv7 keys|")))
	ctx := context.Background()
	// A stray debate_turn from someone not in the debate, sent before anything.
	stray, _ := debate.NewTurnMessage("Intruder", &inbox.Message{ID: "00000000-0000-4000-8000-000000000000", From: h.session.Coordinator}, "x:r1:attacker1:a1", &debate.Turn{DebateID: h.session.ID, Round: 1, Role: debate.RoleAttacker, Position: "evil"})
	stray.ReplyTo = debate.RequestMessageID(debate.RequestID(h.session.ID, 1, debate.Speaker{Participant: debate.Participant{Role: debate.RoleAttacker}}, 1), "")
	_ = h.tr.Create(ctx, h.session.Coordinator)
	if err := h.tr.Send(ctx, stray); err != nil {
		t.Fatal(err)
	}
	o, j := h.run()
	if o.Turns[0].Position != "Keys leak time" || o.Turns[0].Agent != "Critic" {
		t.Fatalf("the intruder's reply was taken: %+v", o.Turns[0])
	}
	if got := kinds(t, j.Events()); slices.Contains(got, "rejected:Critic") {
		t.Fatalf("a stray reply counted against the critic: %v", got)
	}
}

func TestResumeAfterEveryCrashPoint(t *testing.T) {
	t.Parallel()
	parties := func() []party {
		return []party{
			att("Alpha", turns("1|A1|Use UUIDv7 keys|-1", "2|A2|x|-1", "3|A3|x|-1")),
			att("Beta", `{"turns":[{"round":1,"position":"B1","counter_to":"x","confidence_change":-1,"reply_round":9,"wrong_attempts":1},{"round":2,"position":"B2","counter_to":"x","confidence_change":-1},{"round":3,"position":"B3","counter_to":"x","confidence_change":-1}]}`),
			def("Proposer", turns("1|P1|", "2|P2|", "3|P3|")),
		}
	}
	ref := newHarness(t, budgetOf(3, 60000), parties()...)
	want, wantJ := ref.run()
	total := len(wantJ.Events())
	for crashAt := 1; crashAt < total; crashAt++ {
		for _, after := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d-after-%v", crashAt, after), func(t *testing.T) {
				t.Parallel()
				resumeAfterCrash(t, parties(), crashAt, after, want)
			})
		}
	}
}

// resumeAfterCrash runs a debate whose journal fails its crashAt-th append
// (before or after recording it), resumes it, and compares the outcome with
// the uninterrupted one.
func resumeAfterCrash(t *testing.T, parties []party, crashAt int, after bool, want *debate.Outcome) {
	h := newHarness(t, budgetOf(3, 60000), parties...)
	j := &crashJournal{MemJournal: debate.NewMemJournal(), at: crashAt, after: after}
	_, err := h.coordinator(j).Start(context.Background(), h.session)
	if !errors.Is(err, errCrash) {
		t.Fatalf("crash at %d: %v", crashAt, err)
	}
	if crashAt == 1 && !after {
		// The debate never opened: there is nothing to resume.
		if _, err := h.coordinator(debate.NewMemJournal(j.Events()...)).Resume(context.Background()); !errors.Is(err, debate.ErrCorrupt) {
			t.Fatalf("resume of an unopened debate: %v", err)
		}
		return
	}
	j2 := debate.NewMemJournal(j.Events()...)
	o, err := h.coordinator(j2).Resume(context.Background())
	if err != nil {
		t.Fatalf("crash at %d (after %v): resume: %v", crashAt, after, err)
	}
	if o.Verdict != want.Verdict || o.Tokens != want.Tokens || !slices.Equal(turnLines(o.Turns), turnLines(want.Turns)) {
		t.Fatalf("crash at %d (after %v): %s tokens %d turns %v; want %s %d %v", crashAt, after, o.Verdict, o.Tokens, turnLines(o.Turns), want.Verdict, want.Tokens, turnLines(want.Turns))
	}
	var turnsRecorded int
	for _, e := range j2.Events() {
		if e.Kind == debate.EventTurn {
			turnsRecorded++
		}
	}
	if turnsRecorded != len(want.Turns) {
		t.Fatalf("crash at %d: %d turn events, want %d (a turn counted twice)", crashAt, turnsRecorded, len(want.Turns))
	}
}

var errCrash = errors.New("crash")

// crashJournal fails its at-th append: before the event is recorded, or
// after (the event is durable but the coordinator never learns it).
type crashJournal struct {
	*debate.MemJournal
	at    int
	after bool
	n     int
}

func (j *crashJournal) Append(ctx context.Context, kind debate.EventKind, elapsed int64, data any) (debate.Event, error) {
	j.n++
	if j.n == j.at {
		if j.after {
			_, _ = j.MemJournal.Append(ctx, kind, elapsed, data)
		}
		return debate.Event{}, errCrash
	}
	return j.MemJournal.Append(ctx, kind, elapsed, data)
}

func TestResumeClosedDebate(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(3, 6000), att("Critic", turns("1|||0")), def("Proposer", turns("1|P|")))
	h.filer.fail = errNope
	j := debate.NewMemJournal()
	if _, err := h.coordinator(j).Start(context.Background(), h.session); !errors.Is(err, errNope) {
		t.Fatalf("a failed filing must fail the debate: %v", err)
	}
	if j.Sealed() || kinds(t, j.Events())[len(j.Events())-1] != "verdict" {
		t.Fatalf("verdict recorded but not sealed expected: %v", kinds(t, j.Events()))
	}
	h.filer.fail = nil
	o, err := h.coordinator(j).Resume(context.Background())
	if err != nil || o.Verdict != debate.ConsensusReached || !j.Sealed() || h.filer.count() != 1 || o.Session == nil || len(o.Turns) != 1 {
		t.Fatalf("re-filing: %v %+v sealed %v filed %d", err, o, j.Sealed(), h.filer.count())
	}
	n := len(j.Events())
	o2, err := h.coordinator(j).Resume(context.Background())
	if err != nil || o2.Verdict != o.Verdict || len(j.Events()) != n || h.filer.count() != 1 {
		t.Fatalf("resuming a sealed debate changed something: %v", err)
	}
}

func TestResumeCountsActiveTimeOnly(t *testing.T) {
	t.Parallel()
	b := budgetOf(3, 6000)
	b.MaxWallClockMs = 5000
	h := newHarness(t, b, att("Critic", turns("1|X|y|-1")), def("Proposer", `{"turns":[{"round":1,"position":"P","delay_ms":60000}]}`))
	// A journal whose last event was at 4900 ms: 100 ms remain, whatever
	// the wall time since.
	j := debate.NewMemJournal()
	ctx := context.Background()
	if _, err := j.Append(ctx, debate.EventOpen, 0, h.session); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(ctx, debate.EventResume, 4900, debate.ResumeEvent{}); err != nil {
		t.Fatal(err)
	}
	o, err := h.coordinator(j).Resume(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantOutcome(t, o, debate.Timeout, debate.RuleWallClock, debate.ActionEscalate, "")
	if o.ElapsedMs < 5000 || o.ElapsedMs > 5000+30000 {
		t.Fatalf("elapsed %d", o.ElapsedMs)
	}
}

func TestStartValidates(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(3, 6000), att("Critic", turns("1|||0")), def("Proposer", turns("1|P|")))
	bad := *h.session
	bad.Participants = bad.Participants[:1]
	_, err := h.coordinator(debate.NewMemJournal()).Start(context.Background(), &bad)
	if !errors.Is(err, debate.ErrInvalidSession) {
		t.Fatalf("a debate without a defender started: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	slow := newHarness(t, budgetOf(3, 6000), att("Critic", `{"turns":[{"round":1,"position":"X","delay_ms":60000}]}`), def("Proposer", turns("1|P|")))
	j := debate.NewMemJournal()
	if _, err := slow.coordinator(j).Start(ctx, slow.session); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled debate: %v", err)
	}
}

// smallMessenger refuses messages over limit bytes as the messenger
// refuses those over inbox.MaxMessageBytes, so that the tests of what a
// coordinator leaves out of a request need no megabyte messages.
type smallMessenger struct {
	debate.Messenger
	limit int
}

func (m smallMessenger) Send(ctx context.Context, msg *inbox.Message) error {
	data, err := msg.Encode()
	if err != nil {
		return err
	}
	if len(data) > m.limit {
		return fmt.Errorf("%w: %d bytes, limit %d", inbox.ErrTooLarge, len(data), m.limit)
	}
	return m.Messenger.Send(ctx, msg)
}

// runSmall runs h's debate through a messenger that refuses messages over
// limit bytes.
func (h *harness) runSmall(limit int) *debate.Outcome {
	h.t.Helper()
	c := h.coordinator(debate.NewMemJournal())
	c.Messenger = smallMessenger{Messenger: h.tr, limit: limit}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := c.Start(ctx, h.session)
	if err != nil {
		h.t.Fatalf("debate: %v", err)
	}
	return o
}

// An agent citing many long evidence references makes a transcript too
// large for a turn_request even with every argument and the context left
// out: the request leaves out the turns' evidence, and the debate goes on
// to its verdict instead of stopping (a resume would stop at the same
// place for ever).
func TestRequestsLeaveOutEvidenceToFit(t *testing.T) {
	t.Parallel()
	var refs []string
	for i := 0; i < debate.MaxEvidenceRefs; i++ {
		refs = append(refs, fmt.Sprintf("%03d-%s.go:1", i, strings.Repeat("x", 100)))
	}
	rj, _ := json.Marshal(refs)
	h := newHarness(t, budgetOf(2, 100000),
		att("Critic", `{"turns":[{"round":1,"position":"a","counter_to":"c","confidence_change":-1,"tokens":10,"evidence_refs":`+string(rj)+`},
			{"round":2,"position":"b","counter_to":"c","confidence_change":-1,"tokens":10}]}`),
		def("Proposer", `{"turns":[{"round":1,"position":"P1","tokens":10},{"round":2,"position":"P2","tokens":10}]}`))
	h.session.Context = []debate.ContextItem{{Kind: "text", Ref: "ctx", Text: strings.Repeat("c", 8<<10)}}
	o := h.runSmall(16 << 10)
	if o.Verdict != debate.BudgetExhausted || o.Rounds != 2 || len(o.Turns) != 4 || len(o.Turns[0].Evidence) != debate.MaxEvidenceRefs {
		t.Fatalf("outcome %s/%s after %d rounds, %d turns: %s", o.Verdict, o.Rule, o.Rounds, len(o.Turns), o.Reason)
	}
}

// The spec under debate outlasts the turns' evidence: a critic citing a
// hundred long references each round pushes the requests over the size
// limit, and the requests leave out the evidence (already checked and
// recorded), not the document the agents argue about. (They left out the
// context first: from the defender's turn of round 1 on, neither side was
// handed the spec, without a word.)
func TestRequestsKeepTheContextOverTheEvidence(t *testing.T) {
	t.Parallel()
	var refs []string
	for i := 0; i < debate.MaxEvidenceRefs; i++ {
		refs = append(refs, fmt.Sprintf("docs/%03d-%s.md:1", i, strings.Repeat("x", 60)))
	}
	spec := strings.Repeat("Keys are UUIDv7 and expire after 24 h.\n", 100)
	var mu sync.Mutex
	handed := map[string]int{}
	respond := func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		mu.Lock()
		for _, c := range req.Context {
			if c.Text == spec {
				handed[fmt.Sprintf("%s r%d", req.Role, req.Round)]++
			}
		}
		mu.Unlock()
		t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "Use UUIDv7 keys", EvidenceRefs: refs, Tokens: 10}
		if req.Role == debate.RoleAttacker {
			t.Position, t.CounterTo, t.ConfidenceChange = fmt.Sprintf("Objection %d", req.Round), req.Position, -1
		}
		return &agent.Reply{Turn: t}, nil
	}
	b := budgetOf(3, 100000)
	b.ConvergenceRounds = 5
	h := newHarness(t, b,
		party{name: "Critic", role: debate.RoleAttacker, respond: respond},
		party{name: "Proposer", role: debate.RoleDefender, respond: respond})
	h.session.Context = []debate.ContextItem{{Kind: "file", Ref: "docs/spec.md", Text: spec}}
	o := h.runSmall(24 << 10)
	if o.Verdict != debate.BudgetExhausted || o.Rounds != 3 || len(o.Turns) != 6 {
		t.Fatalf("outcome %s/%s after %d rounds, %d turns: %s", o.Verdict, o.Rule, o.Rounds, len(o.Turns), o.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, turn := range []string{"attacker r1", "defender r1", "attacker r2", "defender r2", "attacker r3", "defender r3"} {
		if handed[turn] != 1 {
			t.Errorf("the %s request carried the spec %d times, want once (all: %v)", turn, handed[turn], handed)
		}
	}
}

// Many turns of long positions pass the size limit with nothing else left
// to leave out: the oldest turns go, the standing position stays.
func TestRequestsLeaveOutTheOldestTurnsToFit(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", 1000)
	const rounds = 8
	var seen []int
	respond := func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		if req.Role == debate.RoleDefender {
			seen = append(seen, len(req.Transcript))
			if req.Round > 1 && !strings.HasPrefix(req.Position, fmt.Sprintf("P%d", req.Round-1)) {
				return nil, fmt.Errorf("standing position lost: %.20q", req.Position)
			}
		}
		pos := fmt.Sprintf("A%d%s", req.Round, long)
		counter := long
		if req.Role == debate.RoleDefender {
			pos, counter = fmt.Sprintf("P%d%s", req.Round, long), ""
		}
		return &agent.Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role,
			Position: pos, CounterTo: counter, ConfidenceChange: -1, Tokens: 10}}, nil
	}
	h := newHarness(t, budgetOf(rounds, 100000),
		party{name: "Critic", role: debate.RoleAttacker, respond: respond},
		party{name: "Proposer", role: debate.RoleDefender, respond: respond})
	o := h.runSmall(16 << 10)
	if o.Verdict != debate.BudgetExhausted || o.Rounds != rounds || len(o.Turns) != 2*rounds {
		t.Fatalf("outcome %s/%s after %d rounds, %d turns: %s", o.Verdict, o.Rule, o.Rounds, len(o.Turns), o.Reason)
	}
	if last := seen[len(seen)-1]; last >= 2*rounds-1 || last == 0 {
		t.Fatalf("the last request held %d turns (%v), want some left out, not all", last, seen)
	}
}

// fullDisk is a journal whose disk a test fills: Writable fails once full.
type fullDisk struct {
	*debate.MemJournal
	mu   sync.Mutex
	full bool
}

func (j *fullDisk) Writable() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.full {
		return &debate.StorageError{DebateID: "d", Path: "debates/d/transcript.jsonl", Err: syscall.ENOSPC}
	}
	return nil
}

// TestAnAgentOnAFullDiskIsNotBlamed: an agent that stops answering because
// the disk is full (its reply cannot be written) is not recorded as dead:
// the debate stops with the disk's error, resumable, no forfeit recorded.
func TestAnAgentOnAFullDiskIsNotBlamed(t *testing.T) {
	t.Parallel()
	var h *harness
	j := &fullDisk{MemJournal: debate.NewMemJournal()}
	dying := party{name: "Proposer", role: debate.RoleDefender, respond: func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		if req.Round == 2 {
			// The disk fills: the agent cannot write its reply and exits.
			j.mu.Lock()
			j.full = true
			j.mu.Unlock()
			h.presence.kill("Proposer")
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &agent.Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "Use UUIDv7 keys, hashed"}}, nil
	}}
	h = newHarness(t, budgetOf(3, 6000), att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide|x|-1")), dying)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := h.coordinator(j).Start(ctx, h.session)
	if !errors.Is(err, debate.ErrStorage) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("the debate ended with %v, want the disk's error", err)
	}
	for _, k := range kinds(t, j.Events()) {
		if strings.HasPrefix(k, "forfeit") || strings.HasPrefix(k, "verdict") {
			t.Errorf("recorded %s", k)
		}
	}
}

// stopAfter runs the debate on j until d has passed, as Ctrl-C stops it,
// with the coordinator's checkpoint interval (0: the default).
func (h *harness) stopAfter(j debate.Journal, d, checkpoint time.Duration) {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := h.coordinator(j)
	c.CheckpointInterval = checkpoint
	// d after the debate opened, by the coordinator's own clock: it ran
	// at least d when it is stopped, however late this machine started it.
	var once sync.Once
	var stop *time.Timer
	c.Progress = func(p debate.Progress) {
		if p.Event.Kind == debate.EventOpen {
			once.Do(func() { stop = time.AfterFunc(d, cancel) })
		}
	}
	defer func() {
		if stop != nil {
			stop.Stop()
		}
	}()
	if _, err := c.Start(ctx, h.session); !errors.Is(err, context.Canceled) {
		h.t.Fatalf("stopped debate: %v, want context.Canceled", err)
	}
}

// The wall clock counts the time a coordinator spent waiting on a turn
// that never came, when it was stopped (Ctrl-C): it records that time
// before it returns, and a resumed debate goes on from there — however
// long it was stopped — rather than from its latest turn or request.
func TestResumeCountsTheActiveTimeBeforeAStop(t *testing.T) {
	t.Parallel()
	b := budgetOf(3, 6000)
	b.MaxWallClockMs = 2000
	h := newHarness(t, b,
		att("Critic", `{"turns":[{"round":1,"position":"Keys leak creation time","delay_ms":60000}]}`),
		def("Proposer", turns("1|Use UUIDv7 keys")))
	j := debate.NewMemJournal()
	h.stopAfter(j, time.Second, 0)
	events := j.Events()
	last := events[len(events)-1]
	var c debate.ClockEvent
	if err := json.Unmarshal(last.Data, &c); err != nil || last.Kind != debate.EventClock || c.Reason != debate.ClockStopped || c.Detail != "interrupted" {
		t.Fatalf("the stopped coordinator's last event: %s %s (%v), want a clock event: stopped: interrupted", last.Kind, last.Data, err)
	}
	if last.ElapsedMs < 1000 {
		t.Fatalf("the stopped coordinator recorded %d ms of active time, want at least the 1000 it ran", last.ElapsedMs)
	}
	st, err := debate.Replay(events)
	if err != nil || st.ElapsedMs != last.ElapsedMs {
		t.Fatalf("replayed: %v, %d ms; want %d ms", err, st.ElapsedMs, last.ElapsedMs)
	}

	j2 := debate.NewMemJournal(events...)
	o, err := h.coordinator(j2).Resume(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantOutcome(t, o, debate.Timeout, debate.RuleWallClock, debate.ActionEscalate, "")
	if resumed := j2.Events()[len(events)]; resumed.Kind != debate.EventResume || resumed.ElapsedMs < last.ElapsedMs {
		t.Fatalf("resumed with a %s event at %d ms, want a resume at %d ms or later", resumed.Kind, resumed.ElapsedMs, last.ElapsedMs)
	}
}

// A coordinator killed with -9 records nothing as it dies: while it waits
// it records its active time every checkpoint interval, so that a resumed
// debate loses at most that much of the wall clock.
func TestResumeAfterAKillLosesAtMostACheckpoint(t *testing.T) {
	t.Parallel()
	b := budgetOf(3, 6000)
	b.MaxWallClockMs = 2000
	h := newHarness(t, b,
		att("Critic", `{"turns":[{"round":1,"position":"Keys leak creation time","delay_ms":60000}]}`),
		def("Proposer", turns("1|Use UUIDv7 keys")))
	j := debate.NewMemJournal()
	h.stopAfter(j, time.Second, 100*time.Millisecond)
	// Killed with -9: no stop event.
	events := j.Events()
	events = events[:len(events)-1]
	if k := kinds(t, events); !slices.Contains(k, string(debate.EventClock)) {
		t.Fatalf("no checkpoint in %v", k)
	}
	st, err := debate.Replay(events)
	if err != nil {
		t.Fatal(err)
	}
	// 1000 ms less a checkpoint interval, with room for a loaded machine.
	if st.ElapsedMs < 500 {
		t.Fatalf("a killed coordinator's checkpoints keep %d ms of the 1000 it ran", st.ElapsedMs)
	}
	j2 := debate.NewMemJournal(events...)
	o, err := h.coordinator(j2).Resume(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantOutcome(t, o, debate.Timeout, debate.RuleWallClock, debate.ActionEscalate, "")
	if resumed := j2.Events()[len(events)]; resumed.Kind != debate.EventResume || resumed.ElapsedMs < st.ElapsedMs {
		t.Fatalf("resumed with a %s event at %d ms, want a resume at %d ms or later", resumed.Kind, resumed.ElapsedMs, st.ElapsedMs)
	}
}

package debate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// recFiler is a Filer that remembers what it filed.
type recFiler struct {
	mu    sync.Mutex
	filed []*debate.Outcome
	fail  error
}

func (f *recFiler) File(ctx context.Context, o *debate.Outcome) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return "", f.fail
	}
	f.filed = append(f.filed, o)
	return "wiki/consensus/" + string(o.Session.Layer) + "-test.md", nil
}

func (f *recFiler) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.filed)
}

// deadSet is a Presence whose dead agents a test chooses.
type deadSet struct {
	mu   sync.Mutex
	dead map[string]bool
}

func (p *deadSet) Alive(ctx context.Context, agent string) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.dead[agent], nil
}

func (p *deadSet) kill(agent string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead == nil {
		p.dead = map[string]bool{}
	}
	p.dead[agent] = true
}

func (p *deadSet) revive(agent string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.dead, agent)
}

// party is one participant of a test debate and its script.
type party struct {
	name   string
	role   debate.Role
	script string // JSON of an agent.Script
	// respond, when set, replaces the script.
	respond agent.ResponderFunc
}

func att(name, script string) party {
	return party{name: name, role: debate.RoleAttacker, script: script}
}
func def(name, script string) party {
	return party{name: name, role: debate.RoleDefender, script: script}
}

// turns writes a script from entries "round|position|counter_to|confidence|tokens".
func turns(entries ...string) string {
	var out []string
	for _, e := range entries {
		f := strings.Split(e, "|")
		for len(f) < 5 {
			f = append(f, "")
		}
		cc, tokens := f[3], f[4]
		if cc == "" {
			cc = "0"
		}
		if tokens == "" {
			tokens = "100"
		}
		out = append(out, fmt.Sprintf(`{"round":%s,"position":%q,"counter_to":%q,"confidence_change":%s,"tokens":%s,"text":"because"}`, f[0], f[1], f[2], cc, tokens))
	}
	return `{"turns":[` + strings.Join(out, ",") + `]}`
}

type harness struct {
	t        testing.TB
	tr       *inbox.MemTransport
	session  *debate.DebateSession
	filer    *recFiler
	presence *deadSet
	stops    []func()
}

var idSeq struct {
	sync.Mutex
	n int
}

func newHarness(t testing.TB, b debate.ConsensusBudget, parties ...party) *harness {
	t.Helper()
	idSeq.Lock()
	idSeq.n++
	n := idSeq.n
	idSeq.Unlock()
	id := fmt.Sprintf("20260101-spec-test-%06d", n)
	id = id[:len(id)-6] + strings.Map(func(r rune) rune { return 'a' + (r - '0') }, id[len(id)-6:])
	h := &harness{t: t, tr: inbox.NewMemTransport(), filer: &recFiler{}, presence: &deadSet{}}
	h.session = &debate.DebateSession{
		ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Position: "Use UUIDv7 keys",
		Budget: b, Created: inbox.Now(), Coordinator: debate.CoordinatorName(id), Workspace: t.TempDir(),
	}
	for _, p := range parties {
		h.session.Participants = append(h.session.Participants, debate.Participant{Name: p.name, Role: p.role, Agent: "script:test"})
		h.startAgent(p)
	}
	t.Cleanup(h.stop)
	return h
}

func (h *harness) startAgent(p party) {
	h.t.Helper()
	var resp agent.Responder = p.respond
	if p.respond == nil {
		s, err := agent.ParseScript([]byte(p.script))
		if err != nil {
			h.t.Fatalf("script of %s: %v", p.name, err)
		}
		resp = s
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	r := &agent.Runner{Name: p.name, Roles: []debate.Role{p.role}, Transport: h.tr, Responder: resp, Ready: func() { close(ready) }}
	go func() { done <- r.Run(ctx) }()
	select {
	case <-ready:
	case err := <-done:
		h.t.Fatalf("agent %s: %v", p.name, err)
	}
	h.stops = append(h.stops, func() {
		cancel()
		if err := <-done; err != nil {
			h.t.Errorf("agent %s: %v", p.name, err)
		}
	})
}

func (h *harness) stop() {
	for _, s := range h.stops {
		s()
	}
	h.stops = nil
}

func budgetOf(rounds, tokens int) debate.ConsensusBudget {
	return debate.ConsensusBudget{MaxRounds: rounds, MaxTokens: tokens, MaxTokensPerRound: 2000, MaxWallClockMs: 60000, ConvergenceRounds: 1}
}

func (h *harness) coordinator(j debate.Journal) *debate.Coordinator {
	return &debate.Coordinator{Messenger: h.tr, Journal: j, Filer: h.filer, Presence: h.presence, PresenceInterval: 20 * time.Millisecond}
}

// run runs the debate to its verdict on a fresh journal.
func (h *harness) run() (*debate.Outcome, *debate.MemJournal) {
	h.t.Helper()
	j := debate.NewMemJournal()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := h.coordinator(j).Start(ctx, h.session)
	if err != nil {
		h.t.Fatalf("debate: %v", err)
	}
	return o, j
}

// kinds lists the journal's event kinds, with the agent for requests,
// turns, rejections and forfeits: "request:A1".
func kinds(t testing.TB, events []debate.Event) []string {
	t.Helper()
	var out []string
	for _, e := range events {
		var who struct {
			Agent  string `json:"agent"`
			Reason string `json:"reason"`
		}
		_ = json.Unmarshal(e.Data, &who)
		switch e.Kind {
		case debate.EventRequest, debate.EventTurn, debate.EventRejected:
			out = append(out, string(e.Kind)+":"+who.Agent)
		case debate.EventForfeit:
			out = append(out, "forfeit:"+who.Agent+":"+who.Reason)
		default:
			out = append(out, string(e.Kind))
		}
	}
	return out
}

// turnLine is what "the same sequence of turns" compares.
func turnLines(ts []debate.TurnRecord) []string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("r%d %s %s %q %d", t.Round, t.Role, t.Agent, t.Position, t.Tokens))
	}
	return out
}

func wantOutcome(t testing.TB, o *debate.Outcome, v debate.Verdict, rule debate.Rule, action debate.Action, final string) {
	t.Helper()
	if o.Verdict != v || o.Rule != rule || o.Action != action || o.FinalPosition != final {
		t.Fatalf("got %s/%s/%s final %q (%s); want %s/%s/%s final %q", o.Verdict, o.Rule, o.Action, o.FinalPosition, o.Reason, v, rule, action, final)
	}
}

var errNope = errors.New("nope")

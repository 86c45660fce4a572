package agent_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/openaitest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
)

type nopFiler struct{}

func (nopFiler) File(ctx context.Context, o *debate.Outcome) (string, error) {
	return "wiki/consensus/" + o.DebateID + ".md", nil
}

const opening = "Use a client-supplied Idempotency-Key header, claimed atomically"

// openaiDebate runs a whole debate whose defender and attacker are openai
// adapters served by one fake endpoint, each answering from its own Runner
// over an in-memory messenger, and returns the outcome and the journal.
func openaiDebate(t *testing.T, b debate.ConsensusBudget, respond func(r *openaitest.Request) openaitest.Response) (*debate.Outcome, *debate.MemJournal, *openaitest.Server) {
	t.Helper()
	srv := openaitest.New(t, respond)
	tr := inbox.NewMemTransport()
	id := debate.NewID(time.Now(), debate.LayerSpec, "Idempotency keys")
	s := &debate.DebateSession{
		ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Position: opening, Budget: b,
		Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
		Participants: []debate.Participant{
			{Name: "Attacker1-x", Role: debate.RoleAttacker, Agent: "openai:critic-8b"},
			{Name: "Defender-x", Role: debate.RoleDefender, Agent: "openai:proposer-8b"},
		},
	}
	ads := agent.DefaultAdapters().WithOpenAI(func(model string) (agent.OpenAIConfig, error) {
		return agent.OpenAIConfig{ChatSettings: agent.ChatSettings{BaseURL: srv.URL(), MaxRetries: 20}}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	for _, p := range s.Participants {
		sp, err := agent.ParseSpec(p.Agent)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := ads.New(sp)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Create(ctx, p.Name); err != nil {
			t.Fatal(err)
		}
		r := &agent.Runner{Name: p.Name, Roles: []debate.Role{p.Role}, Transport: tr, Responder: resp}
		wg.Add(1)
		go func() { defer wg.Done(); _ = r.Run(ctx) }()
	}
	j := debate.NewMemJournal()
	c := &debate.Coordinator{Messenger: tr, Journal: j, Filer: nopFiler{}}
	o, err := c.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return o, j, srv
}

func turnJSON(position, counter string, cc int) string {
	b, _ := json.Marshal(map[string]any{"position": position, "counter_to": counter, "confidence_change": cc, "evidence_refs": []string{}, "text": "argument"})
	return string(b)
}

// Both sides served by the fake: the critic objects, the proposer holds,
// the critic concedes; the tokens are the completions' usage.
func TestDebateServedByTheFake(t *testing.T) {
	t.Parallel()
	o, _, srv := openaiDebate(t, debate.DefaultBudget(debate.LayerSpec), func(r *openaitest.Request) openaitest.Response {
		round, role := r.Turn()
		switch {
		case role == "defender":
			return openaitest.Reply("Here is my turn:\n```json\n"+turnJSON(opening, "", 0)+"\n```", 800, 90)
		case round == 1:
			return openaitest.Reply(turnJSON("Two concurrent first attempts both run", opening, -1), 700, 120)
		default:
			return openaitest.Reply(turnJSON("", "", 0), 900, 30)
		}
	})
	if o.Verdict != debate.ConsensusReached || o.Rule != debate.RuleConceded || o.FinalPosition != opening {
		t.Fatalf("outcome %+v", o)
	}
	if o.Tokens != 120+90+30 {
		t.Fatalf("tokens %d, want the completions' 240", o.Tokens)
	}
	for _, tu := range o.Turns {
		if tu.TokensEstimated {
			t.Errorf("turn %+v: tokens estimated, want the server's usage", tu)
		}
	}
	// Each request named its model; the defender saw the attack.
	models := map[string]int{}
	for _, r := range srv.Requests() {
		models[r.Model]++
		if _, role := r.Turn(); role == "defender" && !strings.Contains(r.Messages[1].Content, "Two concurrent first attempts both run") {
			t.Errorf("the defender's prompt lacks the attack:\n%s", r.Messages[1].Content)
		}
	}
	if models["critic-8b"] != 2 || models["proposer-8b"] != 1 {
		t.Errorf("requests per model %v", models)
	}
}

// Usage tokens count against the budget: large completions exhaust it.
func TestDebateUsageCountsAgainstTheBudget(t *testing.T) {
	t.Parallel()
	b := debate.DefaultBudget(debate.LayerSpec) // 6000 tokens, 2000 per agent per round
	// Replies long enough to hold 2500 tokens: a count past max_tokens
	// (the allowance left) that the text cannot hold is not believed.
	long := strings.Repeat("word ", 200)
	o, _, _ := openaiDebate(t, b, func(r *openaitest.Request) openaitest.Response {
		round, role := r.Turn()
		if role == "defender" {
			return openaitest.Reply(turnJSON(opening, "", 0)+long, 100, 2500)
		}
		return openaitest.Reply(turnJSON("Objection "+string(rune('A'+round)), opening, -1)+long, 100, 2500)
	})
	if o.Verdict != debate.BudgetExhausted || o.Rule != debate.RuleMaxTokens || o.Tokens != 7500 {
		t.Fatalf("outcome %+v", o)
	}
	for _, tu := range o.Turns {
		if !tu.OverBudget || tu.Tokens != 2500 {
			t.Errorf("turn %+v: want 2500 tokens flagged over_budget", tu)
		}
	}
}

// An attacker whose model never sends JSON: each request is asked twice
// (one re-ask), the coordinator rejects the failure reply and asks once
// more, then forfeits the turn; it never counts as a concession. Never
// heard, the attacker is unavailable: the debate is its failure, not a
// BUDGET_EXHAUSTED to file.
func TestDebateMalformedAttackerForfeits(t *testing.T) {
	t.Parallel()
	b := debate.DefaultBudget(debate.LayerSpec)
	b.MaxRounds = 1
	o, j, srv := openaiDebate(t, b, func(r *openaitest.Request) openaitest.Response {
		if _, role := r.Turn(); role == "defender" {
			return openaitest.Reply(turnJSON(opening, "", 0), 10, 10)
		}
		return openaitest.Reply("Honestly I have doubts but cannot say which.", 10, 10)
	})
	if o.Verdict != debate.Unavailable || o.Verdict.Filed() || o.Unavailable == nil || o.Unavailable.Agent != "Attacker1-x" ||
		!strings.Contains(o.Unavailable.Detail, "the reply holds no JSON object") {
		t.Fatalf("outcome %s (%s), unavailable %+v; want UNAVAILABLE naming Attacker1-x and why", o.Verdict, o.Reason, o.Unavailable)
	}
	var rejected, forfeits int
	for _, e := range j.Events() {
		switch e.Kind {
		case debate.EventRejected:
			var r debate.RejectedEvent
			_ = json.Unmarshal(e.Data, &r)
			// The cause shows within the 120 characters of the line a
			// terminal prints for a rejected reply.
			if shown := clip.Line(r.Reason, 120); !strings.Contains(shown, "No turn from the openai agent: the reply holds no JSON object") {
				t.Errorf("the rejection does not say, in its first 120 characters, why the agent had no turn: %q", r.Reason)
			}
			rejected++
		case debate.EventForfeit:
			var f debate.ForfeitEvent
			_ = json.Unmarshal(e.Data, &f)
			if f.Reason != debate.ForfeitBadReply || f.Role != debate.RoleAttacker {
				t.Errorf("forfeit %+v", f)
			}
			forfeits++
		}
	}
	attackerRequests := 0
	for _, r := range srv.Requests() {
		if _, role := r.Turn(); role == "attacker" {
			attackerRequests++
		}
	}
	if rejected != 2 || forfeits != 1 || attackerRequests != 4 {
		t.Fatalf("rejected %d, forfeits %d, attacker requests %d; want 2, 1, 4", rejected, forfeits, attackerRequests)
	}
}

// A server that answers 500 until the debate's wall clock runs out: once
// the next retry would come after the turn's deadline, the agent gives up
// and is unavailable, the 500 named, rather than sleeping the clock out
// into a TIMEOUT that says nothing of the server. The clock leaves room
// for three retries (backoffs of at most 0.5, 1 and 2 s) and the 2 s or
// more of the fourth is then always past it, by half a second or more.
func TestDebate500UntilTheDeadlineIsUnavailable(t *testing.T) {
	t.Parallel()
	b := debate.DefaultBudget(debate.LayerSpec)
	b.MaxWallClockMs = 4000
	o, _, srv := openaiDebate(t, b, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Status(500, "overloaded")
	})
	if o.Verdict != debate.Unavailable || o.Unavailable == nil || o.Unavailable.Kind != debate.UnavailableServer ||
		o.Unavailable.Status != 500 || !strings.Contains(o.Unavailable.Detail, "overloaded") {
		t.Fatalf("outcome %s (%s), unavailable %+v; want UNAVAILABLE naming the 500", o.Verdict, o.Reason, o.Unavailable)
	}
	if len(srv.Requests()) < 2 {
		t.Fatalf("%d requests: the adapter did not retry", len(srv.Requests()))
	}
}

// An attacker whose model answers every request with empty content has
// failed, not argued: asked once more by its Runner, it reports itself
// unavailable (kind failed, with a hint about the model server), and the
// debate ends UNAVAILABLE rather than being filed as exhausted, as it does
// for an exec agent whose command fails twice.
func TestDebateEmptyRepliesAreUnavailable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		answer openaitest.Response
		detail string
	}{
		{"empty content", openaitest.Reply("", 10, 0), "sent no text"},
		{"cut before any text", openaitest.Response{Body: `{"choices":[{"message":{"content":""},"finish_reason":"length"}]}`}, "raise openai.maxTokens"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o, _, srv := openaiDebate(t, debate.DefaultBudget(debate.LayerSpec), func(r *openaitest.Request) openaitest.Response {
				if _, role := r.Turn(); role == "defender" {
					return openaitest.Reply(turnJSON(opening, "", 0), 10, 10)
				}
				return c.answer
			})
			u := o.Unavailable
			if o.Verdict != debate.Unavailable || u == nil || u.Kind != debate.UnavailableFailed || !strings.HasPrefix(u.Agent, "Attacker1-") {
				t.Fatalf("outcome %s %s, unavailable %+v", o.Verdict, o.Rule, u)
			}
			if !strings.Contains(u.Detail, c.detail) || !strings.Contains(u.Hint, "model server's log") {
				t.Errorf("the cause does not say what failed and what to check: %q; %q", u.Detail, u.Hint)
			}
			attacker := 0
			for _, r := range srv.Requests() {
				if _, role := r.Turn(); role == "attacker" {
					attacker++
				}
			}
			if want := map[string]int{"empty content": 4, "cut before any text": 2}[c.name]; attacker != want {
				t.Errorf("%d attacker requests, want %d", attacker, want)
			}
		})
	}
}

// A server that reports 10^15 completion tokens for a ~100-byte reply is
// not believed: the turns are estimated, and the debate runs to its
// outcome instead of ending BUDGET_EXHAUSTED in round 1.
func TestDebateImpossibleUsageIsEstimated(t *testing.T) {
	t.Parallel()
	o, _, _ := openaiDebate(t, debate.DefaultBudget(debate.LayerSpec), func(r *openaitest.Request) openaitest.Response {
		round, role := r.Turn()
		var content string
		switch {
		case role == "defender":
			content = turnJSON(opening, "", 0)
		case round == 1:
			content = turnJSON("Two concurrent first attempts both run", opening, -1)
		default:
			content = turnJSON("", "", 0)
		}
		return openaitest.Reply(content, 900, 1e15)
	})
	if o.Verdict != debate.ConsensusReached || o.Tokens <= 0 || o.Tokens > 1000 {
		t.Fatalf("outcome %s %s, tokens %d", o.Verdict, o.Rule, o.Tokens)
	}
	for _, tu := range o.Turns {
		if !tu.TokensEstimated {
			t.Errorf("turn %+v: the impossible usage was believed", tu)
		}
	}
}

// A model that declines to answer (the API's "refusal", with no content)
// has not sent an empty reply from a broken server: the agent is
// unavailable with the refusal shown and a hint about the model, without
// a re-ask of a model that already said no.
func TestDebateRefusalIsShown(t *testing.T) {
	t.Parallel()
	o, _, srv := openaiDebate(t, debate.DefaultBudget(debate.LayerSpec), func(r *openaitest.Request) openaitest.Response {
		if _, role := r.Turn(); role == "defender" {
			return openaitest.Reply(turnJSON(opening, "", 0), 10, 10)
		}
		return openaitest.Response{Body: `{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I'm sorry, I cannot help with that."},"finish_reason":"stop"}]}`}
	})
	u := o.Unavailable
	if o.Verdict != debate.Unavailable || u == nil || u.Kind != debate.UnavailableFailed {
		t.Fatalf("outcome %s %s, unavailable %+v", o.Verdict, o.Rule, u)
	}
	if !strings.Contains(u.Detail, "refused") || !strings.Contains(u.Detail, "I'm sorry, I cannot help with that.") ||
		strings.Contains(u.Detail, "sent no text") || !strings.Contains(u.Hint, "another model") {
		t.Errorf("the cause does not show the refusal: %q; %q", u.Detail, u.Hint)
	}
	attacker := 0
	for _, r := range srv.Requests() {
		if _, role := r.Turn(); role == "attacker" {
			attacker++
		}
	}
	if attacker != 2 {
		t.Errorf("%d attacker requests, want 2 (no re-ask after a refusal)", attacker)
	}
}

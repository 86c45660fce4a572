package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
)

// A second LLM provider, "rehearsal", that exists only in this test file:
// its registration below is all it takes for "debate run --agent
// attacker=rehearsal:MODEL" to work, in this process (which checks the
// specs) and in the agent processes the debate starts (this test binary
// standing in for parley, whose init registers it too). Its models are
// scripted actors rather than language models; what they say depends on
// the conversation the turn loop sends, as a model's would:
//
//   - "chair": a defender that restates the standing position it is shown;
//   - "heckler": an attacker whose first request fails with a transient
//     error, whose first answer in round 1 is prose without the reply
//     contract (the loop must re-ask), whose answer to the re-ask is an
//     objection, and who concedes from round 2 on;
//   - "dark": every request fails for good (unreachable, not retryable);
//   - "swamped": every request fails with a transient error, for ever.
//
// Each request leaves a trace line on the agent process's stderr, which
// is the agent's log file under debates/<id>/logs/.
func init() {
	agent.RegisterProvider("rehearsal", agent.Provider{
		Defaults: agent.ChatSettings{MaxRetries: 2},
		Client: func(model string, _ agent.ChatSettings) (agent.ChatClient, error) {
			switch model {
			case "chair", "heckler", "dark", "swamped":
				return &rehearsal{model: model}, nil
			}
			return nil, fmt.Errorf("%w: rehearsal has no model %q", agent.ErrBadSpec, model)
		},
	})
}

type rehearsal struct {
	model string
	calls atomic.Int32
}

// stagehandBusy is a transient failure, worth another try.
type stagehandBusy struct{ wait time.Duration }

func (e stagehandBusy) Error() string                { return "rehearsal: the stage is busy" }
func (e stagehandBusy) Retry() (bool, time.Duration) { return true, e.wait }

var (
	rehearsalRound    = regexp.MustCompile(`round (\d+) of \d+: you are the (\w+)`)
	rehearsalStanding = regexp.MustCompile(`\*\*The defender's standing position:\*\* (.+)`)
)

func (r *rehearsal) Chat(ctx context.Context, req agent.ChatRequest) (agent.ChatReply, error) {
	n := r.calls.Add(1)
	trace := func(what string) { fmt.Fprintf(os.Stderr, "rehearsal %s call %d: %s\n", r.model, n, what) }
	if len(req.Messages) < 2 || req.Messages[0].Role != agent.ChatSystem || req.Messages[1].Role != agent.ChatUser {
		trace("no system and user prompt")
		return agent.ChatReply{}, errors.New("rehearsal: the conversation does not start with a system and a user prompt")
	}
	prompt := req.Messages[1].Content
	m := rehearsalRound.FindStringSubmatch(prompt)
	st := rehearsalStanding.FindStringSubmatch(prompt)
	if m == nil || st == nil {
		trace("the turn prompt names no round or standing position")
		return agent.ChatReply{}, errors.New("rehearsal: no round or standing position in the prompt")
	}
	round, _ := strconv.Atoi(m[1])
	standing := strings.TrimSpace(st[1])
	turn := func(position, counter string, cc, tokens int, text string) (agent.ChatReply, error) {
		b, _ := json.Marshal(map[string]any{"position": position, "counter_to": counter, "confidence_change": cc, "evidence_refs": []string{}, "text": text})
		return agent.ChatReply{Content: "```json\n" + string(b) + "\n```", Usage: agent.Usage{PromptTokens: 900, CompletionTokens: tokens}}, nil
	}
	switch r.model {
	case "dark":
		trace("down")
		return agent.ChatReply{}, fmt.Errorf("%w: the rehearsal room is locked", agent.ErrUnreachable)
	case "swamped":
		trace("busy")
		return agent.ChatReply{}, stagehandBusy{wait: 20 * time.Millisecond}
	case "chair":
		trace(fmt.Sprintf("round %d: holds", round))
		return turn(standing, "", 1, 30, "The objection is answered by the design as it stands.")
	}
	// The heckler.
	switch {
	case n == 1:
		trace("busy")
		return agent.ChatReply{}, stagehandBusy{}
	case round >= 2:
		trace(fmt.Sprintf("round %d: concedes", round))
		return turn("", "", 0, 10, "Nothing left to object to.")
	case len(req.Messages) == 2:
		trace("round 1: prose without the contract")
		return agent.ChatReply{Content: "Honestly, the whole thing worries me, but I would rather not fill in forms.", Usage: agent.Usage{CompletionTokens: 40}}, nil
	}
	// The re-ask: the loop showed the bad reply back and said what was wrong.
	if len(req.Messages) != 4 || req.Messages[2].Role != agent.ChatAssistant || !strings.Contains(req.Messages[2].Content, "fill in forms") ||
		!strings.Contains(req.Messages[3].Content, "could not be used") {
		trace(fmt.Sprintf("an unexpected conversation of %d messages", len(req.Messages)))
		return agent.ChatReply{}, errors.New("rehearsal: an unexpected conversation")
	}
	trace("round 1: objects after the re-ask")
	return turn("Replaying the change feed after an outage serves stale entries for minutes",
		standing, -1, 60, "Nothing bounds the replay lag.")
}

// rehearsalLog is what the rehearsal models of agent (a name prefix) said
// in a debate's agent logs, one entry per request.
func rehearsalLog(t *testing.T, root, debateID, prefix string) []string {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(root, "debates", debateID, "logs", prefix+"*.log"))
	if len(logs) != 1 {
		t.Fatalf("logs of %s: %v", prefix, logs)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if _, what, ok := strings.Cut(l, ": "); ok && strings.HasPrefix(l, "rehearsal ") {
			out = append(out, what)
		}
	}
	return out
}

// A debate between two agents of the test-only provider runs through
// "parley debate run" as any other: the transient failure is retried, the
// malformed reply is repaired by one re-ask, the tokens are the usage the
// provider reported (summed over the re-ask, completion tokens only), and
// the verdict is filed.
func TestDebateWithATestOnlyChatProvider(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	const opening = "Invalidate cache entries on write through a change feed"
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Cache invalidation",
		"--position", opening, "--max-rounds", "4",
		"--agent", "attacker=rehearsal:heckler", "--agent", "defender=rehearsal:chair")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	v := verdictLineOf(t, out)
	if v["verdict"] != string(debate.ConsensusReached) || v["rule"] != string(debate.RuleConceded) || v["final_position"] != opening ||
		v["rounds"] != float64(2) || v["record"] == "" {
		t.Fatalf("verdict line %v", v)
	}
	// Round 1: the heckler's objection (40 + 60 tokens: the bad reply and
	// the repaired one) and the chair's 30; round 2: the concession's 10.
	if v["tokens"] != float64(40+60+30+10) {
		t.Fatalf("tokens %v, want 140 (the provider's completion usage)", v["tokens"])
	}
	var turns []string
	for _, l := range lines(t, out) {
		if l["event"] == string(debate.EventTurn) {
			turns = append(turns, fmt.Sprintf("%v %v %v", l["round"], l["role"], l["tokens"]))
		}
	}
	if want := []string{"1 attacker 100", "1 defender 130", "2 attacker 140"}; fmt.Sprint(turns) != fmt.Sprint(want) {
		t.Errorf("turn events (round, role, tokens so far) %v, want %v", turns, want)
	}
	id := fmt.Sprint(v["debate_id"])
	if got, want := rehearsalLog(t, root, id, "Attacker1-"), []string{
		"busy", "round 1: prose without the contract", "round 1: objects after the re-ask", "round 2: concedes",
	}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the heckler was asked %q, want %q", got, want)
	}
	// The concession closes the debate before the chair's second turn.
	if got := rehearsalLog(t, root, id, "Defender-"); fmt.Sprint(got) != fmt.Sprint([]string{"round 1: holds"}) {
		t.Errorf("the chair was asked %q", got)
	}
}

// An agent of the test-only provider whose requests fail for good, or
// keep failing past the retries, makes the debate end UNAVAILABLE at its
// first request: exit 3, the cause named, nothing filed.
func TestDebateWithATestOnlyChatProviderUnavailable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		model string
		kind  debate.UnavailableKind
		want  string
		// calls is how often the model was asked: once, or 1 + the
		// provider's default MaxRetries (2).
		calls int
	}{
		{"dark", debate.UnavailableUnreachable, "the rehearsal room is locked", 1},
		{"swamped", debate.UnavailableServer, "the stage is busy (gave up after 2 retries)", 3},
	} {
		t.Run(c.model, func(t *testing.T) {
			t.Parallel()
			root := filepath.Join(t.TempDir(), "root")
			start := time.Now()
			out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "plan", "--topic", "Queue sizing",
				"--position", "Size the queue for twice the peak hour", "--timeout", "10m",
				"--agent", "attacker=rehearsal:"+c.model, "--agent", "defender=rehearsal:chair")
			if code != cmdutil.ExitUnavailable {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, cmdutil.ExitUnavailable, out, errs)
			}
			if took := time.Since(start); took > 5*time.Minute {
				t.Fatalf("took %v: the debate waited out the wall clock", took)
			}
			v := verdictLineOf(t, out)
			u, _ := v["unavailable"].(map[string]any)
			if v["verdict"] != string(debate.Unavailable) || v["record"] != "" || u == nil || u["kind"] != string(c.kind) ||
				!strings.HasPrefix(fmt.Sprint(u["agent"]), "Attacker1-") || !strings.Contains(fmt.Sprint(u["detail"]), c.want) {
				t.Fatalf("verdict line %v", v)
			}
			if files := vaultFiles(t, root); len(files) != 0 {
				t.Fatalf("an unavailable debate wrote to the vault: %v", files)
			}
			if got := rehearsalLog(t, root, fmt.Sprint(v["debate_id"]), "Attacker1-"); len(got) != c.calls {
				t.Errorf("asked %d times (%q), want %d", len(got), got, c.calls)
			}
		})
	}
}

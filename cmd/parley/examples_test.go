package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent/openaitest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/escalation"
)

// copyExample copies examples/NAME into a temporary directory, as its
// README says, and returns the copy.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// useOpenAIConfig does "cp config.openai.json config.json", pointing
// openai.baseUrl at the fake server.
func useOpenAIConfig(t *testing.T, dir, baseURL string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "config.openai.json"))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "http://127.0.0.1:11434/v1", baseURL, 1))
	if err := os.WriteFile(filepath.Join(dir, "config.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// fakeDebater is a fake model server that plays any debate: the defender
// restates its standing position; the attacker objects in round 1 and
// concedes after.
func fakeDebater(t *testing.T) *openaitest.Server {
	return openaitest.New(t, func(r *openaitest.Request) openaitest.Response {
		round, role := r.Turn()
		if role == "defender" {
			m := standingRE.FindStringSubmatch(r.Messages[1].Content)
			if m == nil {
				return openaitest.Status(400, "no standing position")
			}
			b, _ := json.Marshal(map[string]any{"position": m[1], "confidence_change": 0, "evidence_refs": []string{}, "text": "It holds."})
			return openaitest.Reply(string(b), 300, 50)
		}
		if round == 1 {
			return openaitest.Reply(`{"position":"An objection worth answering","counter_to":"the standing position","confidence_change":-1,"evidence_refs":[],"text":"Why?"}`, 300, 60)
		}
		return openaitest.Reply(`{"position":"","counter_to":"","confidence_change":0,"text":"No further objections."}`, 300, 10)
	})
}

func verdictLineOf(t *testing.T, out string) map[string]any {
	t.Helper()
	objs := lines(t, out)
	return objs[len(objs)-1]
}

var exampleDebates = map[string]struct {
	layer, topic, position, context string
	attacker, defender              string
	rule, final                     string
	check                           string // a position that contradicts the record
}{
	"spec": {"spec", "Per-tenant rate limiting",
		"Limit each tenant to 100 requests per second with a token bucket per tenant, shared across instances through Redis",
		"proposal.md", "critic.json", "proposer.json", "conceded",
		"Limit each tenant to 100 requests per second with a token bucket per tenant, shared across instances through Redis",
		"Limit each tenant to 50 requests per second"},
	"plan": {"plan", "Session store migration", "Migrate sessions in three steps: dual-write, backfill, switch reads",
		"plan.md", "plan-critic.json", "planner.json", "adopted",
		"Migrate sessions in four steps: dual-write, backfill, verify the backfill against Memcached, switch reads",
		"Migrate sessions in three steps: dual-write, backfill, switch reads"},
}

// The spec and plan examples run as their READMEs say: the scripted
// debate reaches its verdict and files its record, which then blocks a
// contradicting position; the same debate runs with openai: agents
// against a fake server, and both sides are handed the document.
func TestExampleDebates(t *testing.T) {
	t.Parallel()
	for name, ex := range exampleDebates {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := copyExample(t, name)
			args := func(attacker, defender string) []string {
				return []string{"--root", dir, "--json", "debate", "run", "--layer", ex.layer, "--topic", ex.topic, "--position", ex.position,
					"--context", filepath.Join(dir, ex.context), "--workspace", dir, "--agent", "attacker=" + attacker, "--agent", "defender=" + defender}
			}
			out, errs, code := runT(t, "", args("script:"+filepath.Join(dir, ex.attacker), "script:"+filepath.Join(dir, ex.defender))...)
			if code != 0 {
				t.Fatalf("exit %d: %s\n%s", code, errs, out)
			}
			v := verdictLineOf(t, out)
			if v["verdict"] != "CONSENSUS_REACHED" || v["rule"] != ex.rule || v["final_position"] != ex.final {
				t.Fatalf("verdict %v", v)
			}
			if _, err := os.Stat(filepath.Join(dir, "vault", "wiki", "consensus", ex.layer+"-"+strings.ReplaceAll(strings.ToLower(ex.topic), " ", "-")+".md")); err != nil {
				t.Fatal(err)
			}
			// Every evidence reference of the scripts checked out.
			if events, err := openStore(t, dir).Events(v["debate_id"].(string)); err != nil || strings.Contains(string(eventsJSON(events)), `"status":"missing"`) || strings.Contains(string(eventsJSON(events)), `"out_of_range"`) {
				t.Fatalf("evidence: %v %s", err, eventsJSON(events))
			}
			if _, _, code := runT(t, "", "--root", dir, "consensus", "check", "--layer", ex.layer, "--topic", ex.topic, "--position", ex.check); code != cmdutil.ExitBlocked {
				t.Fatalf("consensus check of a contradicting position: exit %d", code)
			}

			// The same debate with LLM agents.
			srv := fakeDebater(t)
			useOpenAIConfig(t, dir, srv.URL())
			out, errs, code = runT(t, "", args("openai:qwen2.5:7b-instruct", "openai:llama3.1:8b")...)
			if code != 0 {
				t.Fatalf("openai: exit %d: %s\n%s", code, errs, out)
			}
			if v := verdictLineOf(t, out); v["verdict"] != "CONSENSUS_REACHED" || v["final_position"] != ex.position || v["tokens"] != float64(60+50+10) {
				t.Fatalf("openai verdict %v", v)
			}
			doc, _ := os.ReadFile(filepath.Join(dir, ex.context))
			firstLine := strings.SplitN(string(doc), "\n", 2)[0]
			roles := map[string]bool{}
			for _, r := range srv.Requests() {
				_, role := r.Turn()
				if !strings.Contains(r.Messages[1].Content, firstLine) {
					t.Errorf("the %s's prompt lacks the %s", role, ex.context)
				}
				if !strings.Contains(r.Messages[0].Content, map[string]string{"spec": "spec", "plan": "plan"}[ex.layer]) {
					t.Errorf("the %s's system prompt is not the %s layer's:\n%s", role, ex.layer, r.Messages[0].Content)
				}
				roles[role] = true
			}
			if !roles["attacker"] || !roles["defender"] {
				t.Fatalf("roles served: %v", roles)
			}
		})
	}
}

func eventsJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// The escalation example, as its README says, with scripted agents and
// then with openai: agents against a fake server.
func TestExampleEscalation(t *testing.T) {
	t.Parallel()
	want := map[string][2]string{
		"100123": {"skipped", "not_drift"}, "100124": {"hold", "low_priority"}, "100125": {"proceed", "consensus"},
		"100126": {"skipped", "high_priority"}, "100127": {"skipped", "not_drift"},
	}
	check := func(t *testing.T, dir string) []escalation.Decision {
		t.Helper()
		out, errs, code := runT(t, "", "--root", dir, "escalate", "--telemetry", filepath.Join(dir, "telemetry.jsonl"))
		ds := decisions(t, out)
		if code != 0 || len(ds) != len(want) {
			t.Fatalf("exit %d, %d decisions: %s", code, len(ds), errs)
		}
		for _, d := range ds {
			if w := want[d.TaskID]; string(d.Action) != w[0] || string(d.Reason) != w[1] {
				t.Errorf("task %s: %s/%s, want %v (%s)", d.TaskID, d.Action, d.Reason, w, d.Detail)
			}
		}
		return ds
	}
	dir := copyExample(t, "escalation")
	ds := check(t, dir)
	if ds[2].DebateID != "20260514-verify-task-100125-ol6nof" || ds[2].Record != "wiki/consensus/verify-closure-of-task-100125.md" {
		t.Fatalf("the README's debate id and record: %+v", ds[2])
	}
	if out, _, _ := runT(t, "", "--root", dir, "escalate", "--telemetry", filepath.Join(dir, "telemetry.jsonl")); out != "" {
		t.Fatalf("a second run printed %q", out)
	}

	dir = copyExample(t, "escalation")
	srv := fakeDebater(t)
	useOpenAIConfig(t, dir, srv.URL())
	check(t, dir)
	if len(srv.Requests()) != 3 {
		t.Fatalf("%d model requests, want 3 (attacker, defender, attacker)", len(srv.Requests()))
	}
}

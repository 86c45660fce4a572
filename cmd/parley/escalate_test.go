package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent/openaitest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/transcripts"
)

// escRoot makes a root with config.json and the files given (relative to
// the root), and returns the root.
func escRoot(t *testing.T, cfg string, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "root")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}

func decisions(t *testing.T, out string) []escalation.Decision {
	t.Helper()
	var ds []escalation.Decision
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var d escalation.Decision
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("not a decision line: %q: %v", l, err)
		}
		ds = append(ds, d)
	}
	return ds
}

func tele(task, verdict, priority string, conf float64, reasons, claims, evidence string) string {
	return fmt.Sprintf(`{"timestamp":"2026-05-14T13:%02d:00Z","task_id":%q,"verdict":%q,"confidence":%v,"latency_ms":100,"model_id":"gemma","cost_usd":0,"reasons":[%s],"fallback_used":false,"priority":%q,"claims":[%s],"evidence_paths":[%s],"extra_field":{"tolerated":true}}`,
		len(task)%60, task, verdict, conf, reasons, priority, claims, evidence)
}

const (
	escConfig    = `{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"script:agents/attacker.json","workspace":"ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":30000}}}}`
	escClaim     = "Task 300 is complete as claimed: Requests are retried with backoff"
	escDefender  = `{"turns":[{"round":1,"position":"` + escClaim + `","evidence_refs":["retry.go:2"],"tokens":50}]}`
	escConceding = `{"turns":[{"round":1,"position":"There is no backoff","counter_to":"x","confidence_change":-1,"tokens":40,"evidence_refs":["retry.go:1"]},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":10}]}`
	escRepeating = `{"turns":[{"round":1,"position":"There is no backoff","counter_to":"x","confidence_change":-1,"tokens":40}]}`
)

func escFiles(attacker string) map[string]string {
	return map[string]string{
		"agents/defender.json": escDefender, "agents/attacker.json": attacker,
		"ws/retry.go": "for i := 0; i < 3; i++ {\n\tsleep(base << i)\n}\n",
	}
}

// The cascade end to end: agents from config.json (script paths relative
// to the root) run as processes; one JSON line per record on stdout, the
// same lines in escalations.jsonl; malformed lines reported with their
// number; a second run decides nothing.
func TestEscalateCLI(t *testing.T) {
	t.Parallel()
	root := escRoot(t, escConfig, escFiles(escConceding))
	telemetry := filepath.Join(t.TempDir(), "telemetry.jsonl")
	lines := []string{
		tele("100", "CONFIRMED", "M", 0.92, "", "", ""),
		tele("200", "DRIFT", "L", 0.7, `"README not updated"`, "", ""),
		`{"timestamp":"2026-05-14T13:00:00Z","task_id":"x","verdict":"DRIFT","priority":"P9"}`,
		tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`),
		tele("400", "DRIFT", "H", 0.6, `"no rollback"`, "", ""),
		`{"broken json`,
		tele("500", "DRIFT", "", 0.97, `"The file retry.go has no jitter."`, `"Jitter is added"`, ""),
	}
	if err := os.WriteFile(telemetry, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runT(t, "", "--root", root, "--json", "escalate", "--telemetry", telemetry)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := []struct {
		task   string
		action escalation.Action
		reason escalation.Reason
	}{
		{"100", escalation.ActionSkipped, escalation.ReasonNotDrift},
		{"200", escalation.ActionHold, escalation.ReasonLowPriority},
		{"300", escalation.ActionProceed, escalation.ReasonConsensus},
		{"400", escalation.ActionSkipped, escalation.ReasonHighPriority},
		{"500", escalation.ActionHold, escalation.ReasonGateSkip},
	}
	ds := decisions(t, out)
	if len(ds) != len(want) {
		t.Fatalf("%d decisions:\n%s\nstderr: %s", len(ds), out, errs)
	}
	for i, w := range want {
		if d := ds[i]; d.TaskID != w.task || d.Action != w.action || d.Reason != w.reason {
			t.Errorf("task %s: %+v, want %s/%s", w.task, d, w.action, w.reason)
		}
	}
	// Every key of the line is there.
	var raw map[string]any
	_ = json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &raw)
	for _, k := range []string{"task_id", "timestamp", "action", "verdict", "debate_id", "record", "reason"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("the line lacks %q: %v", k, raw)
		}
	}
	for _, w := range []string{":3: malformed telemetry record: priority", ":6: malformed telemetry record: not a JSON object"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
	// The debated record: filed, transcript verified, evidence checked
	// under the workspace of config.json.
	d := ds[2]
	if d.Verdict != debate.ConsensusReached || d.DebateID == "" || !strings.HasPrefix(d.Record, "wiki/consensus/verify-closure-of-task-300") {
		t.Fatalf("debated decision %+v", d)
	}
	if _, err := os.Stat(filepath.Join(root, "vault", filepath.FromSlash(d.Record))); err != nil {
		t.Fatal(err)
	}
	if out, _, code := runT(t, "", "--root", root, "transcripts", "verify", d.DebateID); code != 0 {
		t.Fatalf("verify: %s", out)
	}
	ledger, err := os.ReadFile(filepath.Join(root, escalation.LedgerName))
	if err != nil || string(ledger) != out {
		t.Fatalf("the ledger differs from stdout: %v\n%s\n---\n%s", err, ledger, out)
	}
	// Idempotent: a second run prints no line and debates nothing, and
	// says on stderr what each record was decided.
	before, _ := os.ReadDir(filepath.Join(root, "debates"))
	out, errs, code = runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	after, _ := os.ReadDir(filepath.Join(root, "debates"))
	if code != 0 || out != "" || !strings.Contains(errs, "0 decided, 5 already escalated") || len(after) != len(before) {
		t.Fatalf("second run: exit %d, out %q, stderr %s, debates %d → %d", code, out, errs, len(before), len(after))
	}
	if want := fmt.Sprintf(": task %s at %s was decided on %s: proceed (consensus), debate %s, record %s;", d.TaskID, d.Timestamp, d.Decided, d.DebateID, d.Record); !strings.Contains(errs, want) {
		t.Fatalf("second run: stderr does not say what the DRIFT was decided (%q):\n%s", want, errs)
	}

	// A crash after the debate closed but before its ledger line: the
	// next run files the line from the closed debate without debating.
	if err := os.Remove(filepath.Join(root, escalation.LedgerName)); err != nil {
		t.Fatal(err)
	}
	events, _ := openStore(t, root).Events(d.DebateID)
	out, errs, code = runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	again := decisions(t, out)
	events2, _ := openStore(t, root).Events(d.DebateID)
	after, _ = os.ReadDir(filepath.Join(root, "debates"))
	if code != 0 || len(again) != 5 || again[2].Action != escalation.ActionProceed || again[2].DebateID != d.DebateID || len(events2) != len(events) || len(after) != len(before) {
		t.Fatalf("after a lost ledger: exit %d %s, %d → %d events, %d debates", code, errs, len(events), len(events2), len(after))
	}
}

// proceed only on CONSENSUS_REACHED for the defender's claims: every other
// outcome holds, with its reason.
func TestEscalateHoldsEveryOtherOutcome(t *testing.T) {
	t.Parallel()
	record := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	for name, tc := range map[string]struct {
		cfg      string
		attacker string
		defender string
		reason   escalation.Reason
		verdict  debate.Verdict
	}{
		"deadlock": {escConfig, escRepeating, escDefender, escalation.ReasonDeadlock, debate.Deadlock},
		"budget exhausted": {`{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"script:agents/attacker.json","workspace":"ws"},"debate":{"budgets":{"verify":{"maxRounds":1}}}}`,
			escRepeating, escDefender, escalation.ReasonBudget, debate.BudgetExhausted},
		// "timeout": the attacker never answers within the 3 s (0.6 s was
		// once too little for the defender's own turn on a loaded machine).
		"timeout": {`{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"script:agents/attacker.json","workspace":"ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":3000}}}}`,
			`{"turns":[{"round":1,"position":"p","counter_to":"x","confidence_change":-1,"delay_ms":60000}]}`, escDefender, escalation.ReasonUnavailable, debate.Timeout},
		// "timeout after turns": round 1 takes about 0.2 s of the 5 s (agent processes included):
		// a loaded machine under -race does not make the defender miss it.
		"timeout after turns": {`{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"script:agents/attacker.json","workspace":"ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":5000}}}}`,
			`{"turns":[{"round":1,"position":"There is no backoff","counter_to":"x","confidence_change":-1,"tokens":40},{"round":2,"position":"p","counter_to":"x","confidence_change":-1,"delay_ms":60000}]}`,
			escDefender, escalation.ReasonTimeout, debate.Timeout},
		"attacker adopted": {escConfig, escConceding, `{"turns":[{"round":1,"position":"There is no backoff","tokens":5}]}`, escalation.ReasonAttackerWon, debate.ConsensusReached},
		"claims changed":   {escConfig, escConceding, `{"turns":[{"round":1,"position":"Requests are retried, without backoff","tokens":5}]}`, escalation.ReasonClaimsChanged, debate.ConsensusReached},
		"evidence missing": {escConfig, escConceding, `{"turns":[{"round":1,"position":"` + escClaim + `","evidence_refs":["retry.go:99"],"tokens":5}]}`, escalation.ReasonEvidence, debate.ConsensusReached},
		"unreachable agent": {`{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"@Ghost","workspace":"ws"}}`,
			escConceding, escDefender, escalation.ReasonUnavailable, ""},
		"unreachable openai": {`{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"openai:gone","workspace":"ws"},"openai":{"baseUrl":"http://127.0.0.1:9/v1"}}`,
			escConceding, escDefender, escalation.ReasonUnavailable, ""},
		"missing script": {`{"escalation":{"gateMode":"rules","defender":"script:agents/nope.json","attacker":"script:agents/attacker.json","workspace":"ws"}}`,
			escConceding, escDefender, escalation.ReasonUnavailable, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := escFiles(tc.attacker)
			files["agents/defender.json"] = tc.defender
			root := escRoot(t, tc.cfg, files)
			telemetry := filepath.Join(root, "t.jsonl")
			if err := os.WriteFile(telemetry, []byte(record+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
			ds := decisions(t, out)
			if code != 0 || len(ds) != 1 {
				t.Fatalf("exit %d, %d decisions: %s", code, len(ds), errs)
			}
			if d := ds[0]; d.Action != escalation.ActionHold || d.Reason != tc.reason || d.Verdict != tc.verdict || d.Detail == "" {
				t.Fatalf("decision %+v, want hold/%s (%s)", d, tc.reason, tc.verdict)
			}
		})
	}
}

// A debate interrupted before its first event (the process died after
// making the debate's directory) is resumed by the next run, not started
// beside it.
func TestEscalateResumesAnInterruptedDebate(t *testing.T) {
	t.Parallel()
	root, record, s, log := interruptedEscalation(t)
	log.Close()
	telemetry := filepath.Join(root, "t.jsonl")
	os.WriteFile(telemetry, []byte(record+"\n"), 0o600)
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	ds := decisions(t, out)
	dirs, _ := os.ReadDir(filepath.Join(root, "debates"))
	if code != 0 || len(ds) != 1 || ds[0].Action != escalation.ActionProceed || ds[0].DebateID != s.ID || len(dirs) != 1 {
		t.Fatalf("exit %d %s: %+v, %d debates", code, errs, ds, len(dirs))
	}
}

// A debate interrupted before its verdict is resumed by the next run, but
// not once its files were changed: the run stops on the record, saying the
// debate was tampered with and how to see what changed, as it does for a
// closed one, not with a bare transcript error.
func TestEscalateRefusesATamperedInterruptedDebate(t *testing.T) {
	t.Parallel()
	root, record, s, log := interruptedEscalation(t)
	if _, err := log.Append(context.Background(), debate.EventOpen, 0, s); err != nil {
		t.Fatal(err)
	}
	log.Close()
	transcript := filepath.Join(root, "debates", s.ID, "transcript.jsonl")
	data, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(data), "Requests are retried with backoff", "Requests are never retried", 1)
	if forged == string(data) {
		t.Fatalf("the transcript does not hold the claim:\n%s", data)
	}
	os.WriteFile(transcript, []byte(forged), 0o600)
	telemetry := filepath.Join(root, "t.jsonl")
	os.WriteFile(telemetry, []byte(record+"\n"), 0o600)
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	if code != 1 || strings.TrimSpace(out) != "" {
		t.Fatalf("exit %d, decided %q; want exit 1 and nothing decided (stderr %s)", code, out, errs)
	}
	for _, w := range []string{"debate " + s.ID + " was tampered with", "parley --root " + root + " transcripts verify " + s.ID} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr does not say %q: %s", w, errs)
		}
	}
}

var standingRE = regexp.MustCompile(`\*\*The defender's standing position:\*\* (.*)`)

// Both sides served by an OpenAI-compatible fake, through agent processes
// started by escalate: the defender restates the claims, the attacker
// objects then concedes; the usage tokens are what the debate counts.
func TestEscalateWithOpenAIAgents(t *testing.T) {
	t.Parallel()
	srv := openaitest.New(t, func(r *openaitest.Request) openaitest.Response {
		round, role := r.Turn()
		if role == "defender" {
			standing := standingRE.FindStringSubmatch(r.Messages[1].Content)
			if standing == nil {
				return openaitest.Status(400, "no standing position in the prompt")
			}
			b, _ := json.Marshal(map[string]any{"position": standing[1], "evidence_refs": []string{"retry.go:2"}, "confidence_change": 0, "text": "Line 2 waits."})
			return openaitest.Reply("```json\n"+string(b)+"\n```", 500, 60)
		}
		if round == 1 {
			return openaitest.Reply(`I doubt it. {"position":"There is no backoff","counter_to":"the claims","confidence_change":-1,"evidence_refs":["retry.go:1"]}`, 400, 70)
		}
		return openaitest.Reply(`{"position":"","counter_to":"","confidence_change":0,"text":"Conceded."}`, 400, 20)
	})
	cfg := fmt.Sprintf(`{"escalation":{"gateMode":"rules","defender":"openai:defender-8b","attacker":"openai:critic-8b","workspace":"ws"},"openai":{"baseUrl":%q,"apiKeyEnv":"PARLEY_TEST_KEY"}}`, srv.URL())
	root := escRoot(t, cfg, escFiles(escConceding))
	telemetry := filepath.Join(root, "t.jsonl")
	os.WriteFile(telemetry, []byte(tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)+"\n"), 0o600)
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	ds := decisions(t, out)
	if code != 0 || len(ds) != 1 || ds[0].Action != escalation.ActionProceed {
		t.Fatalf("exit %d %s: %+v", code, errs, ds)
	}
	o, err := openStore(t, root).LoadOutcome(context.Background(), ds[0].DebateID)
	if err != nil || o.Tokens != 70+60+20 {
		t.Fatalf("outcome %+v %v: want 150 tokens from the usage", o, err)
	}
	models := map[string]int{}
	for _, r := range srv.Requests() {
		models[r.Model]++
	}
	if models["defender-8b"] != 1 || models["critic-8b"] != 2 {
		t.Fatalf("requests per model %v", models)
	}
}

// --follow picks up records appended after it started, a partial last line
// once its newline arrives, and stops on cancellation.
func TestEscalateFollow(t *testing.T) {
	t.Parallel()
	root := escRoot(t, escConfig, escFiles(escConceding))
	telemetry := filepath.Join(root, "t.jsonl")
	appendLine := func(s string) {
		f, err := os.OpenFile(telemetry, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	appendLine(tele("100", "CONFIRMED", "M", 0.9, "", "", "") + "\n")
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--root", root, "escalate", "--telemetry", telemetry, "--follow"}, strings.NewReader(""), &out, &syncBuffer{})
	}()
	waitLines := func(n int) []escalation.Decision {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			if ds := decisions(t, out.String()); len(ds) >= n {
				return ds
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %d lines; have:\n%s", n, out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitLines(1)
	// A partial line, completed later, is read once, whole. It is written
	// with the record before it, so the read that decided that record read
	// the partial line too.
	line := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	appendLine(tele("200", "DRIFT", "L", 0.7, `"x"`, "", "") + "\n" + line[:30])
	waitLines(2)
	appendLine(line[30:] + "\n")
	ds := waitLines(3)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(ds) != 3 || ds[1].Reason != escalation.ReasonLowPriority || ds[2].Action != escalation.ActionProceed {
		t.Fatalf("decisions %+v", ds)
	}
}

func TestConfigShow(t *testing.T) {
	t.Parallel()
	root := escRoot(t, `{"debate":{"budgets":{"spec":{"maxRounds":5}}},"escalation":{"defender":"script:d.json","attacker":"openai:m"}}`, nil)
	out, errs, code := runT(t, "", "--root", root, "--json", "config", "show")
	if code != 0 || !strings.Contains(errs, filepath.Join(root, "config.json")) {
		t.Fatalf("exit %d %s", code, errs)
	}
	var top map[string]any
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]map[string]any{}
	for k, v := range top {
		if section, ok := v.(map[string]any); ok {
			cfg[k] = section
		}
	}
	if top["transport"] != "file" || cfg["nats"]["url"] != "nats://127.0.0.1:4222" {
		t.Fatalf("effective messenger transport: %v %v", top["transport"], cfg["nats"])
	}
	spec := cfg["debate"]["budgets"].(map[string]any)["spec"].(map[string]any)
	if spec["maxRounds"] != float64(5) || spec["maxTokens"] != float64(6000) || cfg["escalation"]["attacker"] != "openai:m" ||
		cfg["messenger"]["reconcileMs"] != float64(1000) || cfg["openai"]["baseUrl"] != "http://127.0.0.1:11434/v1" {
		t.Fatalf("effective config %v", cfg)
	}
	// The output is a config.json: feeding it back changes nothing.
	root2 := escRoot(t, out, nil)
	out2, _, code := runT(t, "", "--root", root2, "--json", "config", "show")
	if code != 0 || out2 != out {
		t.Fatalf("round trip:\n%s\n%s", out, out2)
	}
	// An unknown key is an error naming the file.
	root3 := escRoot(t, `{"escalation":{"defendr":"x"}}`, nil)
	if _, errs, code := runT(t, "", "--root", root3, "config", "show"); code == 0 || !strings.Contains(errs, "config.json") {
		t.Fatalf("unknown key: exit %d %s", code, errs)
	}
}

// A process killed between making the debate's directory and writing its
// session.json leaves a directory the derived debate id keeps pointing at:
// the next run finishes the creation and debates, once.
func TestEscalateAfterACreateCutShort(t *testing.T) {
	t.Parallel()
	root := escRoot(t, escConfig, escFiles(escConceding))
	record := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	r, err := escalation.ParseRecord([]byte(record))
	if err != nil {
		t.Fatal(err)
	}
	id := escalation.DebateID(r)
	if err := os.MkdirAll(filepath.Join(root, "debates", id), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "debates", id, "transcript.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	telemetry := filepath.Join(root, "t.jsonl")
	os.WriteFile(telemetry, []byte(record+"\n"), 0o600)
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	ds := decisions(t, out)
	if code != 0 || len(ds) != 1 || ds[0].Action != escalation.ActionProceed || ds[0].DebateID != id {
		t.Fatalf("exit %d %s: %+v", code, errs, ds)
	}
}

// A gate decision is logged once per escalated record: a run that fails
// after the gate decided (here: debates/ is a file, so the debate cannot
// be created) leaves the record undecided; the run that decides it later
// does not log the gate's decision again, and gate stats counts it once.
func TestEscalateLogsTheGateOncePerRecord(t *testing.T) {
	t.Parallel()
	root := escRoot(t, escConfig, escFiles(escConceding))
	blocker := filepath.Join(root, "debates")
	if err := os.WriteFile(blocker, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	telemetry := filepath.Join(t.TempDir(), "telemetry.jsonl")
	line := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	if err := os.WriteFile(telemetry, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry); code == 0 || out != "" {
			t.Fatalf("run %d with debates/ a file: exit %d, out %q, stderr %s", i+1, code, out, errs)
		}
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	if ds := decisions(t, out); code != 0 || len(ds) != 1 || ds[0].Action != escalation.ActionProceed {
		t.Fatalf("the run that decides: exit %d %s\n%s", code, out, errs)
	}
	stats := jsonLines(t, mustCLI(t, root, "", "--json", "gate", "stats"))
	if len(stats) != 1 || stats[0]["decisions"] != float64(1) || stats[0]["debate"] != float64(1) {
		t.Errorf("gate stats after two failed runs and one that decided: %v", stats)
	}
}

// An endpoint that refuses the key makes the debate UNAVAILABLE: hold with
// reason unavailable, nothing filed. A second run leaves it; a run with
// --retry-unavailable, once the key is right, decides it again in a new
// debate; after that, it is decided for good.
func TestEscalateRetryUnavailable(t *testing.T) {
	t.Parallel()
	var keyOK atomic.Bool
	srv := openaitest.New(t, func(r *openaitest.Request) openaitest.Response {
		if !keyOK.Load() {
			return openaitest.Status(401, "invalid key")
		}
		round, role := r.Turn()
		if role == "defender" {
			standing := standingRE.FindStringSubmatch(r.Messages[1].Content)
			b, _ := json.Marshal(map[string]any{"position": standing[1], "evidence_refs": []string{"retry.go:2"}, "confidence_change": 0})
			return openaitest.Reply(string(b), 10, 10)
		}
		if round == 1 {
			return openaitest.Reply(`{"position":"There is no backoff","counter_to":"the claims","confidence_change":-1}`, 10, 10)
		}
		return openaitest.Reply(`{"position":"","counter_to":"","confidence_change":0}`, 10, 10)
	})
	cfg := fmt.Sprintf(`{"escalation":{"gateMode":"rules","defender":"openai:d","attacker":"openai:a","workspace":"ws"},"openai":{"baseUrl":%q,"apiKeyEnv":"PARLEY_TEST_ESCALATION_KEY_NEVER_SET"}}`, srv.URL())
	root := escRoot(t, cfg, escFiles(escConceding))
	telemetry := filepath.Join(root, "t.jsonl")
	os.WriteFile(telemetry, []byte(tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)+"\n"), 0o600)
	// The record twice in the file: a run decides it once, and a retry
	// retries it once.
	f, _ := os.OpenFile(telemetry, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`) + "\n")
	f.Close()
	escalate := func(args ...string) []escalation.Decision {
		t.Helper()
		out, errs, code := runT(t, "", append([]string{"--root", root, "escalate", "--telemetry", telemetry}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return decisions(t, out)
	}
	ds := escalate()
	if len(ds) != 1 || ds[0].Action != escalation.ActionHold || ds[0].Reason != escalation.ReasonUnavailable ||
		ds[0].Verdict != debate.Unavailable || ds[0].Record != "" || !strings.Contains(ds[0].Detail, "PARLEY_TEST_ESCALATION_KEY_NEVER_SET") {
		t.Fatalf("first run: %+v", ds)
	}
	first := ds[0].DebateID
	if files := vaultFiles(t, root); len(files) != 0 {
		t.Fatalf("an unavailable debate filed %v", files)
	}
	// A second run leaves it, and says how to decide it again.
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	if ds := decisions(t, out); code != 0 || len(ds) != 0 {
		t.Fatalf("a second run decided again without --retry-unavailable: exit %d %+v", code, ds)
	}
	if !strings.Contains(errs, "2 record(s) held as unavailable") || !strings.Contains(errs, "parley escalate --retry-unavailable") {
		t.Fatalf("the second run does not say the record waits for --retry-unavailable: %s", errs)
	}
	// Retried while the key is still wrong: held again, once per run
	// although the record is in the file twice.
	if ds := escalate("--retry-unavailable"); len(ds) != 1 || ds[0].Reason != escalation.ReasonUnavailable || ds[0].DebateID == first {
		t.Fatalf("retry with the key still wrong: %+v", ds)
	}
	keyOK.Store(true)
	ds = escalate("--retry-unavailable")
	if len(ds) != 1 || ds[0].Action != escalation.ActionProceed || ds[0].DebateID == first || ds[0].Record == "" {
		t.Fatalf("retry: %+v (first debate %s)", ds, first)
	}
	if ds := escalate("--retry-unavailable"); len(ds) != 0 {
		t.Fatalf("a decided record was retried: %+v", ds)
	}
	data, _ := os.ReadFile(filepath.Join(root, escalation.LedgerName))
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Fatalf("the ledger holds %d lines, want the three decisions:\n%s", n, data)
	}
}

// An attacker whose command prints back the turn request it is given
// (exec:cat, a wrapper forwarding its stdin) never took a turn: the
// escalation holds as unavailable and files nothing. Read as a turn, the
// echo restates the defender's position without a counter — a concession
// that would let the task proceed.
func TestEscalateAttackerEchoingTheRequestIsUnavailable(t *testing.T) {
	t.Parallel()
	cfg := `{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"exec:cat","workspace":"ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":30000}}}}`
	root := escRoot(t, cfg, escFiles(escConceding))
	telemetry := filepath.Join(t.TempDir(), "telemetry.jsonl")
	line := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	if err := os.WriteFile(telemetry, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ds := decisions(t, out)
	if len(ds) != 1 || ds[0].Action != escalation.ActionHold || ds[0].Reason != escalation.ReasonUnavailable || ds[0].Record != "" {
		t.Fatalf("decisions %+v\nstderr: %s", ds, errs)
	}
	if !strings.Contains(ds[0].Detail, "turn request") {
		t.Errorf("the detail does not say why: %s", ds[0].Detail)
	}
}

// An exec: attacker that prints a JSON turn stating its objection but
// leaving counter_to out objects: the task is held, not cleared as if the
// attacker had had no further objections.
func TestEscalateExecAttackerLeavingCounterOutObjects(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "attacker.sh")
	body := "#!/bin/sh\ncat >/dev/null\necho '{\"position\":\"There is no backoff between attempts\",\"text\":\"retry.go sleeps nowhere.\"}'\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `{"escalation":{"gateMode":"rules","defender":"script:agents/defender.json","attacker":"exec:` + script + `","workspace":"ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":30000}}}}`
	root := escRoot(t, cfg, escFiles(escConceding))
	telemetry := filepath.Join(t.TempDir(), "telemetry.jsonl")
	line := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	if err := os.WriteFile(telemetry, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if ds := decisions(t, out); len(ds) != 1 || ds[0].Action != escalation.ActionHold || ds[0].Verdict == debate.ConsensusReached {
		t.Fatalf("decisions %+v\nstderr: %s", ds, errs)
	}
}

// When neither exec: agent can start, the hold names both, as the check
// before the debate promises: not only the attacker, which speaks first,
// leaving the defender's mistake for the next --retry-unavailable.
func TestEscalateNamesEveryExecAgentThatCannotStart(t *testing.T) {
	t.Parallel()
	cfg := `{"escalation":{"gateMode":"rules","defender":"exec:/nonexistent/defender --fast","attacker":"exec:/nonexistent/attacker","workspace":"ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":30000}}}}`
	root := escRoot(t, cfg, escFiles(escConceding))
	telemetry := filepath.Join(t.TempDir(), "telemetry.jsonl")
	line := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	if err := os.WriteFile(telemetry, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runT(t, "", "--root", root, "escalate", "--telemetry", telemetry)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ds := decisions(t, out)
	if len(ds) != 1 || ds[0].Reason != escalation.ReasonUnavailable {
		t.Fatalf("decisions %+v\nstderr: %s", ds, errs)
	}
	for _, w := range []string{"/nonexistent/attacker", "/nonexistent/defender"} {
		if !strings.Contains(ds[0].Detail, w) {
			t.Errorf("the detail does not name %s: %s", w, ds[0].Detail)
		}
	}
}

// TestEscalateReadsStandardInput: --telemetry - reads the records from
// standard input, as a Unix tool does, and names it "standard input" in
// what it reports; --follow, which watches a file grow, does not go with
// it.
func TestEscalateReadsStandardInput(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	records := tele("7", "CONFIRMED", "M", 0.9, "", "", "") + "\nnot a record\n" + tele("8", "DRIFT", "L", 0.4, `"The cache may go stale"`, "", "") + "\n"
	out, errs, code := runT(t, records, "--root", root, "escalate", "--telemetry", "-")
	ds := decisions(t, out)
	if code != 0 || len(ds) != 2 || ds[0].Reason != "not_drift" || ds[1].Action != escalation.ActionHold {
		t.Fatalf("exit %d, %+v; stderr %q", code, ds, errs)
	}
	if !strings.Contains(errs, "parley: standard input:2: malformed telemetry record") {
		t.Errorf("the malformed line is not named on standard input: %q", errs)
	}
	// Decided once: the same records again are already escalated.
	if out, _, code := runT(t, records, "--root", root, "escalate", "--telemetry", "-"); code != 0 || strings.TrimSpace(out) != "" {
		t.Errorf("again: exit %d, decided %q", code, out)
	}
	_, errs, code = runT(t, records, "--root", root, "escalate", "--telemetry", "-", "--follow")
	if want := "parley: --follow watches a file for the records appended to it: standard input is read to its end without it\n"; code != cmdutil.ExitUsage || errs != want {
		t.Errorf("- --follow: exit %d, %q; want exit 2, %q", code, errs, want)
	}
}

// TestEscalateStandardInputInterrupted: Ctrl-C ends a wait for records on
// standard input that do not come (exit 130).
func TestEscalateStandardInputInterrupted(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	pr, pw := io.Pipe() // nothing is ever written
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"--root", root, "escalate", "--telemetry", "-"}, pr, &bytes.Buffer{}, &errb)
	}()
	cancel()
	err := <-done
	if code := cmdutil.ExitCode(err, &errb); code != cmdutil.ExitInterrupted {
		t.Fatalf("exit %d, stderr %q; want %d", code, errb.String(), cmdutil.ExitInterrupted)
	}
}

// interruptedEscalation is a root with one M DRIFT record (returned, a
// line of telemetry) and the debate an escalation of it began, made and
// left open before its first event, as a process that died there leaves
// it: its session and its transcript's log, for the test to go on with
// and close.
func interruptedEscalation(t *testing.T) (string, string, *debate.DebateSession, *transcripts.Log) {
	t.Helper()
	root := escRoot(t, escConfig, escFiles(escConceding))
	record := tele("300", "DRIFT", "M", 0.55, `"The retry loop might not back off"`, `"Requests are retried with backoff"`, `"retry.go"`)
	r, err := escalation.ParseRecord([]byte(record))
	if err != nil {
		t.Fatal(err)
	}
	s, err := escalation.Session(r, "script:"+filepath.Join(root, "agents/defender.json"), "script:"+filepath.Join(root, "agents/attacker.json"),
		filepath.Join(root, "ws"), debate.DefaultBudget(debate.LayerVerify), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, code := runT(t, "", "--root", root, "init"); code != 0 {
		t.Fatal("init")
	}
	log, err := openStore(t, root).Create(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return root, record, s, log
}

// cancelAfterLine is standard output that ends the run's context (Ctrl-C)
// once a line was written to it.
type cancelAfterLine struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelAfterLine) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if bytes.IndexByte(p, '\n') >= 0 {
		w.cancel()
	}
	return n, err
}

// Ctrl-C while a stream kept open (tail -f log | parley escalate
// --telemetry -) waits for its next line: nothing was being decided, and
// the run says so, after what it decided. It used to say that the next
// run would take the record up again, and nothing of what it did.
func TestEscalateStreamInterruptedWhileWaiting(t *testing.T) {
	t.Parallel()
	root := escRoot(t, escConfig, escFiles(escConceding))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	go io.WriteString(pw, tele("200", "DRIFT", "L", 0.7, `"README not updated"`, "", "")+"\n")
	stdout := &cancelAfterLine{cancel: cancel}
	var stderr bytes.Buffer
	err := run(ctx, []string{"--root", root, "escalate", "--telemetry", "-"}, pr, stdout, &stderr)
	code := cmdutil.ExitCode(err, &stderr)
	if ds := decisions(t, stdout.String()); code != cmdutil.ExitInterrupted || len(ds) != 1 || ds[0].TaskID != "200" {
		t.Fatalf("exit %d, decisions %+v; want 130 after task 200's", code, ds)
	}
	if e := stderr.String(); !strings.Contains(e, "1 record(s): 1 decided") ||
		!strings.Contains(e, "interrupted while waiting for the next line of standard input: no record was being decided") ||
		strings.Contains(e, "takes the record up again") {
		t.Fatalf("stderr %q; want the summary, and that no record was being decided", e)
	}
}

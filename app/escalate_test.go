package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/transcripts"
)

// Escalate through the typed API, with running agents (@NAME): every
// decision reaches the caller as a value, a malformed line as its number,
// nothing is printed; a second run decides nothing again and does not log
// the gate's decision twice; settings that cannot work name themselves.
func TestEscalateThroughTheAPI(t *testing.T) {
	t.Parallel()
	a, dir, root := cacheEscalation(t)
	line := func(task, verdict, priority string, conf float64) string {
		return fmt.Sprintf(`{"timestamp":"2026-06-02T09:%02d:00Z","task_id":%q,"verdict":%q,"priority":%q,"confidence":%v,"reasons":["eviction looked random in one trace"],"claims":["The cache evicts the least recently used entry"],"evidence_paths":["cache.go"]}`,
			len(task), task, verdict, priority, conf)
	}
	telemetry := write(t, filepath.Join(dir, "verifier.jsonl"), strings.Join([]string{
		line("40", "DRIFT", "M", 0.3), line("41", "CONFIRMED", "M", 0.9), "{\"task_id\": 42, oops", line("43", "DRIFT", "L", 0.2),
	}, "\n")+"\n")

	run := func() (map[string]escalation.Decision, []int, escalation.Stats, error) {
		got := map[string]escalation.Decision{}
		var bad []int
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		st, err := a.Escalate(ctx, EscalateOptions{Telemetry: telemetry,
			Decided:   func(d *escalation.Decision, _ []byte) error { got[d.TaskID] = *d; return nil },
			Malformed: func(n int, _ error) { bad = append(bad, n) }})
		return got, bad, st, err
	}
	got, bad, st, err := run()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		action escalation.Action
		reason escalation.Reason
	}{"40": {escalation.ActionProceed, escalation.ReasonConsensus}, "41": {escalation.ActionSkipped, escalation.ReasonNotDrift}, "43": {escalation.ActionHold, escalation.ReasonLowPriority}}
	for task, w := range want {
		if d := got[task]; d.Action != w.action || d.Reason != w.reason {
			t.Errorf("task %s: %s/%s, want %s/%s (%+v)", task, d.Action, d.Reason, w.action, w.reason, d)
		}
	}
	if len(got) != 3 || len(bad) != 1 || bad[0] != 3 || st.Decided != 3 || st.Malformed != 1 {
		t.Errorf("decided %v, malformed lines %v, stats %+v", got, bad, st)
	}

	got, _, st, err = run()
	if err != nil || len(got) != 0 || st.Already != 3 || st.Decided != 0 {
		t.Errorf("second run: decided %v, stats %+v, %v", got, st, err)
	}
	f, err := os.Open(filepath.Join(root, gating.LogName))
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := gating.ReadLog(f)
	f.Close()
	if err != nil || len(entries) != 1 || !strings.HasPrefix(entries[0].Source, "task:") || entries[0].DebateID == "" {
		t.Errorf("gate.jsonl: %+v %v; want the one decision on task 40", entries, err)
	}

	var ie *Error
	if _, err := a.Escalate(context.Background(), EscalateOptions{Telemetry: filepath.Join(dir, "gone.jsonl")}); !errors.As(err, &ie) || ie.Field != FieldTelemetry || ie.Problem != ProblemFile {
		t.Errorf("missing telemetry: %v", err)
	}
	if _, err := a.Escalate(context.Background(), EscalateOptions{Telemetry: telemetry, Workspace: telemetry}); !errors.As(err, &ie) || ie.Field != FieldEscalationWorkspace || ie.Problem != ProblemFile {
		t.Errorf("a file as the workspace: %v", err)
	}
}

// A run that stops on a record (no agents configured: exit 2) logs no
// gate decision for it; the run that decides it logs the decision it acted
// on, once: gate stats count one decision per record decided, made by the
// gate mode that decided it.
func TestEscalateLogsTheGateDecisionItActedOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o700)
	telemetry := write(t, filepath.Join(dir, "verifier.jsonl"),
		`{"timestamp":"2026-06-02T09:00:00Z","task_id":"m1","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["maybe the retry is never reached, not sure"],"claims":["Retries work"]}`+"\n")
	a := New(Options{Root: root})
	escalate := func(config string) error {
		write(t, filepath.Join(root, "config.json"), config)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := a.Escalate(ctx, EscalateOptions{Telemetry: telemetry, Workspace: dir})
		return err
	}
	if err := escalate(`{"escalation":{"gateMode":"model"}}`); !errors.Is(err, escalation.ErrNoAgents) {
		t.Fatalf("without agents: %v, want ErrNoAgents", err)
	}
	if err := escalate(`{"escalation":{"gateMode":"rules","defender":"@Keeper","attacker":"@Doubter"}}`); err != nil {
		t.Fatal(err)
	}
	entries, _, err := a.GateLog()
	if err != nil || len(entries) != 1 || entries[0].Source != "task:m1" || entries[0].Mode != gating.ModeRules {
		t.Fatalf("gate.jsonl: %+v %v; want one decision on task m1, by the rules gate that decided it", entries, err)
	}
	st, _, err := a.GateStats()
	if err != nil || st.Decisions != 1 {
		t.Fatalf("gate stats: %+v %v; want 1 decision", st, err)
	}
}

// With agents that cannot be had, the hold's detail names every one of
// them, why, and what to do (docs/escalation.md, "Unreachable agents").
func TestEscalateNamesEveryUnavailableAgent(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1" // nothing listens there once closed
	ln.Close()
	for _, tc := range []struct {
		name, defender, attacker string
		want                     []string
	}{
		{"not running", "@Keeper", "@Doubter", []string{
			"the defender Keeper is not running", "parley agent run --name Keeper",
			"the attacker Doubter is not running", "parley agent run --name Doubter"}},
		{"one endpoint down", "openai:model-a", "openai:model-b", []string{
			"the attacker (openai:model-b) and the defender (openai:model-a) are unavailable",
			"connection refused", "start the model server, or set openai.baseUrl in config.json"}},
		{"mixed", "@Keeper", "script:missing.json", []string{
			"the defender Keeper is not running", "parley agent run --name Keeper",
			"the attacker (script:", "missing.json", "check escalation.attacker in"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			root := filepath.Join(dir, "root")
			os.MkdirAll(root, 0o700)
			write(t, filepath.Join(root, "config.json"), fmt.Sprintf(`{"openai":{"baseUrl":%q},"escalation":{"gateMode":"rules","defender":%q,"attacker":%q}}`, closed, tc.defender, tc.attacker))
			telemetry := write(t, filepath.Join(dir, "verifier.jsonl"),
				`{"timestamp":"2026-06-02T09:00:00Z","task_id":"7","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["maybe not"],"claims":["Done"]}`+"\n")
			var got []escalation.Decision
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := New(Options{Root: root}).Escalate(ctx, EscalateOptions{Telemetry: telemetry, Workspace: dir,
				Decided: func(d *escalation.Decision, _ []byte) error { got = append(got, *d); return nil }})
			if err != nil || len(got) != 1 || got[0].Action != escalation.ActionHold || got[0].Reason != escalation.ReasonUnavailable {
				t.Fatalf("decisions %+v, %v; want one hold/unavailable", got, err)
			}
			for _, w := range tc.want {
				// The commands to run name the root they are for.
				w = strings.ReplaceAll(w, "parley agent run", suggest.CommandLine("parley", "--root", root, "agent", "run"))
				if !strings.Contains(got[0].Detail, w) {
					t.Errorf("detail %q does not say %q", got[0].Detail, w)
				}
			}
		})
	}
}

// A debate that closed and was filed before the ledger recorded its
// decision (a crash between the two) is not run again: its outcome is
// read back. If its files no longer verify against its seal, that outcome
// is not acted on: the run stops on the record, naming the tampering,
// instead of answering proceed from a record someone rewrote.
func TestEscalateRefusesATamperedClosedDebate(t *testing.T) {
	t.Parallel()
	a, dir, root := cacheEscalation(t)
	telemetry := write(t, filepath.Join(dir, "verifier.jsonl"),
		`{"timestamp":"2026-06-02T09:00:00Z","task_id":"40","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["eviction looked random in one trace"],"claims":["The cache evicts the least recently used entry"],"evidence_paths":["cache.go"]}`+"\n")
	run := func() (map[string]escalation.Decision, error) {
		got := map[string]escalation.Decision{}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, err := a.Escalate(ctx, EscalateOptions{Telemetry: telemetry,
			Decided: func(d *escalation.Decision, _ []byte) error { got[d.TaskID] = *d; return nil }})
		return got, err
	}
	got, err := run()
	if err != nil || got["40"].Action != escalation.ActionProceed || got["40"].Record == "" {
		t.Fatalf("first run: %+v %v", got, err)
	}
	rec := filepath.Join(a.Vault(), filepath.FromSlash(got["40"].Record))
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.Replace(string(data), "least recently used", "most recently used", -1)
	if forged == string(data) {
		t.Fatalf("the record does not hold the claim:\n%s", data)
	}
	write(t, rec, forged)

	// The crash: the decision never reached the ledger.
	if err := os.Remove(filepath.Join(root, escalation.LedgerName)); err != nil {
		t.Fatal(err)
	}
	got, err = run()
	var te *TamperedError
	if !errors.As(err, &te) || te.ID == "" {
		t.Fatalf("second run over a tampered closed debate: decided %+v, err %v; want a *TamperedError", got, err)
	}
	if d, ok := got["40"]; ok {
		t.Errorf("a decision was made from a tampered debate: %+v", d)
	}
	if msg := err.Error(); !strings.Contains(msg, "tampered") || !strings.Contains(msg, te.ID) {
		t.Errorf("the error does not say which debate was tampered with: %q", msg)
	}
}

// cacheEscalation is a root whose escalations debate between two running
// agents, Keeper (defending the claim of task 40 on cache.go) and Doubter
// (objecting once, then conceding), in a workspace beside it; dir holds
// both.
func cacheEscalation(t *testing.T) (a *App, dir, root string) {
	t.Helper()
	dir = t.TempDir()
	root = filepath.Join(dir, "root")
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(root, 0o700)
	os.MkdirAll(ws, 0o700)
	write(t, filepath.Join(ws, "cache.go"), "package cache\n\nfunc Evict() { lru.RemoveOldest() }\n")
	write(t, filepath.Join(root, "config.json"), `{"escalation":{"gateMode":"rules","defender":"@Keeper","attacker":"@Doubter","workspace":"../ws"},"debate":{"budgets":{"verify":{"maxWallClockMs":30000}}}}`)
	a = New(Options{Root: root})
	claim := "Task 40 is complete as claimed: The cache evicts the least recently used entry"
	runAgent(t, a, "Keeper", debate.RoleDefender, `{"turns":[{"round":1,"position":"`+claim+`","evidence_refs":["cache.go:3"],"tokens":60}]}`)
	runAgent(t, a, "Doubter", debate.RoleAttacker, `{"turns":[{"round":1,"position":"Eviction order is random","counter_to":"x","confidence_change":-1,"tokens":40},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":10}]}`)
	return a, dir, root
}

// Following a telemetry file that is not there waits for it, and says so:
// a mistyped path would otherwise wait in silence. A file that is there is
// followed without a word.
func TestEscalateFollowSaysTheFileIsNotThereYet(t *testing.T) {
	t.Parallel()
	a, dir, _ := cacheEscalation(t)
	follow := func(path string) []error {
		t.Helper()
		var warned []error
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if _, err := a.Escalate(ctx, EscalateOptions{Telemetry: path, Follow: true, Ready: cancel,
			Warn: func(err error) { warned = append(warned, err) }}); err != nil {
			t.Fatal(err)
		}
		return warned
	}
	gone := filepath.Join(dir, "verifer.jsonl")
	if w := follow(gone); len(w) != 1 || !errors.Is(w[0], ErrFollowAbsent) || !strings.Contains(w[0].Error(), gone) {
		t.Errorf("following %s, which is not there: warned %v", gone, w)
	}
	noDir := filepath.Join(dir, "cache", "verifier.jsonl")
	if w := follow(noDir); len(w) != 1 || !errors.Is(w[0], ErrFollowAbsent) || !strings.Contains(w[0].Error(), "nor does its directory "+filepath.Dir(noDir)) {
		t.Errorf("following %s, whose directory is not there: warned %v", noDir, w)
	}
	there := write(t, filepath.Join(dir, "verifier.jsonl"), "")
	if w := follow(there); len(w) != 0 {
		t.Errorf("following %s, which is there: warned %v", there, w)
	}
}

// A stream (standard input, a pipe) that ends inside its last line has
// nothing more to give and no later run reads it: the line is malformed,
// reported with its number, not left "for a later run" as the last line
// of a file is (its writer may still be writing it).
func TestEscalateStreamEndingInsideALine(t *testing.T) {
	t.Parallel()
	a, dir, _ := cacheEscalation(t)
	records := `{"timestamp":"2026-06-02T09:00:00Z","task_id":"41","verdict":"CONFIRMED"}` + "\n\n" + `{"timestamp":"2026-06-02T09:01:00Z","task_id":"42","verd`
	var bad []int
	var why []error
	st, err := a.Escalate(context.Background(), EscalateOptions{Telemetry: "standard input", Records: strings.NewReader(records),
		Malformed: func(n int, err error) { bad = append(bad, n); why = append(why, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Incomplete || st.Malformed != 1 || st.Decided != 1 || len(bad) != 1 || bad[0] != 3 || !errors.Is(why[0], escalation.ErrMalformed) {
		t.Fatalf("stats %+v, malformed lines %v %v; want line 3 malformed", st, bad, why)
	}
	// A file's last line without its newline is left for a later run.
	telemetry := write(t, filepath.Join(dir, "verifier.jsonl"), records)
	bad = nil
	st, err = a.Escalate(context.Background(), EscalateOptions{Telemetry: telemetry, Malformed: func(n int, _ error) { bad = append(bad, n) }})
	if err != nil || !st.Incomplete || st.Malformed != 0 || len(bad) != 0 {
		t.Fatalf("file: stats %+v, malformed lines %v, %v", st, bad, err)
	}
}

// A root cleared to decide its records again (escalations.jsonl and
// debates/ removed, the vault kept) debates each record anew under a new
// id: under the record's first id, the new debate would find the old
// record "filed already" and leave it standing for itself, its page
// contradicting the new decision and the debate no longer verifying.
func TestEscalateAgainAfterItsDebatesWereRemoved(t *testing.T) {
	t.Parallel()
	a, dir, root := cacheEscalation(t)
	telemetry := write(t, filepath.Join(dir, "verifier.jsonl"),
		`{"timestamp":"2026-06-02T09:00:00Z","task_id":"40","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["eviction looked random in one trace"],"claims":["The cache evicts the least recently used entry"],"evidence_paths":["cache.go"]}`+"\n")
	run := func() escalation.Decision {
		t.Helper()
		var got []escalation.Decision
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if _, err := a.Escalate(ctx, EscalateOptions{Telemetry: telemetry,
			Decided: func(d *escalation.Decision, _ []byte) error { got = append(got, *d); return nil }}); err != nil || len(got) != 1 {
			t.Fatalf("decided %+v, %v", got, err)
		}
		return got[0]
	}
	first := run()
	if first.Action != escalation.ActionProceed || first.Record == "" {
		t.Fatalf("first run: %+v", first)
	}
	for _, p := range []string{escalation.LedgerName, "debates"} {
		if err := os.RemoveAll(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	again := run()
	if again.DebateID == first.DebateID || again.Record == first.Record || again.Action != escalation.ActionProceed {
		t.Fatalf("after its debate was removed, the record was decided as %+v; the first time %+v", again, first)
	}
	c, err := a.ReadConsensus()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if rec, err := c.Store().RecordOf(context.Background(), again.DebateID); err != nil || !strings.HasSuffix(rec, again.Record) {
		t.Errorf("the record of %s is %q (%v), want %q", again.DebateID, rec, err, again.Record)
	}
	st, err := a.OpenDebates()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tr, err := a.Audit(context.Background(), st, again.DebateID)
	if err != nil {
		t.Fatal(err)
	}
	if in := transcripts.NewView(tr).Integrity; in.Tampered() {
		t.Errorf("the new debate does not verify: %s", in.Trouble())
	}
}

// A model "gate learn" installs while an escalation runs decides the
// records that come after it, as it does for "parley gate": escalate
// --follow used to decide every record with the model it found when it
// started. A model that no longer loads is warned of, and the record goes
// to a debate.
func TestEscalateDecidesWithTheModelInstalledMeanwhile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	a := New(Options{Root: root})
	os.MkdirAll(root, 0o700)
	write(t, filepath.Join(root, "config.json"), `{"escalation":{"gateMode":"model","defender":"@Keeper","attacker":"@Doubter"}}`)
	record := func(task string) string {
		return `{"timestamp":"2026-06-02T09:00:00Z","task_id":"` + task + `","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["maybe the retry is never reached, not sure"],"claims":["Retries work"]}` + "\n"
	}
	pr, pw := io.Pipe()
	decided := make(chan string)
	warned := make(chan error, 4)
	done := make(chan error, 1)
	go func() {
		_, err := a.Escalate(context.Background(), EscalateOptions{Telemetry: "standard input", Records: pr, Workspace: dir,
			Decided: func(d *escalation.Decision, _ []byte) error { decided <- d.TaskID; return nil },
			Warn:    func(err error) { warned <- err }})
		done <- err
	}()
	send := func(task string) {
		t.Helper()
		if _, err := io.WriteString(pw, record(task)); err != nil {
			t.Fatal(err)
		}
		if got := <-decided; got != task {
			t.Fatalf("decided task %s, want %s", got, task)
		}
	}
	send("before")
	installed := gating.EmbeddedModel() // named by its file's hash once installed
	if err := a.installModel(durable.Root, installed); err != nil {
		t.Fatal(err)
	}
	send("after")
	if err := os.WriteFile(filepath.Join(root, gating.ModelName), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	send("broken")
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	entries, _, err := a.GateLog()
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]string{}
	for _, e := range entries {
		models[e.Source] = e.Model
	}
	want := map[string]string{"task:before": gating.EmbeddedName, "task:after": gating.ModelFileName(installed)}
	if len(models) != len(want) || models["task:before"] != want["task:before"] || models["task:after"] != want["task:after"] {
		t.Errorf("the gate decided with %v; want %v (and no decision logged for the broken model)", models, want)
	}
	select {
	case w := <-warned:
		if !IsProblem(w, ProblemState) || !strings.HasPrefix(w.Error(), "the gate cannot decide, so the record goes to a debate: ") || !strings.Contains(w.Error(), "gate learn --reset") {
			t.Errorf("warning: %v", w)
		}
	default:
		t.Error("a model that does not load was not warned of")
	}
}

// A record already escalated whose verdict changed since is told to Warn,
// naming the input and the line, and is not decided again.
func TestEscalateWarnsOfAChangedRecord(t *testing.T) {
	t.Parallel()
	a, _, _ := cacheEscalation(t)
	const key = `"timestamp":"2026-06-02T09:00:00Z","task_id":"41"`
	escalate := func(records string) (escalation.Stats, []error) {
		t.Helper()
		var warned []error
		st, err := a.Escalate(context.Background(), EscalateOptions{Telemetry: "standard input", Records: strings.NewReader(records),
			Warn: func(err error) { warned = append(warned, err) }})
		if err != nil {
			t.Fatal(err)
		}
		return st, warned
	}
	escalate(`{` + key + `,"verdict":"HALLUCINATION"}` + "\n")
	st, warned := escalate("\n" + `{` + key + `,"verdict":"DRIFT","priority":"L"}` + "\n")
	if st.Decided != 0 || st.Changed != 1 || len(warned) != 1 || !errors.Is(warned[0], escalation.ErrChanged) ||
		!strings.HasPrefix(warned[0].Error(), "standard input:2: task 41 at 2026-06-02T09:00:00Z was decided from a record that said HALLUCINATION") {
		t.Fatalf("stats %+v, warned %v; want line 2 of standard input said changed, nothing decided", st, warned)
	}
}

// cacheDrift is a DRIFT record of task 40 (the cache of cacheEscalation)
// at ts, making claim.
func cacheDrift(ts, claim string) string {
	return fmt.Sprintf(`{"timestamp":%q,"task_id":"40","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["eviction looked random in one trace"],"claims":[%q],"evidence_paths":["cache.go"]}`, ts, claim) + "\n"
}

// decideOne escalates the records lines, written to the telemetry file
// path, and returns the one decision they must give.
func decideOne(t *testing.T, a *App, path, lines string) escalation.Decision {
	t.Helper()
	var got []escalation.Decision
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := a.Escalate(ctx, EscalateOptions{Telemetry: write(t, path, lines),
		Decided: func(d *escalation.Decision, _ []byte) error { got = append(got, *d); return nil }}); err != nil || len(got) != 1 {
		t.Fatalf("decided %+v, %v", got, err)
	}
	return got[0]
}

// A later DRIFT on a task whose closure a debate settled, on the same
// claims, is decided from the filed consensus: no second debate runs, and
// the line names the record and the debate that settled it. Other claims
// are a question of their own and are debated.
func TestEscalateLooksUpTheSettledConsensusFirst(t *testing.T) {
	t.Parallel()
	a, dir, root := cacheEscalation(t)
	record := cacheDrift
	run := func(name, lines string) escalation.Decision { return decideOne(t, a, filepath.Join(dir, name), lines) }
	first := run("one.jsonl", record("2026-06-02T09:00:00Z", "The cache evicts the least recently used entry"))
	if first.Action != escalation.ActionProceed || first.DebateID == "" {
		t.Fatalf("first record: %+v", first)
	}
	again := run("two.jsonl", record("2026-06-03T09:00:00Z", "The cache evicts the least recently used entry"))
	if again.Action != escalation.ActionProceed || again.Reason != escalation.ReasonConsensus ||
		again.DebateID != first.DebateID || again.Record != first.Record || !strings.Contains(again.Detail, "no new debate") {
		t.Errorf("the same claims again: %+v; want proceed from debate %s, record %s, saying no new debate ran", again, first.DebateID, first.Record)
	}
	if ds, err := os.ReadDir(filepath.Join(root, "debates")); err != nil || len(ds) != 1 {
		t.Errorf("debates after the same claims again: %v %v; want the first one only", ds, err)
	}
	other := run("three.jsonl", record("2026-06-04T09:00:00Z", "The cache evicts the most recently used entry"))
	if other.DebateID == first.DebateID || other.DebateID == "" {
		t.Errorf("other claims: %+v; want a debate of their own", other)
	}
}

// A record decided before is not decided again, and the caller is told
// what its decision was, with the line it is on: a rerun that said nothing
// left the user unable to tell what happened to it.
func TestEscalateTellsWhatARecordDecidedBeforeWas(t *testing.T) {
	t.Parallel()
	a, dir, _ := cacheEscalation(t)
	telemetry := write(t, filepath.Join(dir, "verifier.jsonl"),
		`{"timestamp":"2026-06-02T09:00:00Z","task_id":"41","verdict":"CONFIRMED"}`+"\n"+
			`{"timestamp":"2026-06-02T09:01:00Z","task_id":"40","verdict":"DRIFT","priority":"M","confidence":0.3,"reasons":["eviction looked random in one trace"],"claims":["The cache evicts the least recently used entry"],"evidence_paths":["cache.go"]}`+"\n")
	run := func() (decided map[string]escalation.Decision, already map[int]escalation.Decision) {
		t.Helper()
		decided, already = map[string]escalation.Decision{}, map[int]escalation.Decision{}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if _, err := a.Escalate(ctx, EscalateOptions{Telemetry: telemetry,
			Decided: func(d *escalation.Decision, _ []byte) error { decided[d.TaskID] = *d; return nil },
			Already: func(n int, d *escalation.Decision) { already[n] = *d }}); err != nil {
			t.Fatal(err)
		}
		return decided, already
	}
	first, already := run()
	if len(first) != 2 || len(already) != 0 {
		t.Fatalf("first run: decided %+v, already %+v", first, already)
	}
	again, already := run()
	if len(again) != 0 {
		t.Errorf("second run decided %+v again", again)
	}
	for n, task := range map[int]string{1: "41", 2: "40"} {
		was, got := first[task], already[n]
		if got.TaskID != task || got.Timestamp != was.Timestamp || got.Action != was.Action || got.Reason != was.Reason ||
			got.DebateID != was.DebateID || got.Record != was.Record || got.Decided != was.Decided {
			t.Errorf("line %d: told %+v, want the decision made before %+v", n, got, was)
		}
	}
}

// A settled record edited by hand since its filing settles nothing: the
// later DRIFT on the same claims is debated, never decided from the
// edited page.
func TestEscalateDoesNotDecideFromAnEditedSettledRecord(t *testing.T) {
	t.Parallel()
	a, dir, _ := cacheEscalation(t)
	record := func(ts string) string { return cacheDrift(ts, "The cache evicts the least recently used entry") }
	run := func(name, lines string) escalation.Decision { return decideOne(t, a, filepath.Join(dir, name), lines) }
	first := run("one.jsonl", record("2026-06-02T09:00:00Z"))
	page := filepath.Join(a.Vault(), filepath.FromSlash(first.Record))
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	write(t, page, strings.Replace(string(data), "Doubter", "Someone", -1)+"\nEdited by hand.\n")
	again := run("two.jsonl", record("2026-06-03T09:00:00Z"))
	if again.DebateID == first.DebateID || strings.Contains(again.Detail, "settled by") {
		t.Errorf("decided from a record edited by hand: %+v", again)
	}
	// The user who expected the filed consensus to decide is told why it
	// did not, and what decided instead.
	if want := "the filed consensus " + first.Record + " was not decided from: it does not verify against its debate's seal"; !strings.HasPrefix(again.Detail, want) ||
		!strings.Contains(again.Detail, "; a new debate decided: ") {
		t.Errorf("detail %q: want it to start %q and then say what the new debate decided", again.Detail, want)
	}
}

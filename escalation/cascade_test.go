package escalation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/roottest"
)

// fakeDebater answers each debate with the outcome its task's play
// builds, and counts the debates it was asked for.
type fakeDebater struct {
	mu    sync.Mutex
	plays map[string]func(s *debate.DebateSession) (*debate.Outcome, error)
	calls map[string]int
}

func (f *fakeDebater) Debate(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[s.ID]++
	task := strings.TrimPrefix(s.Topic, "Closure of task ")
	play, ok := f.plays[task]
	if !ok {
		return nil, fmt.Errorf("no play for task %s", task)
	}
	o, err := play(s)
	if o != nil {
		o.DebateID, o.Record, o.Session = s.ID, "wiki/consensus/verify-"+debate.SlugOr(s.Topic, 60)+".md", s
	}
	return o, err
}

// turn is a recorded turn of a participant of s.
func turn(s *debate.DebateSession, role debate.Role, round int, pos string, ev ...debate.EvidenceCheck) debate.TurnRecord {
	name := s.Defender().Name
	if role == debate.RoleAttacker {
		name = s.Attackers()[0].Name
	}
	return debate.TurnRecord{Turn: debate.Turn{Round: round, Role: role, Position: pos}, Agent: name, Evidence: ev}
}

func both(s *debate.DebateSession) []debate.TurnRecord {
	return []debate.TurnRecord{turn(s, debate.RoleAttacker, 1, "The retry loop is missing"), turn(s, debate.RoleDefender, 1, s.OpeningPosition())}
}

func consensus(rule debate.Rule, final func(s *debate.DebateSession) string, turns func(s *debate.DebateSession) []debate.TurnRecord) func(s *debate.DebateSession) (*debate.Outcome, error) {
	return func(s *debate.DebateSession) (*debate.Outcome, error) {
		return &debate.Outcome{Verdict: debate.ConsensusReached, Action: debate.ActionProceed, Rule: rule, FinalPosition: final(s), Turns: turns(s), Reason: "r"}, nil
	}
}

func opening(s *debate.DebateSession) string { return s.OpeningPosition() }

func verdict(v debate.Verdict, rule debate.Rule, turns func(s *debate.DebateSession) []debate.TurnRecord, forfeits ...debate.ForfeitEvent) func(s *debate.DebateSession) (*debate.Outcome, error) {
	return func(s *debate.DebateSession) (*debate.Outcome, error) {
		o := &debate.Outcome{Verdict: v, Action: debate.ActionEscalate, Rule: rule, Turns: turns(s), Reason: string(v) + " reason"}
		for _, f := range forfeits {
			f.Agent = s.Attackers()[0].Name
			o.Forfeits = append(o.Forfeits, f)
		}
		if v == debate.BudgetExhausted {
			o.Action, o.FinalPosition = debate.ActionProceed, s.OpeningPosition() // a last agreed position: still a hold
		}
		return o, nil
	}
}

// The cascade table of SPEC §9 and README "Escalation", one telemetry
// line per row.
var cascadeRows = []struct {
	line   string
	play   func(s *debate.DebateSession) (*debate.Outcome, error)
	action Action
	reason Reason
}{
	{`{"timestamp":"2026-05-14T13:18:42Z","task_id":"100123","verdict":"CONFIRMED","confidence":0.92,"latency_ms":2341,"model_id":"gemma","cost_usd":0,"reasons":[],"fallback_used":false,"priority":"M"}`,
		nil, ActionSkipped, ReasonNotDrift},
	{`{"timestamp":"2026-05-14T13:19:00Z","task_id":"100124","verdict":"hallucination","priority":"L"}`, nil, ActionSkipped, ReasonNotDrift},
	{`{"timestamp":"2026-05-14T13:19:01Z","task_id":"100125","verdict":"SKIP","fallback_used":true}`, nil, ActionSkipped, ReasonNotDrift},
	{`{"timestamp":"2026-05-14T13:20:00Z","task_id":"100126","verdict":"DRIFT","priority":"H","reasons":["x"]}`, nil, ActionSkipped, ReasonHighPriority},
	{`{"timestamp":"2026-05-14T13:20:01Z","task_id":"100127","verdict":"DRIFT","priority":"blocker"}`, nil, ActionSkipped, ReasonHighPriority},
	{`{"timestamp":"2026-05-14T13:21:00Z","task_id":"100128","verdict":"DRIFT","priority":"L","confidence":0.4,"reasons":["might be missing"]}`, nil, ActionHold, ReasonLowPriority},
	{`{"timestamp":"2026-05-14T13:22:00Z","task_id":"100129","verdict":"DRIFT","priority":"M","confidence":0.95,"reasons":["The file api/keys.go has no retry loop."],"claims":["Retries are implemented"]}`,
		nil, ActionHold, ReasonGateSkip},
	{`{"timestamp":"2026-05-14T13:23:00Z","task_id":"100130","verdict":"DRIFT","priority":"M","confidence":0.55,"reasons":["The retry loop might be missing"],"claims":["Retries are implemented"],"evidence_paths":["api/keys.go"]}`,
		consensus(debate.RuleConceded, opening, both), ActionProceed, ReasonConsensus},
	{`{"timestamp":"2026-05-14T13:24:00Z","task_id":"100131","verdict":"DRIFT","confidence":0.5,"reasons":["I am not sure the tests ran"],"claims":["Tests pass"]}`,
		consensus(debate.RuleSurvived, opening, both), ActionProceed, ReasonConsensus},
	{`{"timestamp":"2026-05-14T13:25:00Z","task_id":"100132","verdict":"DRIFT","priority":"m","confidence":0.5,"reasons":["maybe incomplete"],"claims":["Done"]}`,
		consensus(debate.RuleAdopted, func(*debate.DebateSession) string { return "The retry loop is missing" }, both), ActionHold, ReasonAttackerWon},
	{`{"timestamp":"2026-05-14T13:26:00Z","task_id":"100133","verdict":"DRIFT","confidence":0.5,"reasons":["perhaps partial"],"claims":["All endpoints done"]}`,
		consensus(debate.RuleConceded, func(*debate.DebateSession) string { return "Two of three endpoints are done" }, both), ActionHold, ReasonClaimsChanged},
	{`{"timestamp":"2026-05-14T13:27:00Z","task_id":"100134","verdict":"DRIFT","confidence":0.5,"reasons":["unclear"],"claims":["Done"]}`,
		consensus(debate.RuleConceded, opening, func(s *debate.DebateSession) []debate.TurnRecord {
			return []debate.TurnRecord{turn(s, debate.RoleAttacker, 1, "x"), turn(s, debate.RoleDefender, 1, s.OpeningPosition(),
				debate.EvidenceCheck{Ref: "api/gone.go:3", Status: debate.EvidenceMissing})}
		}), ActionHold, ReasonEvidence},
	{`{"timestamp":"2026-05-14T13:28:00Z","task_id":"100135","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"],"evidence_paths":["docs/missing.md"]}`,
		consensus(debate.RuleConceded, opening, both), ActionHold, ReasonEvidence},
	{`{"timestamp":"2026-05-14T13:29:00Z","task_id":"100136","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"]}`,
		verdict(debate.Deadlock, debate.RuleRepeated, both), ActionHold, ReasonDeadlock},
	{`{"timestamp":"2026-05-14T13:30:00Z","task_id":"100137","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"]}`,
		verdict(debate.BudgetExhausted, debate.RuleMaxRounds, both), ActionHold, ReasonBudget},
	{`{"timestamp":"2026-05-14T13:31:00Z","task_id":"100138","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"]}`,
		verdict(debate.Timeout, debate.RuleWallClock, both), ActionHold, ReasonTimeout},
	{`{"timestamp":"2026-05-14T13:32:00Z","task_id":"100139","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"]}`,
		verdict(debate.Timeout, debate.RuleForfeit, func(*debate.DebateSession) []debate.TurnRecord { return nil },
			debate.ForfeitEvent{Round: 1, Role: debate.RoleAttacker, Reason: debate.ForfeitDied}), ActionHold, ReasonUnavailable},
	{`{"timestamp":"2026-05-14T13:33:00Z","task_id":"100140","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"]}`,
		verdict(debate.BudgetExhausted, debate.RuleMaxRounds, func(s *debate.DebateSession) []debate.TurnRecord { return both(s)[1:] },
			debate.ForfeitEvent{Round: 1, Role: debate.RoleAttacker, Reason: debate.ForfeitBadReply}), ActionHold, ReasonUnavailable},
	{`{"timestamp":"2026-05-14T13:34:00Z","task_id":"100141","verdict":"DRIFT","confidence":0.5,"reasons":["maybe"],"claims":["Done"]}`,
		func(s *debate.DebateSession) (*debate.Outcome, error) {
			return nil, fmt.Errorf("%w: connection refused", ErrUnavailable)
		}, ActionHold, ReasonUnavailable},
}

type fixture struct {
	root, workspace string
	debater         *fakeDebater
	gateLog         []gating.LogEntry
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{root: filepath.Join(dir, "root"), workspace: filepath.Join(dir, "ws"), debater: &fakeDebater{plays: map[string]func(*debate.DebateSession) (*debate.Outcome, error){}}}
	for _, d := range []string{f.root, filepath.Join(f.workspace, "api")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.workspace, "api", "keys.go"), []byte("package api\n\nfunc Retry() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, row := range cascadeRows {
		r, err := ParseRecord([]byte(row.line))
		if err != nil {
			t.Fatalf("row %s: %v", row.line, err)
		}
		if row.play != nil {
			f.debater.plays[r.TaskID] = row.play
		}
	}
	return f
}

// run opens the ledger, escalates the file's content, and closes it.
func (f *fixture) run(t *testing.T, telemetry string) (Stats, []*Decision, []string, []int) {
	t.Helper()
	root, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	l, err := OpenLedger(root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	e := &Escalator{
		Ledger: l, Gate: gating.Rules(), Debater: f.debater, Defender: "script:d.json", Attacker: "script:a.json",
		Workspace: f.workspace, Budget: debate.DefaultBudget(debate.LayerVerify),
		GateLog: func(le gating.LogEntry) error { f.gateLog = append(f.gateLog, le); return nil },
	}
	var ds []*Decision
	var lines []string
	var bad []int
	st, err := e.Run(context.Background(), strings.NewReader(telemetry), Sink{
		Malformed: func(n int, err error) { bad = append(bad, n) },
		Decided: func(d *Decision, line []byte) error {
			ds = append(ds, d)
			lines = append(lines, string(line))
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, ds, lines, bad
}

func TestCascadeTable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var file bytes.Buffer
	for _, row := range cascadeRows {
		file.WriteString(row.line + "\n")
	}
	st, ds, lines, bad := f.run(t, file.String())
	if len(bad) != 0 || st.Records != len(cascadeRows) || st.Decided != len(cascadeRows) {
		t.Fatalf("stats %+v, malformed lines %v", st, bad)
	}
	for i, row := range cascadeRows {
		d := ds[i]
		r, _ := ParseRecord([]byte(row.line))
		t.Run(r.TaskID, func(t *testing.T) {
			if d.TaskID != r.TaskID || d.Timestamp != r.Timestamp || d.Action != row.action || d.Reason != row.reason || d.Detail == "" {
				t.Fatalf("decision %+v, want %s/%s", d, row.action, row.reason)
			}
			if d.Action == ActionProceed && (d.Verdict != debate.ConsensusReached || d.Reason != ReasonConsensus) {
				t.Fatalf("proceed without consensus on the claims: %+v", d)
			}
			debated := row.play != nil
			if debated != (f.debater.calls[DebateID(r)] == 1) {
				t.Fatalf("debates for %s: %d", r.TaskID, f.debater.calls[DebateID(r)])
			}
			if debated && row.reason != ReasonUnavailable && (d.DebateID != DebateID(r) || d.Record == "" || d.Verdict == "") {
				t.Fatalf("a debated decision without its debate: %+v", d)
			}
			if !debated && (d.DebateID != "" || d.Verdict != "") {
				t.Fatalf("a decision without a debate names one: %+v", d)
			}
			// The output line is the ledger line.
			var back Decision
			if err := json.Unmarshal([]byte(lines[i]), &back); err != nil || back != *d {
				t.Fatalf("line %s does not decode to %+v: %v", lines[i], d, err)
			}
		})
	}
	// Every gate decision was logged with its would-be debate id.
	if len(f.gateLog) != 13 {
		t.Fatalf("%d gate log entries, want 13 (one per M or unprioritised DRIFT)", len(f.gateLog))
	}
	data, err := os.ReadFile(filepath.Join(f.root, LedgerName))
	if err != nil || string(data) != strings.Join(lines, "") {
		t.Fatalf("ledger differs from the output: %v\n%s", err, data)
	}
}

// A second run over the same file decides nothing and debates nothing; a
// record appended later is decided alone.
func TestIdempotentAcrossRuns(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var file bytes.Buffer
	for _, row := range cascadeRows[:9] {
		file.WriteString(row.line + "\n")
	}
	if st, _, _, _ := f.run(t, file.String()); st.Decided != 9 {
		t.Fatalf("first run: %+v", st)
	}
	calls := len(f.debater.calls)
	st, ds, _, _ := f.run(t, file.String())
	if st.Decided != 0 || st.Already != 9 || len(ds) != 0 || len(f.debater.calls) != calls {
		t.Fatalf("second run: %+v, %d decisions, debates %v", st, len(ds), f.debater.calls)
	}
	for id, n := range f.debater.calls {
		if n != 1 {
			t.Fatalf("debate %s asked for %d times", id, n)
		}
	}
	file.WriteString(cascadeRows[9].line + "\n" + cascadeRows[0].line + "\n") // one new, one repeated
	st, ds, _, _ = f.run(t, file.String())
	if st.Decided != 1 || st.Already != 10 || ds[0].Reason != ReasonAttackerWon {
		t.Fatalf("third run: %+v %+v", st, ds)
	}
}

// The records held as unavailable are counted by the run that holds them
// and by every later run that leaves them as they are, so that the caller
// can say they wait for a retry; a record decided otherwise is not counted.
func TestStatsCountTheRecordsHeldAsUnavailable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var file bytes.Buffer
	want := 0
	for _, row := range cascadeRows {
		file.WriteString(row.line + "\n")
		if row.reason == ReasonUnavailable {
			want++
		}
	}
	if want == 0 {
		t.Fatal("the cascade table holds no unavailable row")
	}
	if st, _, _, _ := f.run(t, file.String()); st.Unavailable != want || st.Decided != len(cascadeRows) {
		t.Fatalf("first run: %+v, want %d unavailable", st, want)
	}
	if st, _, _, _ := f.run(t, file.String()); st.Unavailable != want || st.Already != len(cascadeRows) {
		t.Fatalf("second run: %+v, want %d unavailable", st, want)
	}
}

// Ctrl-C while a record's agents are checked cuts the check short, which
// reads as agents that cannot be reached: that is no decision. Nothing is
// recorded, the run stops with the interruption, and the next run decides
// the record.
func TestInterruptedDebateDecidesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	row := cascadeRows[7] // an M DRIFT that proceeds after a debate
	r, _ := ParseRecord([]byte(row.line))
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	proceed := f.debater.plays[r.TaskID]
	f.debater.plays[r.TaskID] = func(s *debate.DebateSession) (*debate.Outcome, error) {
		interrupt() // Ctrl-C during the probe of an endpoint
		return nil, fmt.Errorf("%w: model endpoint unreachable: interrupt signal received", ErrUnavailable)
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	l, err := OpenLedger(root)
	if err != nil {
		t.Fatal(err)
	}
	e := &Escalator{Ledger: l, Gate: gating.Rules(), Debater: f.debater, Defender: "script:d.json", Attacker: "script:a.json",
		Workspace: f.workspace, Budget: debate.DefaultBudget(debate.LayerVerify)}
	var ds []*Decision
	st, err := e.Run(ctx, strings.NewReader(row.line+"\n"), Sink{Decided: func(d *Decision, _ []byte) error { ds = append(ds, d); return nil }})
	l.Close()
	if !errors.Is(err, context.Canceled) || len(ds) != 0 || st.Decided != 0 {
		t.Fatalf("interrupted run: err %v, decisions %+v, stats %+v", err, ds, st)
	}
	if data, _ := os.ReadFile(filepath.Join(f.root, LedgerName)); len(data) != 0 {
		t.Fatalf("the interrupted run recorded:\n%s", data)
	}
	f.debater.plays[r.TaskID] = proceed
	if st, ds, _, _ := f.run(t, row.line+"\n"); st.Decided != 1 || ds[0].Action != ActionProceed {
		t.Fatalf("the next run: %+v %+v", st, ds)
	}
}

// A record whose debate is gone, its record filed (ErrDebateGone), is
// debated under its next attempt's id, and the gate's decision names that
// debate.
func TestGoneDebateIsDebatedUnderTheNextID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	row := cascadeRows[7] // an M DRIFT that proceeds after a debate
	r, _ := ParseRecord([]byte(row.line))
	proceed := f.debater.plays[r.TaskID]
	f.debater.plays[r.TaskID] = func(s *debate.DebateSession) (*debate.Outcome, error) {
		if s.ID == DebateID(r) {
			return nil, fmt.Errorf("%w: %s filed wiki/consensus/x.md", ErrDebateGone, s.ID)
		}
		return proceed(s)
	}
	st, ds, _, _ := f.run(t, row.line+"\n")
	if st.Decided != 1 || ds[0].Action != ActionProceed || ds[0].DebateID != AttemptID(r, 2) {
		t.Fatalf("decided %+v (stats %+v); want proceed in debate %s", ds, st, AttemptID(r, 2))
	}
	if n := len(f.gateLog); n != 1 || f.gateLog[0].DebateID != AttemptID(r, 2) {
		t.Fatalf("gate log %+v; want one decision naming %s", f.gateLog, AttemptID(r, 2))
	}
}

func TestMalformedLinesAreReportedAndSkipped(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	telemetry := strings.Join([]string{
		cascadeRows[0].line,
		`{"timestamp":"2026-05-14T13:18:42Z","verdict":"DRIFT"}`, // no task id
		`not json`,
		``,
		`{"timestamp":"yesterday","task_id":"9","verdict":"DRIFT"}`,
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"9","verdict":"DRIFT","priority":"URGENT"}`,
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"9","verdict":"DRIFT","confidence":1.5}`,
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"9","verdict":"DRIFT","reasons":[1,2]}`,
		cascadeRows[3].line,
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"10","verdict":"DRIFT","priority":"H"`, // cut short, no newline
	}, "\n")
	st, ds, _, bad := f.run(t, telemetry)
	if want := []int{2, 3, 5, 6, 7, 8}; fmt.Sprint(bad) != fmt.Sprint(want) {
		t.Fatalf("malformed lines %v, want %v", bad, want)
	}
	if len(ds) != 2 || !st.Incomplete || st.Malformed != 6 {
		t.Fatalf("stats %+v decisions %d", st, len(ds))
	}
	// The last line, once complete, is decided by the next run.
	st, ds, _, _ = f.run(t, telemetry+"}\n")
	if st.Decided != 1 || ds[0].TaskID != "10" || ds[0].Reason != ReasonHighPriority || st.Incomplete {
		t.Fatalf("the completed last line: %+v %+v", st, ds)
	}
}

// TestByteOrderMarkIsNoMalformedLine: a telemetry file saved by a Windows
// editor starts with a UTF-8 byte order mark; its first record is decided,
// not reported as malformed.
func TestByteOrderMarkIsNoMalformedLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	st, ds, _, bad := f.run(t, "\ufeff"+cascadeRows[0].line+"\r\n"+cascadeRows[3].line+"\r\n")
	if len(bad) != 0 || st.Decided != 2 || len(ds) != 2 {
		t.Fatalf("malformed lines %v, stats %+v", bad, st)
	}
}

// TestConfidenceStringIsReadWhole: a confidence string is a number or a
// percentage, read whole; "1/2" is not a confidence of 1.
func TestConfidenceStringIsReadWhole(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]float64{`"0.8"`: 0.8, `" 80% "`: 0.8, `"80 %"`: 0.8, `"1/2"`: -1, `"0.5 extra"`: -1, `"1 out of 2"`: -1, `"abc%"`: -1} {
		r, err := ParseRecord([]byte(`{"timestamp":"2026-05-14T13:18:42Z","task_id":"1","verdict":"DRIFT","confidence":` + s + `}`))
		switch {
		case want < 0 && err == nil:
			t.Errorf("confidence %s read as %v, want it refused", s, *r.Confidence)
		case want >= 0 && err != nil:
			t.Errorf("confidence %s: %v", s, err)
		case want >= 0 && math.Abs(*r.Confidence-want) > 1e-9:
			t.Errorf("confidence %s read as %v, want %v", s, *r.Confidence, want)
		}
	}
}

func TestLedgerLockAndTornLine(t *testing.T) {
	t.Parallel()
	root, dir := roottest.Temp(t)
	good, _ := json.Marshal(Decision{TaskID: "1", Timestamp: "t", Action: ActionHold, Reason: ReasonLowPriority})
	// A ledger whose last line was torn by a crash.
	if err := os.WriteFile(filepath.Join(dir, LedgerName), append(append(good, '\n'), []byte(`{"task_id":"2","times`)...), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLedger(root)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Has(Key("1", "t")) || l.Has(Key("2", "t")) || l.Bad() != 1 || l.Len() != 1 {
		t.Fatalf("has 1 %v, bad %d, len %d", l.Has(Key("1", "t")), l.Bad(), l.Len())
	}
	// A second holder is refused while the first runs.
	if _, err := OpenLedger(root); err == nil || !strings.Contains(err.Error(), ErrBusy.Error()) {
		t.Fatalf("second open: %v", err)
	}
	if _, err := l.Append(Decision{TaskID: "3", Timestamp: "t", Action: ActionSkipped, Reason: ReasonNotDrift, Detail: strings.Repeat("x ", 5000)}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(filepath.Join(dir, LedgerName))
	ds, bad, err := ReadLedger(bytes.NewReader(data))
	if err != nil || len(ds) != 2 || bad != 1 || ds[1].TaskID != "3" || len(ds[1].Detail) > maxDetail+4 {
		t.Fatalf("ledger after the append: %d decisions, %d bad, %v:\n%s", len(ds), bad, err, data)
	}
}

func TestDebateIDIsDerived(t *testing.T) {
	t.Parallel()
	a := &Record{TaskID: "100123", Timestamp: "2026-05-14T13:18:42Z"}
	b := &Record{TaskID: "100123", Timestamp: "2026-05-14T13:18:43Z"}
	c := &Record{TaskID: "../../etc/passwd \x00 ☃", Timestamp: "2026-05-14T23:59:59-05:00"}
	if DebateID(a) != DebateID(&Record{TaskID: a.TaskID, Timestamp: a.Timestamp}) || DebateID(a) == DebateID(b) {
		t.Fatalf("ids %s %s", DebateID(a), DebateID(b))
	}
	for _, r := range []*Record{a, b, c} {
		if err := debate.ValidateID(DebateID(r)); err != nil {
			t.Errorf("%q: %v", r.TaskID, err)
		}
	}
	if !strings.HasPrefix(DebateID(a), "20260514-verify-task-100123-") || !strings.HasPrefix(DebateID(c), "20260515-verify-") {
		t.Errorf("ids %s %s", DebateID(a), DebateID(c))
	}
}

func TestSessionFromARecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r, err := ParseRecord([]byte(`{"timestamp":"2026-05-14T13:23:00Z","task_id":"7","verdict":"DRIFT","confidence":"60%","model_id":"gemma",
		"reasons":["The retry loop might be missing"],"claims":["Retries are implemented","Tests cover them"],
		"evidence_paths":["api/keys.go:3","docs/none.md","/etc/passwd"]}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Session(r, "openai:qwen", "@Critic", f.workspace, debate.DefaultBudget(debate.LayerVerify), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if s.Layer != debate.LayerVerify || s.Position != "Task 7 is complete as claimed: Retries are implemented; Tests cover them" || s.Workspace != f.workspace {
		t.Fatalf("session %+v", s)
	}
	if a, d := s.Attackers()[0], s.Defender(); a.Name != "Critic" || a.Agent != "@Critic" || d.Agent != "openai:qwen" || !strings.HasPrefix(d.Name, "Defender-") {
		t.Fatalf("participants %+v", s.Participants)
	}
	texts := map[string]string{}
	for _, c := range s.Context {
		texts[c.Ref] = c.Text
	}
	if !strings.Contains(texts["verifier reasons (the attacker's case)"], "The retry loop might be missing") ||
		!strings.Contains(texts["claims (the defender's case)"], "Tests cover them") ||
		!strings.Contains(texts["api/keys.go:3"], "func Retry()") ||
		!strings.Contains(texts["docs/none.md"], "missing") || !strings.Contains(texts["/etc/passwd"], "outside the workspace") {
		t.Fatalf("context %v", texts)
	}
	sc := SelfCritique(r)
	if sc.Critique != "The retry loop might be missing" || *sc.FinalConfidence != 0.6 || len(sc.EvidenceRefs) != 3 || sc.Layer != debate.LayerVerify {
		t.Fatalf("self-critique %+v", sc)
	}
	if _, err := gating.Default().Decide(sc); err != nil {
		t.Fatalf("the gate cannot read it: %v", err)
	}
	if _, err := Session(r, "", "", f.workspace, debate.DefaultBudget(debate.LayerVerify), time.Now()); err != ErrNoAgents {
		t.Fatalf("no agents: %v", err)
	}
}

// An evidence path naming a named pipe in the workspace is not opened for
// a read that waits for a writer: building the session (and judging its
// evidence) returns.
func TestEvidenceNamedPipeDoesNotHang(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r := &Record{TaskID: "9", Timestamp: "2026-05-14T13:18:42Z", Verdict: VerdictDrift, EvidencePaths: []string{"pipe"}}
	type result struct {
		s   *debate.DebateSession
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := Session(r, "script:d.json", "script:a.json", ws, debate.DefaultBudget(debate.LayerVerify), time.Now())
		done <- result{s, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			t.Fatal(res.err)
		}
		last := res.s.Context[len(res.s.Context)-1]
		if last.Ref != "pipe" || !strings.Contains(last.Text, "not a regular file") {
			t.Fatalf("context item %+v", last)
		}
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(filepath.Join(ws, "pipe"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("reading a named pipe as evidence blocked")
	}
}

// Claims too long for a turn's position (debate.MaxPositionLen) would make
// an opening position the defender can never restate, so that the claims
// could never stand: the position then names the claims in the context.
func TestLongClaimsStillMakeARestatablePosition(t *testing.T) {
	t.Parallel()
	var claims []string
	for i := 0; i < 20; i++ {
		claims = append(claims, fmt.Sprintf("Claim %d: %s", i, strings.Repeat("w", 300)))
	}
	r := &Record{TaskID: "77", Timestamp: "2026-05-14T13:18:42Z", Verdict: VerdictDrift, Claims: claims}
	p := Position(r)
	if n := len([]rune(p)); n > debate.MaxPositionLen || !strings.HasPrefix(p, "Task 77 is complete as claimed") {
		t.Fatalf("position of %d characters: %.120q", n, p)
	}
	// Short claims are the position themselves, as before.
	r.Claims = []string{"Retries back off"}
	if p := Position(r); p != "Task 77 is complete as claimed: Retries back off" {
		t.Fatalf("position %q", p)
	}
}

// A run that stops on a record with an error (its debate did not close,
// no agents are configured) logs no gate decision for it: the run that
// decides it later logs the one it acted on, once, and gate stats count
// one decision per record decided.
func TestGateDecisionLoggedOnceTheRecordIsDecided(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	row := cascadeRows[0]
	for _, r := range cascadeRows {
		if r.action == ActionProceed {
			row = r
			break
		}
	}
	rec, _ := ParseRecord([]byte(row.line))
	failing := true
	f.debater.plays[rec.TaskID] = func(s *debate.DebateSession) (*debate.Outcome, error) {
		if failing {
			return nil, fmt.Errorf("the defender's process did not start")
		}
		return row.play(s)
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	escalate := func(defender string) (*Decision, error) {
		l, err := OpenLedger(root)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		e := &Escalator{
			Ledger: l, Gate: gating.Rules(), Debater: f.debater, Defender: defender, Attacker: "script:a.json",
			Workspace: f.workspace, Budget: debate.DefaultBudget(debate.LayerVerify),
			GateLog: func(le gating.LogEntry) error { f.gateLog = append(f.gateLog, le); return nil },
		}
		d, _, err := e.Escalate(context.Background(), rec)
		return d, err
	}
	if _, err := escalate(""); err != ErrNoAgents {
		t.Fatalf("without agents: %v, want ErrNoAgents", err)
	}
	if _, err := escalate("script:d.json"); err == nil {
		t.Fatal("a debate that did not close decided the record")
	}
	if len(f.gateLog) != 0 {
		t.Fatalf("%d gate decisions logged for a record left undecided, want none", len(f.gateLog))
	}
	failing = false
	d, err := escalate("script:d.json")
	if err != nil || d == nil || d.Action != row.action {
		t.Fatalf("third run: %+v, %v", d, err)
	}
	if len(f.gateLog) != 1 || f.gateLog[0].Source != "task:"+rec.TaskID || f.gateLog[0].DebateID != DebateID(rec) {
		t.Fatalf("gate log %+v, want the one decision on task %s", f.gateLog, rec.TaskID)
	}
}

// TestUnusedFieldsNeverMakeARecordMalformed: latency_ms, cost_usd and
// fallback_used are the verifier's bookkeeping, which no step of the
// cascade reads. A verifier that writes them as strings ("2341", "0.00",
// "false") or leaves a placeholder ("n/a") still has its DRIFT decided:
// the field is read when it can be, else left out, never the record.
func TestUnusedFieldsNeverMakeARecordMalformed(t *testing.T) {
	t.Parallel()
	const head = `{"timestamp":"2026-05-14T13:18:42Z","task_id":"1","verdict":"DRIFT","priority":"L",`
	for _, tc := range []struct {
		fields   string
		latency  float64 // -1: left out
		cost     float64
		fallback bool
	}{
		{`"latency_ms":"2341","cost_usd":"0.00","fallback_used":"false"`, 2341, 0, false},
		{`"latency_ms":" 11990 ","cost_usd":"0.05","fallback_used":"TRUE"`, 11990, 0.05, true},
		{`"latency_ms":"n/a","cost_usd":"","fallback_used":"maybe"`, -1, -1, false},
		{`"latency_ms":{"p95":1},"cost_usd":[0],"fallback_used":1`, -1, -1, true},
		{`"latency_ms":"NaN","cost_usd":"Inf","fallback_used":0`, -1, -1, false},
	} {
		r, err := ParseRecord([]byte(head + tc.fields + `}`))
		if err != nil {
			t.Errorf("%s: %v; want the record read", tc.fields, err)
			continue
		}
		for _, f := range []struct {
			name string
			got  *float64
			want float64
		}{{"latency_ms", r.LatencyMs, tc.latency}, {"cost_usd", r.CostUSD, tc.cost}} {
			switch {
			case f.want < 0 && f.got != nil:
				t.Errorf("%s: %s read as %v, want it left out", tc.fields, f.name, *f.got)
			case f.want >= 0 && (f.got == nil || *f.got != f.want):
				t.Errorf("%s: %s read as %v, want %v", tc.fields, f.name, f.got, f.want)
			}
		}
		if r.FallbackUsed != tc.fallback {
			t.Errorf("%s: fallback_used read as %v, want %v", tc.fields, r.FallbackUsed, tc.fallback)
		}
	}
}

// TestDecisionTheReaderDidNotTakeIsDecidedAgain: a decision is handed to
// the caller (printed) before it is recorded. When the caller cannot take
// it (its reader went away: parley escalate | head -1), the record is left
// undecided, so the next run hands it over instead of printing nothing
// for it; the records handed over before it stay decided.
func TestDecisionTheReaderDidNotTakeIsDecidedAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	telemetry := cascadeRows[5].line + "\n" + cascadeRows[7].line + "\n" + cascadeRows[3].line + "\n"
	root, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	run := func(take func(d *Decision) error) (Stats, error) {
		l, err := OpenLedger(root)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		e := &Escalator{
			Ledger: l, Gate: gating.Rules(), Debater: f.debater, Defender: "script:d.json", Attacker: "script:a.json",
			Workspace: f.workspace, Budget: debate.DefaultBudget(debate.LayerVerify),
		}
		return e.Run(context.Background(), strings.NewReader(telemetry), Sink{Decided: func(d *Decision, _ []byte) error { return take(d) }})
	}
	var got []string
	gone := errors.New("write |1: broken pipe")
	st, err := run(func(d *Decision) error {
		if d.TaskID == "100130" {
			return gone
		}
		got = append(got, d.TaskID)
		return nil
	})
	if !errors.Is(err, gone) || fmt.Sprint(got) != "[100128]" || st.Decided != 1 {
		t.Fatalf("first run: %v, handed over %v, stats %+v; want it stopped by the reader's error after 100128", err, got, st)
	}
	got = nil
	st, err = run(func(d *Decision) error { got = append(got, d.TaskID+" "+string(d.Action)); return nil })
	if err != nil || fmt.Sprint(got) != "[100130 proceed 100126 skipped]" || st.Already != 1 {
		t.Fatalf("second run: %v, handed over %v, stats %+v; want 100130's decision, which the reader never took, then 100126", err, got, st)
	}
}

// TestNULBytesAreNoPartOfARecord: a file a crash left with a run of NUL
// bytes (its size grown, its data never written) gets the verifier's next
// record appended after them, on the same line. A NUL byte is never part
// of a JSON record (one inside a string is written \u0000), so NUL runs
// separate records as a newline does: the record after them is decided,
// a record the crash cut short before them is reported with the line's
// number, and a line of NULs alone is blank.
func TestNULBytesAreNoPartOfARecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	telemetry := "\x00\x00\x00" + cascadeRows[0].line + "\n" +
		cascadeRows[3].line + "\x00\x00\r\n" +
		"\x00\x00\x00\x00\n" +
		`{"timestamp":"2026-05-14T13:18:42Z","task_i` + "\x00\x00\x00" + cascadeRows[5].line + "\n" +
		"\x00\x00" + cascadeRows[4].line // the last line, without its newline
	st, ds, _, bad := f.run(t, telemetry)
	var got []string
	for _, d := range ds {
		got = append(got, d.TaskID)
	}
	if fmt.Sprint(got) != "[100123 100126 100128 100127]" || fmt.Sprint(bad) != "[4]" || st.Incomplete {
		t.Fatalf("decided %v, malformed lines %v, stats %+v; want 100123 100126 100128 100127 decided and line 4's torn record reported", got, bad, st)
	}
}

// TestLongReasonsAreCutNotTheRecord: the reasons are the verifier's prose,
// and a verifier model that lets its reasoning chain bleed into them
// writes reasons of many kilobytes, or many of them. The DRIFT is still
// decided: each reason is cut to MaxItemLen bytes and the list to
// MaxItems, saying so, while a claim or an evidence path over its bound
// (what is defended and checked, which a cut would change) still makes
// the record malformed.
func TestLongReasonsAreCutNotTheRecord(t *testing.T) {
	t.Parallel()
	const head = `{"timestamp":"2026-05-14T13:18:42Z","task_id":"1","verdict":"DRIFT",`
	long := strings.Repeat("é", MaxItemLen) // 2 bytes a rune
	r, err := ParseRecord([]byte(head + `"reasons":["short","` + long + `"]}`))
	if err != nil {
		t.Fatalf("a long reason: %v; want the record read", err)
	}
	if len(r.Reasons) != 2 || r.Reasons[0] != "short" || len(r.Reasons[1]) > MaxItemLen || !utf8.ValidString(r.Reasons[1]) ||
		!strings.HasPrefix(r.Reasons[1], "éé") || !strings.HasSuffix(r.Reasons[1], "…") {
		t.Fatalf("reasons %d, the long one %d bytes ending %q; want it cut to at most %d bytes, marked", len(r.Reasons), len(r.Reasons[1]), r.Reasons[1][len(r.Reasons[1])-8:], MaxItemLen)
	}
	many := strings.TrimSuffix(strings.Repeat(`"why",`, MaxItems+25), ",")
	r, err = ParseRecord([]byte(head + `"reasons":[` + many + `]}`))
	if err != nil {
		t.Fatalf("%d reasons: %v; want the record read", MaxItems+25, err)
	}
	if len(r.Reasons) != MaxItems || r.Reasons[MaxItems-1] != "(26 more reasons not shown)" {
		t.Fatalf("%d reasons kept, the last %q; want %d, the last saying how many more", len(r.Reasons), r.Reasons[len(r.Reasons)-1], MaxItems)
	}
	for _, key := range []string{"claims", "evidence_paths"} {
		if _, err := ParseRecord([]byte(head + `"` + key + `":["` + long + `"]}`)); !errors.Is(err, ErrMalformed) {
			t.Errorf("a %s item of %d bytes: %v; want the record malformed", key, len(long), err)
		}
	}
}

// TestARecordChangedSinceItWasDecidedIsSaid: a record is decided once, by
// task id and timestamp. A line with the key of a decided record but
// another verdict or priority (a verifier's log re-normalised in place,
// its HALLUCINATION now a DRIFT) is not decided again, and is not passed
// over in silence either: the run says what was decided from what, and
// what the line says now. The same record again, or with priority M where
// it had none, is no change.
func TestARecordChangedSinceItWasDecidedIsSaid(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const key = `"timestamp":"2026-05-14T13:18:42Z","task_id":"99910"`
	f.run(t, `{`+key+`,"verdict":"HALLUCINATION"}`+"\n"+`{"timestamp":"2026-05-14T13:18:43Z","task_id":"7","verdict":"DRIFT","priority":"l"}`+"\n")
	telemetry := `{` + key + `,"verdict":"hallucination","priority":"m"}` + "\n" + // the same record
		`{` + key + `,"verdict":"DRIFT","priority":"M"}` + "\n" + // re-normalised
		`{"timestamp":"2026-05-14T13:18:43Z","task_id":"7","verdict":"DRIFT","priority":"H"}` + "\n" // priority raised
	root, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	l, err := OpenLedger(root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	e := &Escalator{Ledger: l, Gate: gating.Rules(), Debater: f.debater, Workspace: f.workspace, Budget: debate.DefaultBudget(debate.LayerVerify)}
	var lines []int
	var said []string
	st, err := e.Run(context.Background(), strings.NewReader(telemetry), Sink{
		Decided: func(d *Decision, _ []byte) error { t.Errorf("decided again: %+v", d); return nil },
		Changed: func(n int, err error) {
			if !errors.Is(err, ErrChanged) {
				t.Errorf("line %d: %v, want ErrChanged", n, err)
			}
			lines, said = append(lines, n), append(said, err.Error())
		},
	})
	if err != nil || st.Already != 3 || st.Changed != 2 || fmt.Sprint(lines) != "[2 3]" {
		t.Fatalf("%v, stats %+v, changed lines %v; want 3 already escalated, lines 2 and 3 said changed", err, st, lines)
	}
	for i, want := range []string{"HALLUCINATION, priority none (skipped: not_drift)", "DRIFT, priority L (hold: low_priority)"} {
		if !strings.Contains(said[i], want) {
			t.Errorf("line %d said %q; want it to name what the record was decided from, %q", lines[i], said[i], want)
		}
	}
	if !strings.Contains(said[0], "now says DRIFT, priority M") {
		t.Errorf("line 2 said %q; want what it says now", said[0])
	}
}

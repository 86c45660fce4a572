package transcripts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vocab"
)

// Status follows a debate from its creation to its verdict: the budget from
// the session, round, tokens and time from the events, the state from the
// lock and verdict.json.
func TestStatusFollowsADebate(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	ctx := context.Background()
	l, sess := created(t, s, testID)
	budget := sess.Budget
	// base is what every step shares; each step adds what it changes.
	base := Status{Summary: debate.Summary{DebateID: testID, Topic: sess.Topic, Layer: sess.Layer}, Created: sess.Created,
		MaxRounds: budget.MaxRounds, MaxTokens: budget.MaxTokens, MaxWallClockMs: budget.MaxWallClockMs}
	turn := func(round int, role debate.Role, agent string, tokens int) debate.TurnRecord {
		return debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: round, Role: role, Position: "p", Tokens: tokens}, Agent: agent}
	}
	outcome := &debate.Outcome{DebateID: testID, Verdict: debate.Deadlock, Action: debate.ActionEscalate, Rule: debate.RuleRepeated, Reason: "repeated", Rounds: 2, Tokens: 130}
	const record = "wiki/consensus/spec-idempotency-keys.md"
	// The status is read wait after the latest event was recorded.
	var (
		wait   time.Duration
		latest time.Time
	)
	s.now = func() time.Time { return latest.Add(wait) }
	steps := []struct {
		name string
		do   func() error
		want func(*Status)
	}{
		{"created, nothing recorded", func() error { return nil }, func(w *Status) { w.State = StateRunning }},
		{"opened", func() error { _, err := l.Append(ctx, debate.EventOpen, 0, sess); return err },
			func(w *Status) { w.State, w.Events = StateRunning, 1 }},
		{"round 1", func() error {
			if _, err := l.Append(ctx, debate.EventTurn, 1000, turn(1, debate.RoleAttacker, "Critic", 40)); err != nil {
				return err
			}
			_, err := l.Append(ctx, debate.EventTurn, 2000, turn(1, debate.RoleDefender, "Proposer", 60))
			return err
		}, func(w *Status) { w.State, w.Events, w.Round, w.Tokens, w.ElapsedMs = StateRunning, 3, 1, 100, 2000 }},
		{"round 2 begun", func() error {
			_, err := l.Append(ctx, debate.EventTurn, 3500, turn(2, debate.RoleAttacker, "Critic", 30))
			return err
		}, func(w *Status) { w.State, w.Events, w.Round, w.Tokens, w.ElapsedMs = StateRunning, 4, 2, 130, 3500 }},
		// While it runs, the active time goes on past the latest event.
		{"3 s into the defender's turn", func() error { wait = 3 * time.Second; return nil },
			func(w *Status) { w.State, w.Events, w.Round, w.Tokens, w.ElapsedMs = StateRunning, 4, 2, 130, 6500 }},
		// A checkpoint moves it on, and the next wait counts from there.
		{"a checkpoint, then 1 s", func() error {
			wait = time.Second
			_, err := l.Append(ctx, debate.EventClock, 6500, debate.ClockEvent{Reason: debate.ClockCheckpoint})
			return err
		}, func(w *Status) { w.State, w.Events, w.Round, w.Tokens, w.ElapsedMs = StateRunning, 5, 2, 130, 7500 }},
		// At most a checkpoint interval passes unrecorded while a
		// coordinator runs: more is time no coordinator ran (one killed
		// with -9, and the next one not resumed yet).
		{"an hour since the latest event", func() error { wait = time.Hour; return nil },
			func(w *Status) {
				w.State, w.Events, w.Round, w.Tokens = StateRunning, 5, 2, 130
				w.ElapsedMs = 6500 + debate.CheckpointEvery(budget).Milliseconds()
			}},
		// Once a coordinator recorded that it stopped, time stands still
		// until the next one resumes.
		{"the coordinator stopped", func() error {
			_, err := l.Append(ctx, debate.EventClock, 7000, debate.ClockEvent{Reason: debate.ClockStopped, Detail: "interrupted"})
			return err
		}, func(w *Status) { w.State, w.Events, w.Round, w.Tokens, w.ElapsedMs = StateRunning, 6, 2, 130, 7000 }},
		{"verdict recorded, coordinator gone", func() error {
			if _, err := l.Append(ctx, debate.EventVerdict, 7100, outcome); err != nil {
				return err
			}
			return l.Close()
		}, func(w *Status) {
			w.State, w.Events, w.Round, w.Tokens, w.ElapsedMs = StateInterrupted, 7, 2, 130, 7100
			w.Verdict, w.Action, w.Rule, w.Reason, w.Rounds = debate.Deadlock, debate.ActionEscalate, debate.RuleRepeated, "repeated", 2
		}},
	}
	var (
		prev       Stamp
		prevEvents = -1
	)
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if ev, err := s.Events(testID); err == nil && len(ev) > 0 {
			if latest, err = time.Parse(vocab.TimeLayout, ev[len(ev)-1].At); err != nil {
				t.Fatal(err)
			}
		}
		want := base
		st.want(&want)
		got, err := s.Status(testID)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if *got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", st.name, *got, want)
		}
		// The stamp moves with every step that records something, and
		// agrees on the state.
		stamp, err := s.Stamp(testID)
		if err != nil || stamp.State != want.State || (stamp == prev && want.Events != prevEvents) {
			t.Errorf("%s: stamp %+v (%v), previous %+v, want a new one in state %s", st.name, stamp, err, prev, want.State)
		}
		if again, _ := s.Stamp(testID); again != stamp {
			t.Errorf("%s: the stamp moved with nothing changed: %+v then %+v", st.name, stamp, again)
		}
		prev, prevEvents = stamp, want.Events
	}

	// Sealed: closed, with the record verdict.json names.
	sealed := writeDebate(t, s, "20260102-spec-sealed-debate-abcdef", 2, true)
	sealed.Close()
	got, err := s.Status("20260102-spec-sealed-debate-abcdef")
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateClosed || got.Verdict != debate.Deadlock || got.Action != debate.ActionEscalate || got.Record != record || got.Events != 3 {
		t.Errorf("sealed debate: %+v", *got)
	}
	if stamp, err := s.Stamp("20260102-spec-sealed-debate-abcdef"); err != nil || stamp.State != StateClosed {
		t.Errorf("sealed debate's stamp: %+v, %v", stamp, err)
	}
	if _, err := s.Stamp("../etc"); err == nil {
		t.Error("Stamp of a hostile id succeeded")
	}

	// A transcript that does not replay (here: no open event) still has a
	// status: the summary's, with nothing replayed but the rounds so far,
	// which transcripts list counts from the same events.
	const noOpen = "20260103-spec-no-open-event-abcdef"
	lo, _ := created(t, s, noOpen)
	if _, err := lo.Append(ctx, debate.EventTurn, 900, turn(1, debate.RoleAttacker, "Critic", 40)); err != nil {
		t.Fatal(err)
	}
	got, err = s.Status(noOpen)
	if err != nil {
		t.Fatal(err)
	}
	if got.Events != 1 || got.Round != 1 || got.Tokens != 0 || got.ElapsedMs != 0 || got.State != StateRunning {
		t.Errorf("a transcript that does not replay: %+v", *got)
	}

	// Statuses: every debate, in List's order, each as Status has it.
	all, err := s.Statuses()
	list, lerr := s.List()
	if err != nil || lerr != nil || len(all) != 3 || len(list) != 3 {
		t.Fatalf("Statuses: %d, %v; List: %d, %v", len(all), err, len(list), lerr)
	}
	for i, st := range all {
		one, err := s.Status(list[i].DebateID)
		if err != nil || *st != *one {
			t.Errorf("Statuses[%d] = %+v, Status(%s) = %+v (%v)", i, *st, list[i].DebateID, one, err)
		}
	}

	// A line that no longer decodes is not summarised: the status is what
	// the lines before it say (the caller's audit says the rest).
	tamper(t, dir, testID, `"tokens":60`, `"tokens":6x`)
	if st, err := s.Status(testID); err != nil || st.Events != 2 || st.Tokens != 40 {
		t.Errorf("tampered transcript at line 3: %+v, %v; want the 2 events before it, 40 tokens", st, err)
	}
}

// created creates debate id in s, with nothing recorded yet; the test
// closes its Log at the end.
func created(t testing.TB, s *Store, id string) (*Log, *debate.DebateSession) {
	t.Helper()
	sess := testSession(id)
	l, err := s.Create(context.Background(), sess)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, sess
}

func TestStatusOfNoDebate(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	for _, id := range []string{"20260101-spec-no-such-debate-abcdef", "../../etc", ""} {
		st, err := s.Status(id)
		if err == nil || st != nil {
			t.Errorf("Status(%q) = %+v, %v; want an error", id, st, err)
		}
	}
	if _, err := s.Status("20260101-spec-no-such-debate-abcdef"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a missing debate: %v, want ErrNotFound", err)
	}
}

// "Rounds so far" has one definition: debate status (Status) and
// transcripts list (List) say the same number at every step of a running
// debate — round 1 as soon as its first turn is requested, before any
// agent has answered — and the verdict's count once it is closed.
func TestRoundsSoFarAgree(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	const id = "20260104-spec-rounds-agree-abcdef"
	l, sess := created(t, s, id)
	req := func(round int, role debate.Role) func() error {
		return func() error {
			_, err := l.Append(ctx, debate.EventRequest, 10, debate.RequestEvent{RequestID: fmt.Sprintf("r%d%s", round, role), MessageID: "m", Round: round, Role: role})
			return err
		}
	}
	turn := func(round int, role debate.Role) func() error {
		return func() error {
			_, err := l.Append(ctx, debate.EventTurn, 20, debate.TurnRecord{Turn: debate.Turn{DebateID: id, Round: round, Role: role, Position: "p", Tokens: 10}, Agent: "A"})
			return err
		}
	}
	steps := []struct {
		name string
		do   func() error
		want int
	}{
		{"opened", func() error { _, err := l.Append(ctx, debate.EventOpen, 0, sess); return err }, 0},
		{"round 1 requested", req(1, debate.RoleAttacker), 1},
		{"round 1 attacker answered", turn(1, debate.RoleAttacker), 1},
		{"round 1 defender requested", req(1, debate.RoleDefender), 1},
		{"round 1 defender answered", turn(1, debate.RoleDefender), 1},
		{"round 2 requested", req(2, debate.RoleAttacker), 2},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		status, err := s.Status(id)
		if err != nil {
			t.Fatal(err)
		}
		list, err := s.List()
		if err != nil || len(list) != 1 {
			t.Fatalf("List: %v %v", list, err)
		}
		if status.Round != st.want || list[0].Rounds != st.want {
			t.Errorf("%s: debate status says round %d, transcripts list %d; want both %d", st.name, status.Round, list[0].Rounds, st.want)
		}
	}
}

// A debate with an edited line still has a status, as it has a line in
// List: what verifies before the line (the events, the round), with the
// verdict its verdict.json names. Status failed with the chain's
// TamperError, so "debate status" and the MCP tool debate_status
// answered a question about where a debate stands with "it cannot be
// resumed" and no status, while a debate whose verdict.json was forged
// showed its status with its integrity; the caller's audit says what is
// wrong. "debate list --json" (Statuses) failed whole on it.
func TestStatusOfATamperedTranscript(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 8, true).Close()
	path := filepath.Join(dir, "debates", testID, "transcript.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte("position 5"), []byte("position 6"), 1) // line 5, a round 1 turn
	if bytes.Equal(edited, data) {
		t.Fatal("the transcript has no position 5 to edit")
	}
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := s.Status(testID)
	if err != nil {
		t.Fatalf("the status of a debate with an edited line: %v", err)
	}
	if st.Events != 4 || st.Round != 1 || st.State != StateClosed || st.Verdict != debate.Deadlock {
		t.Errorf("status %+v: want the 4 events before line 5, round 1, closed with its DEADLOCK", st)
	}
	// Statuses ("debate list --json") lists it among the others: one
	// edited debate made the whole list an error, and printed nothing.
	const other = "20260102-spec-intact-abcdef"
	writeDebate(t, s, other, 6, true).Close()
	list, err := s.Statuses()
	if err != nil || len(list) != 2 || list[0].DebateID != other || list[1].DebateID != testID {
		t.Errorf("Statuses with an edited debate among them: %d, %v; want both", len(list), err)
	}
}

// A debate that closes between a look for its verdict.json (not there yet)
// and a look at whether a coordinator holds it (no longer) is closed, not
// interrupted: its coordinator wrote verdict.json before letting go. The
// live page said "The debate is interrupted." of a debate that had just
// closed.
func TestUnsealedStateOfADebateThatJustClosed(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	l := writeDebate(t, s, testID, 6, true)
	l.Close()
	if st, err := s.unsealedState(testID); err != nil || st != StateClosed {
		t.Errorf("a debate whose verdict.json appeared: %v, %v; want closed", st, err)
	}
	if st, err := s.Stamp(testID); err != nil || st.State != StateClosed {
		t.Errorf("stamp: %+v, %v", st, err)
	}
}

// Every reader that looks for verdict.json and then at the lock sees a
// debate that closes between the two looks as closed, with its verdict:
// Read (the web's pages, "transcripts show"), Audit ("transcripts
// verify") and Summary ("debate list") called it interrupted, without its
// verdict, as Stamp did.
func TestReadersOfADebateThatClosesBetweenLooks(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 6, true).Close()
	verdict := filepath.Join(dir, Dir, testID, VerdictFile)
	aside := verdict + ".aside"
	// The first look finds no verdict.json; the coordinator then writes it
	// and lets go before the second.
	closeBetween := func() {
		t.Helper()
		if err := os.Rename(verdict, aside); err != nil {
			t.Fatal(err)
		}
		s.betweenLooks = func() {
			if err := os.Rename(aside, verdict); err != nil {
				t.Error(err)
			}
		}
		t.Cleanup(func() { s.betweenLooks = nil })
	}

	closeBetween()
	tr, err := s.Read(testID)
	if err != nil || tr.State != StateClosed || tr.Verdict == nil || !tr.Report.Intact || !tr.Report.Sealed {
		t.Errorf("Read: %v; want closed with its verdict, intact and sealed", err)
		if err == nil {
			t.Logf("state %s, verdict %v, report %+v", tr.State, tr.Verdict != nil, tr.Report)
		}
	}
	closeBetween()
	if tr, err = s.Audit(context.Background(), testID, Witnesses{}); err != nil || tr.State != StateClosed || tr.Verdict == nil {
		t.Errorf("Audit: %v; want closed with its verdict", err)
		if err == nil {
			t.Logf("state %s, verdict %v, audit %+v", tr.State, tr.Verdict != nil, tr.Audit)
		}
	}
	closeBetween()
	sum, err := s.Summary(testID)
	if err != nil || sum.State != StateClosed || sum.Verdict != debate.Deadlock || sum.Record == "" {
		t.Errorf("Summary: %+v, %v; want closed with its DEADLOCK and record", sum, err)
	}
}

// A verdict.json that does not decode is found at the second look too;
// the listing still ends, with the debate unsealed.
func TestSummaryOfAMalformedVerdictEnds(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 6, true).Close()
	if err := os.WriteFile(filepath.Join(dir, Dir, testID, VerdictFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, err := s.Summary(testID)
	if err != nil || sum.State != StateInterrupted {
		t.Errorf("Summary with a malformed verdict.json: %+v, %v; want interrupted", sum, err)
	}
}

// A debate whose coordinator stopped after recording its verdict, before
// filing and sealing it, is listed with that verdict (the chain's, as its
// status has it) and found by it: "debate list", "transcripts list" and
// the web's index showed it as "-" or "(interrupted)", without the verdict
// "debate status" named, and a filter by verdict left it out.
func TestSummaryOfAnInterruptedDebateHasItsRecordedVerdict(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	l, sess := created(t, s, testID)
	turn := func(round int, role debate.Role, agent string) debate.TurnRecord {
		return debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: round, Role: role, Position: "p", Tokens: 50}, Agent: agent}
	}
	for _, e := range []struct {
		kind debate.EventKind
		data any
	}{
		{debate.EventOpen, sess},
		{debate.EventTurn, turn(1, debate.RoleAttacker, "Critic")},
		{debate.EventTurn, turn(1, debate.RoleDefender, "Proposer")},
		{debate.EventVerdict, &debate.Outcome{DebateID: testID, Verdict: debate.Deadlock, Action: debate.ActionEscalate, Rule: debate.RuleRepeated, Reason: "repeated", Rounds: 1, Tokens: 100}},
	} {
		if _, err := l.Append(ctx, e.kind, 1000, e.data); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	st, err := s.Status(testID)
	if err != nil || st.State != StateInterrupted || st.Verdict != debate.Deadlock {
		t.Fatalf("Status: %+v, %v; want interrupted with its DEADLOCK", st, err)
	}
	sum, err := s.Summary(testID)
	if err != nil || sum.State != StateInterrupted || sum.Verdict != st.Verdict || sum.Action != st.Action || sum.Rule != st.Rule || sum.Reason != st.Reason ||
		sum.Rounds != st.Round || sum.Tokens != st.Tokens {
		t.Errorf("Summary: %+v, %v; want interrupted with the verdict, action, rule and reason of its status %+v", sum, err, st.Summary)
	}
	found, err := s.Find(Filter{Verdict: debate.Deadlock, State: StateInterrupted})
	if err != nil || len(found) != 1 || found[0].DebateID != testID {
		t.Errorf("Find by its verdict: %+v, %v; want the debate", found, err)
	}
}

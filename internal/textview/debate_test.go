package textview_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/internal/debateview"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/transcripts"
)

// On a terminal, debate run shows each turn as a line and keeps a status
// line redrawn in place: round r/M, tokens against the budget, seconds
// against the deadline, and whom the debate waits for (SPEC §10).
func TestProgressOnATerminal(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	v := debateview.New(&out, &out, textview.ProgressLine, false) // no ticker: the status is drawn by Event
	base := debate.Progress{DebateID: "20260101-spec-x-abcdef", MaxRounds: 3, MaxTokens: 6000, MaxWallClockMs: 120000}
	p := base
	p.Event.Kind = debate.EventOpen
	v.Event(p)
	p = base
	p.Event.Kind, p.Round, p.Role, p.Agent = debate.EventRequest, 2, debate.RoleDefender, "Proposer"
	p.Tokens, p.ElapsedMs = 250, 1500
	v.Event(p)
	status := out.String()[strings.LastIndex(out.String(), "\r\033[K")+len("\r\033[K"):]
	if !strings.HasPrefix(status, "round 2/3 · tokens 250/6000 · 1.5 s / 120 s · waiting for Proposer (defender)") {
		t.Fatalf("status line %q", status)
	}
	// A checkpoint moves the clock on, prints no line, and the debate
	// still waits.
	before := strings.Count(out.String(), "\n")
	ck := p
	ck.Event.Kind, ck.ElapsedMs, ck.Clock = debate.EventClock, 6500, &debate.ClockEvent{Reason: debate.ClockCheckpoint}
	v.Event(ck)
	status = out.String()[strings.LastIndex(out.String(), "\r\033[K")+len("\r\033[K"):]
	if !strings.HasPrefix(status, "round 2/3 · tokens 250/6000 · 6.5 s / 120 s · waiting for Proposer (defender)") || strings.Count(out.String(), "\n") != before {
		t.Fatalf("after a checkpoint: status line %q, output %q", status, out.String())
	}
	// A stop says where the clock stands, for the resume.
	ck.Clock = &debate.ClockEvent{Reason: debate.ClockStopped, Detail: "interrupted"}
	if line := textview.ProgressLine(ck); line != "debate 20260101-spec-x-abcdef stopped at 6.5 s of 120 s (interrupted)" {
		t.Fatalf("stop line %q", line)
	}
	p.Event.Kind, p.Detail, p.Tokens, p.ElapsedMs = debate.EventTurn, "Use UUIDv7 keys", 400, 2000
	v.Event(p)
	got := out.String()
	if !strings.Contains(got, "\r\033[Kround 2/3  defender Proposer: Use UUIDv7 keys  (tokens 400/6000, 2.0 s/120 s)\n") {
		t.Fatalf("turn line missing: %q", got)
	}
	status = got[strings.LastIndex(got, "\r\033[K")+len("\r\033[K"):]
	if !strings.HasPrefix(status, "round 2/3 · tokens 400/6000 · 2.0 s / 120 s") || strings.Contains(status, "waiting") {
		t.Fatalf("status line after the turn %q", status)
	}
}

// What an agent writes (a model's reply included) cannot drive the
// terminal that shows a debate's progress: control characters in a
// position, a rejection's reason or a forfeit's detail are replaced.
func TestProgressLinesCannotDriveTheTerminal(t *testing.T) {
	t.Parallel()
	hostile := "Keys\x1b]0;pwned\x07 leak\x1b[2J time\u009b31m"
	for _, kind := range []debate.EventKind{debate.EventTurn, debate.EventRejected, debate.EventForfeit} {
		line := textview.ProgressLine(debate.Progress{DebateID: "20260101-spec-x-abcdef", Event: debate.Event{Kind: kind}, Round: 1, MaxRounds: 3,
			Role: debate.RoleAttacker, Agent: "Critic", Detail: hostile})
		if strings.ContainsAny(line, "\x1b\x07\u009b") || !strings.Contains(line, "leak") {
			t.Errorf("%s: %q", kind, line)
		}
	}
}

// The closing lines of a debate: exact bytes for a filed verdict, a
// verdict that is not an outcome and a filed-less one; an agent's position
// and an UNAVAILABLE reason cannot drive the terminal.
func TestVerdict(t *testing.T) {
	t.Parallel()
	o := &debate.Outcome{DebateID: "20261201-plan-compaction-0a1b2c", Verdict: debate.ConsensusReached, Action: "proceed", Rule: "agreement",
		Reason: "the critic conceded", FinalPosition: "Compact one\nsegment at a time", Rounds: 2, Tokens: 310, ElapsedMs: 1250}
	var out bytes.Buffer
	if err := textview.Verdict(&out, o, "/r/debates/x/transcript.jsonl", "/v/consensus/plan/compaction.md", "parley transcripts verify x"); err != nil {
		t.Fatal(err)
	}
	want := "\nCONSENSUS_REACHED → proceed (agreement)\n  the critic conceded\n" +
		"  final position: Compact one segment at a time\n" +
		"  2 round(s) · 310 tokens · 1.2 s\n" +
		"  transcript: /r/debates/x/transcript.jsonl  (parley transcripts verify x)\n" +
		"  record:     /v/consensus/plan/compaction.md\n"
	if out.String() != want {
		t.Fatalf("got %q\nwant %q", out.String(), want)
	}
	o.Verdict, o.Reason, o.FinalPosition = debate.Unavailable, "agent Keeper: model endpoint refused\x1b]0;owned\x07", ""
	out.Reset()
	_ = textview.Verdict(&out, o, "t", "", "v")
	if s := out.String(); strings.ContainsAny(s, "\x1b\x07") || !strings.Contains(s, "record:     none filed (UNAVAILABLE is not a debate outcome)\n") || strings.Contains(s, "final position") {
		t.Fatalf("%q", s)
	}
	o.Verdict = debate.Deadlock
	out.Reset()
	_ = textview.Verdict(&out, o, "t", "", "v")
	if !strings.HasSuffix(out.String(), "  record:     none filed\n") {
		t.Fatalf("%q", out.String())
	}
}

// A debate's status and the list of debates: a topic from the session
// file is one clipped line without control characters; an interrupted
// debate without a verdict says how to resume it, a closed one does not.
func TestDebateStatusAndList(t *testing.T) {
	t.Parallel()
	st := &transcripts.Status{Summary: debate.Summary{DebateID: "20261201-verify-retention-9f8e7d", Layer: debate.LayerVerify,
		Topic: "Retention\x1b[2J keeps\nseven days" + strings.Repeat(" and more", 40), Tokens: 500, ElapsedMs: 3000},
		State: transcripts.StateInterrupted, Round: 2, MaxRounds: 3, MaxTokens: 6000, MaxWallClockMs: 120000, Events: 9}
	var out bytes.Buffer
	if err := textview.DebateStatus(&out, st, "parley debate resume R", "parley transcripts verify R"); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	first := s[:strings.IndexByte(s, '\n')]
	if strings.ContainsRune(s, '\x1b') || !strings.HasPrefix(first, "20261201-verify-retention-9f8e7d  [verify] Retention\uFFFD[2J keeps seven days") ||
		len([]rune(first)) > 250 || !strings.Contains(s, "  round 2/3 · tokens 500/6000 · 3.0 s / 120 s · 9 events\n") ||
		!strings.HasSuffix(s, "  the coordinator is not running: parley debate resume R\n") {
		t.Fatalf("%q", s)
	}
	// One whose files do not verify: resume refuses it, and the status
	// points at what names the trouble instead.
	st.ResumeRefused = true
	out.Reset()
	_ = textview.DebateStatus(&out, st, "parley debate resume R", "parley transcripts verify R")
	if s := out.String(); strings.Contains(s, "debate resume") || !strings.HasSuffix(s, "resume refuses a debate whose files do not verify: parley transcripts verify R\n") {
		t.Fatalf("%q", s)
	}
	st.ResumeRefused = false
	// Its verdict recorded, then the coordinator killed before it was
	// filed: the status named the verdict and said nothing of the resume
	// that files it.
	st.Verdict, st.Action = debate.ConsensusReached, "proceed"
	out.Reset()
	_ = textview.DebateStatus(&out, st, "parley debate resume R", "parley transcripts verify R")
	if s := out.String(); !strings.Contains(s, "  verdict: CONSENSUS_REACHED → proceed\n") ||
		!strings.HasSuffix(s, "the verdict is not filed and sealed yet: parley debate resume R finishes closing it\n") {
		t.Fatalf("%q", s)
	}
	st.State, st.Verdict, st.Action, st.Record = transcripts.StateClosed, debate.Deadlock, "escalate", "consensus/verify/retention.md"
	out.Reset()
	_ = textview.DebateStatus(&out, st, "parley debate resume R", "parley transcripts verify R")
	if s := out.String(); strings.Contains(s, "resume") || !strings.Contains(s, "  verdict: DEADLOCK → escalate\n  record:  consensus/verify/retention.md\n") {
		t.Fatalf("%q", s)
	}
	list := []transcripts.Summary{{Summary: debate.Summary{DebateID: "20261201-spec-keys-000001", Topic: ""}, State: transcripts.StateRunning},
		{Summary: debate.Summary{DebateID: "20261130-plan-cache-000002", Topic: "Cache\x07", Verdict: debate.Timeout}, State: transcripts.StateClosed, Integrity: "verified"}}
	out.Reset()
	_ = textview.DebateList(&out, list, true)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID ") || !strings.Contains(lines[1], " running     -") ||
		!strings.HasSuffix(lines[1], "(no position)") || strings.ContainsRune(lines[2], '\x07') || !strings.Contains(lines[2], "TIMEOUT           verified") {
		t.Fatalf("%q", lines)
	}
	// Every column has its heading, at the column's place.
	if at := strings.Index(lines[0], "INTEGRITY"); at < 0 || at != strings.Index(lines[2], "verified") || strings.Index(lines[0], "TOPIC") != strings.Index(lines[2], "Cache") {
		t.Fatalf("the header does not head the columns:\n%s\n%s", lines[0], lines[2])
	}
}

// The escalation's notes on standard error: the lines skipped, a last
// line not yet whole, and the counts.
func TestEscalationNotes(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	n := textview.EscalationNotes{W: &out, Telemetry: "verifier.jsonl"}
	n.Malformed(4, errors.New("task_id: required"))
	n.Stats(escalation.Stats{Records: 5, Decided: 2, Already: 1, Malformed: 1, Incomplete: true})
	want := "parley: verifier.jsonl:4: task_id: required (line skipped)\n" +
		"parley: verifier.jsonl: the last line has no newline and is not a whole record yet; a later run takes it\n" +
		"parley: 5 record(s): 2 decided, 1 already escalated, 1 malformed line(s) skipped\n"
	if out.String() != want {
		t.Fatalf("got %q\nwant %q", out.String(), want)
	}
}

// Records held as unavailable stay so on the runs after: the counts say
// how many, and how to decide them again once their agents can be had.
func TestEscalationNotesSayHowToRetryUnavailable(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	textview.EscalationNotes{W: &out, Telemetry: "verifier.jsonl"}.Stats(escalation.Stats{Records: 3, Already: 3, Unavailable: 2})
	want := "parley: 3 record(s): 0 decided, 3 already escalated, 0 malformed line(s) skipped\n" +
		"parley: 2 record(s) held as unavailable: their agents could not be had (the line's detail says why); once they can, parley escalate --retry-unavailable decides them again\n"
	if out.String() != want {
		t.Fatalf("got %q\nwant %q", out.String(), want)
	}
	out.Reset()
	textview.EscalationNotes{W: &out, Telemetry: "verifier.jsonl"}.Stats(escalation.Stats{Records: 3, Already: 3})
	if strings.Contains(out.String(), "retry-unavailable") {
		t.Fatalf("a run with no record held as unavailable speaks of retrying: %q", out.String())
	}
}

// A debate started in the background: its id alone on standard output
// (for a script to read), where it runs and how to follow it on standard
// error.
func TestDebateStarted(t *testing.T) {
	t.Parallel()
	var out, note bytes.Buffer
	if err := textview.DebateStarted(&out, &note, "20261201-spec-keys-000001", 5150, "parley debate watch 20261201-spec-keys-000001"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "20261201-spec-keys-000001\n" ||
		note.String() != "debate 20261201-spec-keys-000001 runs in the background (pid 5150); follow it with: parley debate watch 20261201-spec-keys-000001\n" {
		t.Fatalf("%q %q", out.String(), note.String())
	}
}

// An integrity longer than its column's heading ("TAMPERED: seal not
// signed") widens the column: it never runs into the topic after it, and
// every heading stays over its column, in both lists.
func TestListsKeepALongIntegrityApartFromTheTopic(t *testing.T) {
	t.Parallel()
	list := []transcripts.Summary{
		{Summary: debate.Summary{DebateID: "20261201-spec-keys-000001", Topic: "Idempotency key design", Verdict: debate.ConsensusReached}, State: transcripts.StateClosed, Integrity: "TAMPERED: seal not signed"},
		{Summary: debate.Summary{DebateID: "20261130-plan-cache-000002", Topic: "Cache", Verdict: debate.Timeout}, State: transcripts.StateClosed, Integrity: "verified"},
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"debate list":      func(b *bytes.Buffer) error { return textview.DebateList(b, list, true) },
		"transcripts list": func(b *bytes.Buffer) error { return textview.Transcripts(b, list, "/root", true) },
	} {
		var out bytes.Buffer
		if err := write(&out); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("%s: %q", name, lines)
		}
		if strings.Contains(lines[1], "signed Idempotency") || strings.Contains(lines[1], "signed 2026") {
			t.Errorf("%s: the integrity runs into the next column: %q", name, lines[1])
		}
		next := "TOPIC"
		if name == "transcripts list" {
			next = "ID"
		}
		at := strings.Index(lines[0], next)
		for i, want := range []string{"20261201-spec-keys-000001", "20261130-plan-cache-000002"} {
			if name == "debate list" {
				want = list[i].Topic
			}
			if got := strings.Index(lines[i+1], want); got != at {
				t.Errorf("%s: %q at %d, its heading %s at %d:\n%s", name, want, got, next, at, out.String())
			}
		}
	}
}

// A debate id of the longest kind (55 characters: a verify debate with a
// 32-character slug) widens the id column of both lists: the column after
// it stays under its heading. "transcripts list" gave ids 44 characters
// and "debate list" 52, so a long id pushed its topic or state out of line.
func TestListsKeepALongIDApartFromTheNextColumn(t *testing.T) {
	t.Parallel()
	const long = "20261201-verify-closure-of-task-100125-with-more-abcdef"
	list := []transcripts.Summary{
		{Summary: debate.Summary{DebateID: long, Topic: "Closure", Verdict: debate.ConsensusReached}, State: transcripts.StateClosed, Integrity: "verified"},
		{Summary: debate.Summary{DebateID: "20261130-plan-cache-abcdef", Topic: "Cache", Verdict: debate.Timeout}, State: transcripts.StateClosed, Integrity: "verified"},
	}
	if err := debate.ValidateID(long); err != nil || len(long) != 55 {
		t.Fatalf("%q (%d characters): %v", long, len(long), err)
	}
	for name, c := range map[string]struct {
		write      func(*bytes.Buffer) error
		next, want string
	}{
		"debate list":      {func(b *bytes.Buffer) error { return textview.DebateList(b, list, true) }, "STATE", "closed"},
		"transcripts list": {func(b *bytes.Buffer) error { return textview.Transcripts(b, list, "/root", true) }, "TOPIC", ""},
	} {
		var out bytes.Buffer
		if err := c.write(&out); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		at := strings.Index(lines[0], c.next)
		for i := range list {
			want := c.want
			if want == "" {
				want = list[i].Topic
			}
			if got := strings.Index(lines[i+1], want); got != at {
				t.Errorf("%s: %q at %d, its heading %s at %d:\n%s", name, want, got, c.next, at, out.String())
			}
		}
	}
}

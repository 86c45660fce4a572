package textview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/debateview"
	"github.com/parleyhq/parley/internal/textview"
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

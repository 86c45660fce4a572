package debateview

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
)

// syncBuffer is a bytes.Buffer safe for the ticker and the test together.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func words(p debate.Progress) string {
	if p.Event.Kind == debate.EventTurn {
		return "turn of " + p.Agent
	}
	return ""
}

func progress(kind debate.EventKind, agent string, elapsed int64) debate.Progress {
	p := debate.Progress{DebateID: "20260101-plan-compaction-abcdef", Round: 1, MaxRounds: 4, MaxTokens: 9000, MaxWallClockMs: 60000,
		Role: debate.RoleAttacker, Agent: agent, ElapsedMs: elapsed}
	p.Event.Kind = kind
	return p
}

// Without a terminal: the caller's lines only, no control sequence.
func TestPlainLines(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	v := New(&out, nil, words, true)
	v.Event(progress(debate.EventOpen, "", 0))
	v.Event(progress(debate.EventRequest, "Skeptic", 10))
	v.Event(progress(debate.EventTurn, "Skeptic", 900))
	v.Close()
	v.Close()
	if out.String() != "turn of Skeptic\n" {
		t.Fatalf("plain output %q", out.String())
	}
}

// On a terminal the ticker keeps the clock of the status line moving
// between events, and Close clears it.
func TestStatusLineTicks(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	v := New(&out, &out, words, true)
	v.Event(progress(debate.EventRequest, "Skeptic", 0))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "· 0.2 s / 60 s") && !strings.Contains(out.String(), "· 0.3 s / 60 s") {
		if time.Now().After(deadline) {
			t.Fatalf("the status line did not tick: %q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "round 1/4 · tokens 0/9000 · 0.0 s / 60 s · waiting for Skeptic (attacker)") {
		t.Errorf("first status line missing: %q", out.String())
	}
	v.Close()
	if got := out.String(); !strings.HasSuffix(got, clearLine) {
		t.Errorf("Close left the status line: %q", got)
	}
}

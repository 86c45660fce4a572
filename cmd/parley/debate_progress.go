package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
)

// progressView draws a running debate: under --json one JSON line per
// event; on a terminal a line per turn and a status line redrawn in place
// (round r/M, tokens against the budget, seconds against the deadline);
// otherwise plain lines. Event is called on the coordinator's goroutine;
// the terminal's ticker is its own goroutine, stopped by Close.
type progressView struct {
	a    *factory
	tty  bool
	mu   sync.Mutex
	last debate.Progress
	at   time.Time // wall time of last
	wait string    // who the debate waits for

	stop  chan struct{}
	done  chan struct{}
	close sync.Once
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (a *factory) newProgress() *progressView {
	v := &progressView{a: a, tty: !a.json && a.tty != nil}
	if v.tty {
		v.stop, v.done = make(chan struct{}), make(chan struct{})
		go v.tick()
	}
	return v
}

func (v *progressView) tick() {
	defer close(v.done)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-v.stop:
			return
		case <-t.C:
			v.mu.Lock()
			v.status()
			v.mu.Unlock()
		}
	}
}

// Close stops the ticker and clears the status line. It may be called
// more than once.
func (v *progressView) Close() {
	v.close.Do(func() {
		if v.tty {
			close(v.stop)
			<-v.done
			v.mu.Lock()
			fmt.Fprint(v.a.tty, "\r\033[K")
			v.mu.Unlock()
		}
	})
}

// progressLine is the JSON form of one event.
type progressLine struct {
	Event          debate.EventKind `json:"event"`
	DebateID       string           `json:"debate_id"`
	Seq            int              `json:"seq"`
	Round          int              `json:"round"`
	MaxRounds      int              `json:"max_rounds"`
	Role           debate.Role      `json:"role,omitempty"`
	Agent          string           `json:"agent,omitempty"`
	Detail         string           `json:"detail,omitempty"`
	Tokens         int              `json:"tokens"`
	MaxTokens      int              `json:"max_tokens"`
	ElapsedMs      int64            `json:"elapsed_ms"`
	MaxWallClockMs int64            `json:"max_wall_clock_ms"`
}

// Event shows one recorded event.
func (v *progressView) Event(p debate.Progress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.last, v.at = p, time.Now()
	if v.a.json {
		if p.Event.Kind == debate.EventVerdict {
			return // the closing line, after filing, says it all
		}
		_ = v.a.emit(progressLine{
			Event: p.Event.Kind, DebateID: p.DebateID, Seq: p.Event.Seq, Round: p.Round, MaxRounds: p.MaxRounds,
			Role: p.Role, Agent: p.Agent, Detail: p.Detail, Tokens: p.Tokens, MaxTokens: p.MaxTokens,
			ElapsedMs: p.ElapsedMs, MaxWallClockMs: p.MaxWallClockMs,
		})
		return
	}
	line := describe(p)
	if p.Event.Kind == debate.EventRequest {
		v.wait = fmt.Sprintf("waiting for %s (%s)", p.Agent, p.Role)
	} else if p.Event.Kind != debate.EventOpen && p.Event.Kind != debate.EventResume {
		v.wait = ""
	}
	if v.tty {
		fmt.Fprint(v.a.tty, "\r\033[K")
		if line != "" {
			fmt.Fprintln(v.a.stdout, line)
		}
		v.status()
		return
	}
	if line != "" {
		fmt.Fprintln(v.a.stdout, line)
	}
}

// status redraws the terminal's status line; v.mu is held.
func (v *progressView) status() {
	p := v.last
	if p.DebateID == "" || p.Event.Kind == debate.EventVerdict {
		return
	}
	el := p.ElapsedMs + time.Since(v.at).Milliseconds()
	s := fmt.Sprintf("round %d/%d · tokens %d/%d · %.1f s / %.0f s", max(p.Round, 1), p.MaxRounds, p.Tokens, p.MaxTokens,
		float64(el)/1000, float64(p.MaxWallClockMs)/1000)
	if v.wait != "" {
		s += " · " + v.wait
	}
	fmt.Fprint(v.a.tty, "\r\033[K")
	fmt.Fprint(v.a.stdout, s)
}

// describe is the one-line human form of an event ("" for events shown
// only in the status line).
func describe(p debate.Progress) string {
	where := fmt.Sprintf("round %d/%d", p.Round, p.MaxRounds)
	budget := fmt.Sprintf("tokens %d/%d, %.1f s/%.0f s", p.Tokens, p.MaxTokens, float64(p.ElapsedMs)/1000, float64(p.MaxWallClockMs)/1000)
	switch p.Event.Kind {
	case debate.EventOpen:
		return fmt.Sprintf("debate %s opened", p.DebateID)
	case debate.EventResume:
		return fmt.Sprintf("debate %s resumed at %.1f s of %.0f s", p.DebateID, float64(p.ElapsedMs)/1000, float64(p.MaxWallClockMs)/1000)
	case debate.EventTurn:
		return fmt.Sprintf("%s  %-8s %s: %s  (%s)", where, p.Role, p.Agent, clipLine(p.Detail, 100), budget)
	case debate.EventRejected:
		return fmt.Sprintf("%s  %-8s %s: reply rejected: %s", where, p.Role, p.Agent, clipLine(p.Detail, 120))
	case debate.EventForfeit:
		return fmt.Sprintf("%s  %-8s %s forfeits the turn: %s  (%s)", where, p.Role, p.Agent, clipLine(p.Detail, 120), budget)
	}
	return ""
}

// clipLine is s on one line of at most n characters, with control
// characters (terminal escape sequences) replaced: what it shows comes
// from agents.
func clipLine(s string, n int) string {
	s = termClean(strings.Join(strings.Fields(s), " "))
	if s == "" {
		return "(no position)"
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// verdictLine is the closing JSON line of a debate (--json).
type verdictLine struct {
	Event         string         `json:"event"`
	DebateID      string         `json:"debate_id"`
	Verdict       debate.Verdict `json:"verdict"`
	Action        debate.Action  `json:"action"`
	Rule          debate.Rule    `json:"rule"`
	Reason        string         `json:"reason"`
	FinalPosition string         `json:"final_position"`
	Rounds        int            `json:"rounds"`
	Tokens        int            `json:"tokens"`
	ElapsedMs     int64          `json:"elapsed_ms"`
	Transcript    string         `json:"transcript"`
	Record        string         `json:"record"`
	// Unavailable names the agent and the cause of an UNAVAILABLE verdict.
	Unavailable *debate.UnavailableError `json:"unavailable,omitempty"`
}

// unavailableExit is the result of a debate that ended UNAVAILABLE: exit 3,
// with nothing more on stderr (the verdict named the agent and the cause).
type unavailableExit struct{}

func (unavailableExit) Error() string { return "" }

// printVerdict prints how a debate closed and returns the command's
// result: nil for CONSENSUS_REACHED, unavailableExit (exit 3) for
// UNAVAILABLE, a blockedError (exit 3) otherwise.
func (a *factory) printVerdict(o *debate.Outcome) error {
	transcript := filepath.Join(a.rootDir(), filepath.FromSlash(transcripts.Path(o.DebateID, transcripts.TranscriptFile)))
	record := ""
	if o.Record != "" {
		record = filepath.Join(a.vaultDir(), filepath.FromSlash(o.Record))
	}
	if a.json {
		if err := a.emit(verdictLine{
			Event: "verdict", DebateID: o.DebateID, Verdict: o.Verdict, Action: o.Action, Rule: o.Rule, Reason: o.Reason,
			FinalPosition: o.FinalPosition, Rounds: o.Rounds, Tokens: o.Tokens, ElapsedMs: o.ElapsedMs,
			Transcript: transcript, Record: record, Unavailable: o.Unavailable,
		}); err != nil {
			return err
		}
	} else {
		// An UNAVAILABLE reason is the cause and what to do about it, in
		// one line: it is the only place the terminal shows it.
		a.printf("\n%s → %s (%s)\n  %s\n", o.Verdict, o.Action, o.Rule, termClean(o.Reason))
		if o.FinalPosition != "" {
			a.printf("  final position: %s\n", clipLine(o.FinalPosition, 300))
		}
		a.printf("  %d round(s) · %d tokens · %.1f s\n", o.Rounds, o.Tokens, float64(o.ElapsedMs)/1000)
		a.printf("  transcript: %s  (%s)\n", transcript, a.cmdLine("transcripts", "verify", o.DebateID))
		switch {
		case record != "":
			a.printf("  record:     %s\n", record)
		case !o.Verdict.Filed():
			a.printf("  record:     none filed (%s is not a debate outcome)\n", o.Verdict)
		default:
			a.printf("  record:     none filed\n")
		}
	}
	if o.Verdict == debate.Unavailable {
		return unavailableExit{}
	}
	if o.Verdict != debate.ConsensusReached {
		return blockedError{}
	}
	return nil
}

// termClean replaces control characters, so that text from a debate's
// participants or files cannot drive a terminal.
func termClean(s string) string { return termsafe.Clean(s, "") }

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/debateview"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
)

// progress shows a running debate: under --json one JSON line per event
// (the verdict's line comes after filing); otherwise a line per turn and,
// on a terminal, a status line redrawn in place (debateview).
type progress interface {
	Event(debate.Progress)
	Close()
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

func (a *factory) newProgress() progress {
	if a.json {
		return jsonProgress{a}
	}
	return debateview.New(a.stdout, a.tty, describe, true)
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

// jsonProgress prints each event but the verdict as a progressLine.
type jsonProgress struct{ a *factory }

func (jsonProgress) Close() {}

func (j jsonProgress) Event(p debate.Progress) {
	if p.Event.Kind == debate.EventVerdict {
		return // the closing line, after filing, says it all
	}
	_ = j.a.emit(progressLine{
		Event: p.Event.Kind, DebateID: p.DebateID, Seq: p.Event.Seq, Round: p.Round, MaxRounds: p.MaxRounds,
		Role: p.Role, Agent: p.Agent, Detail: p.Detail, Tokens: p.Tokens, MaxTokens: p.MaxTokens,
		ElapsedMs: p.ElapsedMs, MaxWallClockMs: p.MaxWallClockMs,
	})
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
	if s = termClean(clip.OneLine(s)); s == "" {
		return "(no position)"
	}
	return clip.Runes(s, n)
}

// verdictLine is the closing JSON line of a debate (--json): the debate's
// one JSON view, and where its files are.
type verdictLine struct {
	Event string `json:"event"`
	debate.Summary
	Transcript string `json:"transcript"`
	Record     string `json:"record"`
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
		sess := o.Session
		if sess == nil {
			sess = &debate.DebateSession{ID: o.DebateID}
		}
		if err := a.emit(verdictLine{Event: "verdict", Summary: debate.SummaryOf(sess, o), Transcript: transcript, Record: record}); err != nil {
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

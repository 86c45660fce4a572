package textview

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
)

// textOut prints lines to w and keeps the first write error, so that a
// view is a list of lines and one error check at its end.
type textOut struct {
	w   io.Writer
	err error
}

func (o *textOut) printf(format string, args ...any) {
	if o.err == nil {
		_, o.err = fmt.Fprintf(o.w, format, args...)
	}
}

// clean replaces control characters, so that text from a debate's
// participants or files cannot drive a terminal.
func clean(s string) string { return termsafe.Clean(s, "") }

// shownLine is s on one line of at most n characters, with control
// characters (terminal escape sequences) replaced: what it shows comes
// from agents. Nothing to show is "(no position)".
func shownLine(s string, n int) string {
	if s = clean(clip.OneLine(s)); s == "" {
		return "(no position)"
	}
	return clip.Runes(s, n)
}

// ProgressLine is the one-line human form of an event of a running debate
// ("" for events shown only in the status line): the lines
// debateview.View prints.
func ProgressLine(p debate.Progress) string {
	where := fmt.Sprintf("round %d/%d", p.Round, p.MaxRounds)
	budget := fmt.Sprintf("tokens %d/%d, %.1f s/%.0f s", p.Tokens, p.MaxTokens, float64(p.ElapsedMs)/1000, float64(p.MaxWallClockMs)/1000)
	switch p.Event.Kind {
	case debate.EventOpen:
		return fmt.Sprintf("debate %s opened", p.DebateID)
	case debate.EventResume:
		return fmt.Sprintf("debate %s resumed at %.1f s of %.0f s", p.DebateID, float64(p.ElapsedMs)/1000, float64(p.MaxWallClockMs)/1000)
	case debate.EventClock:
		// A checkpoint only moves the status line.
		if c := p.Clock; c != nil && c.Reason == debate.ClockStopped {
			return fmt.Sprintf("debate %s stopped at %.1f s of %.0f s (%s)", p.DebateID, float64(p.ElapsedMs)/1000, float64(p.MaxWallClockMs)/1000, shownLine(c.Detail, 120))
		}
	case debate.EventTurn:
		return fmt.Sprintf("%s  %-8s %s: %s  (%s)", where, p.Role, p.Agent, shownLine(p.Detail, 100), budget)
	case debate.EventRejected:
		return fmt.Sprintf("%s  %-8s %s: reply rejected: %s", where, p.Role, p.Agent, shownLine(p.Detail, 120))
	case debate.EventForfeit:
		return fmt.Sprintf("%s  %-8s %s forfeits the turn: %s  (%s)", where, p.Role, p.Agent, shownLine(p.Detail, 120), budget)
	}
	return ""
}

// Verdict writes how a debate closed: the verdict, action, rule and
// reason, the final position, what it spent, and where its transcript
// (with verify, the command that verifies it) and record are; record is
// "" when none was filed.
func Verdict(w io.Writer, o *debate.Outcome, transcript, record, verify string) error {
	p := &textOut{w: w}
	// An UNAVAILABLE reason is the cause and what to do about it, in one
	// line: it is the only place the terminal shows it.
	p.printf("\n%s → %s (%s)\n  %s\n", o.Verdict, o.Action, o.Rule, clean(o.Reason))
	if o.FinalPosition != "" {
		p.printf("  final position: %s\n", shownLine(o.FinalPosition, 300))
	}
	p.printf("  %d round(s) · %d tokens · %.1f s\n", o.Rounds, o.Tokens, float64(o.ElapsedMs)/1000)
	p.printf("  transcript: %s  (%s)\n", transcript, verify)
	switch {
	case record != "":
		p.printf("  record:     %s\n", record)
	case !o.Verdict.Filed():
		p.printf("  record:     none filed (%s is not a debate outcome)\n", o.Verdict)
	default:
		p.printf("  record:     none filed\n")
	}
	return p.err
}

// DebateStatus writes where a debate stands: its state, round, tokens and
// time against the budget, its verdict and record once it has them, and,
// for an interrupted debate, resume: the command that continues it (or,
// when its verdict is recorded, finishes closing it), or, when resume
// refuses it, verify: the command that names what does not verify.
func DebateStatus(w io.Writer, st *transcripts.Status, resume, verify string) error {
	p := &textOut{w: w}
	p.printf("%s  [%s] %s\n", st.DebateID, clean(string(st.Layer)), shownLine(st.Topic, 200))
	p.printf("  state:  %s\n", st.State)
	p.printf("  round %d/%d · tokens %d/%d · %.1f s / %.0f s · %d events\n", st.Round, st.MaxRounds,
		st.Tokens, st.MaxTokens, float64(st.ElapsedMs)/1000, float64(st.MaxWallClockMs)/1000, st.Events)
	if st.Verdict != "" {
		p.printf("  verdict: %s → %s\n", st.Verdict, st.Action)
	}
	if st.Record != "" {
		p.printf("  record:  %s\n", st.Record)
	}
	if st.Integrity != "" {
		p.printf("  integrity: %s\n", clean(st.Integrity))
	}
	switch st.Continuation() {
	case transcripts.ContinueRefused:
		p.printf("  the coordinator is not running, and resume refuses a debate whose files do not verify: %s\n", verify)
	case transcripts.ContinueClose:
		p.printf("  the coordinator stopped before closing: the verdict is not filed and sealed yet: %s finishes closing it\n", resume)
	case transcripts.ContinueResume:
		p.printf("  the coordinator is not running: %s\n", resume)
	}
	return p.err
}

// DebateList writes a line per debate (id, state, verdict or "-",
// integrity, topic), after a header row when header is set.
func DebateList(w io.Writer, list []transcripts.Summary, header bool) error {
	p := &textOut{w: w}
	idw, iw := idWidth(list, 52), integrityWidth(list)
	if header {
		p.printf("%-*s %-11s %-17s %-*s  %s\n", idw, "ID", "STATE", "VERDICT", iw, "INTEGRITY", "TOPIC")
	}
	for _, sum := range list {
		verdict := string(sum.Verdict)
		if verdict == "" {
			verdict = "-"
		}
		p.printf("%-*s %-11s %-17s %-*s  %s\n", idw, sum.DebateID, sum.State, verdict, iw, sum.Integrity, shownLine(sum.Topic, 60))
	}
	return p.err
}

// idWidth is the width of the id column of list: its longest id (a debate
// id has up to 55 characters), at least least, so that no id runs into
// the column after it.
func idWidth(list []transcripts.Summary, least int) int {
	n := least
	for _, s := range list {
		n = max(n, len(s.DebateID))
	}
	return n
}

// integrityWidth is the width of the integrity column of list: the
// longest it holds ("TAMPERED: verdict.json differs"), at least 16, so
// that no integrity runs into the column after it.
func integrityWidth(list []transcripts.Summary) int {
	n := 16
	for _, s := range list {
		n = max(n, utf8.RuneCountInString(s.Integrity))
	}
	return n
}

// DebateStarted writes the id of a debate started in the background to
// out, and to note (standard error) which process runs it and watch, the
// command that follows it.
func DebateStarted(out, note io.Writer, id string, pid int, watch string) error {
	_, err := fmt.Fprintf(out, "%s\n", id)
	if _, nerr := fmt.Fprintf(note, "debate %s runs in the background (pid %d); follow it with: %s\n", id, pid, watch); err == nil {
		err = nerr
	}
	return err
}

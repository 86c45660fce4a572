package transcripts

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/vocab"
)

// RenderText writes a view for a terminal: a tamper banner first when the
// transcript (or its vault page) does not verify, then the session, each
// round's turns (role, agent, position, counter, confidence change,
// tokens, evidence with its check, the argument), rejections, forfeits
// and resumes, and the verdict with its reason. Control characters in
// anything read from the debate's files are replaced (every line is
// filtered, not only the fields agents write: a tampered transcript or
// session.json can put them anywhere), so a transcript cannot drive the
// terminal.
func RenderText(w io.Writer, v *View) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { bw.WriteString(termSafe(fmt.Sprintf(format, args...))) }
	in := &v.Integrity
	verify := v.VerifyCommand
	if verify == "" {
		verify = "parley transcripts verify " + v.ID
	}
	if !in.Intact {
		p("!! TAMPERED: line %d %s\n", in.BadLine, termLine(in.Problem))
		p("!! Everything from line %d on is not verified (marked UNVERIFIED below). See: %s\n\n", in.BadLine, verify)
	}
	if pc := in.Page; pc != nil && pc.Status == PageDiffers {
		p("!! VAULT PAGE DIFFERS: %s\n\n", termLine(pc.Problem))
	}
	if f := FirstBad(in.Files); f != nil && in.Intact {
		p("!! TAMPERED: %s %s: %s\n", f.File, f.Status, termLine(f.Problem))
		if f.Want != "" {
			p("!! An intact one: %s\n", termLine(f.Want))
		}
		p("!! See: %s\n\n", verify)
	} else if in.Signature.Bad() {
		p("!! SEAL SIGNATURE %s\n\n", strings.ToUpper(string(in.Signature)))
	}
	p("Debate %s\n", v.ID)
	p("Topic:        %s\n", termLine(v.Topic))
	p("Layer:        %s\n", v.Layer)
	if v.Scope != "" {
		p("Scope:        %s\n", termLine(v.Scope))
	}
	p("Created:      %s (%s)\n", v.Created, v.State)
	p("Participants: %s\n", v.ParticipantList())
	bu := v.Budget
	p("Budget:       %s, %d tokens (%d per agent per round), %d s\n", vocab.Count(bu.MaxRounds, "round"), bu.MaxTokens, bu.MaxTokensPerRound, bu.MaxWallClockMs/1000)
	p("Integrity:    %s\n", integrityLine(in))
	if pc := in.Page; pc != nil {
		p("Vault page:   %s (%s)\n", pc.Status, pc.Path)
	}
	for _, f := range in.Files {
		p("File:         %s %s\n", f.Status, termLine(f.File))
	}
	switch in.Signature {
	case SigNone:
	case SigNotSealed:
		p("Signature:    none yet: not sealed, so nothing vouches for its files until it is\n")
	default:
		p("Signature:    %s\n", in.Signature)
	}
	p("Opening position (defender): %s\n", termLine(v.OpeningPosition))
	for _, c := range v.Context {
		p("Context:      %s %s (%d characters)\n", c.Kind, termLine(c.Ref), c.Chars)
		for _, l := range strings.Split(strings.TrimRight(c.Text, "\n"), "\n") {
			p("  │ %s\n", termText(l))
		}
	}
	for _, r := range v.Rounds {
		if r.N > 0 {
			p("\n── Round %d ──\n", r.N)
		} else {
			p("\n── Before round 1 ──\n")
		}
		for i := range r.Entries {
			textEntry(bw, &r.Entries[i])
		}
	}
	if o := v.Verdict; o != nil {
		p("\n══ Verdict: %s → %s (%s)\n", o.Verdict, o.Action, o.Rule)
		p("   %s\n", termLine(o.Reason))
		if o.FinalPosition != "" {
			p("   Final position: %s\n", termLine(o.FinalPosition))
		}
		p("   Defender's last position: %s\n", termLine(o.DefenderPosition))
		for _, name := range slices.Sorted(maps.Keys(o.AttackerPositions)) {
			p("   %s's last position: %s\n", name, termLine(o.AttackerPositions[name]))
		}
		p("   %s, %s, %.1f s of active time\n", vocab.Count(o.Rounds, "round"), vocab.Count(o.Tokens, "token"), float64(o.ElapsedMs)/1000)
		if v.Record != "" {
			p("   Record: %s\n", v.Record)
		}
	} else {
		p("\nNo verdict yet (%s): %s, %s so far.\n", v.State, vocab.Count(v.Turns, "turn"), vocab.Count(v.Tokens, "token"))
	}
	return bw.Flush()
}

func integrityLine(in *Integrity) string {
	switch {
	case !in.Intact:
		return fmt.Sprintf("TAMPERED at line %d (%s before it)", in.BadLine, verifying(in.Events))
	case in.Sealed:
		return fmt.Sprintf("intact, %s, sealed by verdict.json, head %s", vocab.Count(in.Events, "event"), in.Head)
	case in.Events == 0:
		return "intact so far, nothing recorded yet, not sealed yet"
	}
	return fmt.Sprintf("intact so far, %s, not sealed yet, head %s", vocab.Count(in.Events, "event"), in.Head)
}

func textEntry(w *bufio.Writer, e *Entry) {
	p := func(format string, args ...any) { w.WriteString(termSafe(fmt.Sprintf(format, args...))) }
	mark := ""
	if e.Unverified {
		mark = "  UNVERIFIED"
	}
	switch {
	case e.Turn != nil:
		t := e.Turn
		p("\n%s (%s) · %s · confidence %s · line %d%s\n", t.Agent, t.Role, TokensLabel(t), Signed(t.ConfidenceChange), e.Line, mark)
		pos := termLine(t.Position)
		if pos == "" {
			pos = "(none)"
		}
		p("  Position: %s\n", pos)
		if c := termLine(t.CounterTo); c != "" {
			p("  Counters: %s\n", c)
		} else if e.Decision != nil && e.Decision.Counter == debate.CounterConceding {
			p("  No further objections\n")
		}
		if d := e.Decision; d != nil && d.Label() != "" {
			p("  Counted as: %s\n", termLine(d.Label()))
		}
		for _, ev := range t.Evidence {
			p("  Evidence: %s — %s", termLine(ev.Ref), ev.Status)
			if ev.Detail != "" {
				p(" (%s)", termLine(ev.Detail))
			}
			p("\n")
		}
		if text := strings.TrimSpace(t.Text); text != "" {
			for line := range strings.Lines(text) {
				p("  │ %s\n", termText(strings.TrimRight(line, "\r\n")))
			}
		}
	case e.Rejected != nil:
		r := e.Rejected
		p("\n! Reply of %s (%s, round %d) rejected: %s · line %d%s\n", r.Agent, r.Role, r.Round, termLine(r.Reason), e.Line, mark)
	case e.Forfeit != nil:
		f := e.Forfeit
		p("\n✗ %s (%s) forfeited: %s", f.Agent, f.Role, f.Reason)
		if f.Detail != "" {
			p(" (%s)", termLine(f.Detail))
		}
		p(" · line %d%s\n", e.Line, mark)
	case e.Resume != nil:
		p("\n↻ The coordinator was resumed at %.1f s of active time · line %d%s\n", float64(e.Resume.ElapsedMs)/1000, e.Line, mark)
	case e.Stopped != nil:
		p("\n■ The coordinator stopped at %.1f s of active time: %s · line %d%s\n", float64(e.ElapsedMs)/1000, termLine(stopDetail(e.Stopped)), e.Line, mark)
	}
}

// termLine is text on one line with control characters replaced.
func termLine(s string) string { return termText(clip.OneLine(s)) }

// termText replaces control characters (escape sequences included) with
// U+FFFD, keeping tabs.
func termText(s string) string { return termsafe.Clean(s, "\t") }

// termSafe replaces the control characters of rendered output but the
// line breaks and tabs it is laid out with.
func termSafe(s string) string { return termsafe.Clean(s, "\n\t") }

// verifying says how many lines verify: "1 line verifies", "4 lines verify".
func verifying(n int) string {
	if n == 1 {
		return "1 line verifies"
	}
	return vocab.Count(n, "line") + " verify"
}

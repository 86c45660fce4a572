package transcripts

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// Transcript is a debate as read back from its directory.
type Transcript struct {
	Session *debate.DebateSession
	Events  []debate.Event
	// Verdict is verdict.json, nil while the debate has none.
	Verdict *Verdict
	// Report is the verification of the transcript, nil if not verified.
	Report *Report
}

// Read reads debate id's session, events and verdict, and verifies the
// transcript. A transcript that does not verify is still returned, with
// its report saying where it breaks, and its events up to there.
func (s *Store) Read(id string) (*Transcript, error) {
	sess, err := s.Session(id)
	if err != nil {
		return nil, err
	}
	t := &Transcript{Session: sess}
	rep, err := s.Verify(id)
	if err != nil {
		return nil, err
	}
	t.Report = &rep
	t.Events, err = s.Events(id)
	if err != nil && !rep.Intact {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	if v, err := s.Verdict(id); err == nil {
		t.Verdict = v
	}
	return t, nil
}

// RenderMarkdown renders a transcript as a readable Markdown page: the
// session, every round's turns with their evidence checks, rejections and
// forfeits, and the verdict. Agents' arguments are quoted so that their
// Markdown cannot break the page's structure.
func RenderMarkdown(t *Transcript) []byte {
	var b bytes.Buffer
	s := t.Session
	fmt.Fprintf(&b, "# Debate: %s\n\n", oneLine(s.Topic))
	b.WriteString("| | |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(&b, "| %s | %s |\n", k, cell(v)) }
	row("Debate", "`"+s.ID+"`")
	row("Layer", string(s.Layer))
	if s.Scope != "" {
		row("Scope", s.Scope)
	}
	row("Created", s.Created)
	var ps []string
	for _, p := range s.Participants {
		ps = append(ps, fmt.Sprintf("%s (%s)", p.Name, p.Role))
	}
	row("Participants", strings.Join(ps, ", "))
	bu := s.Budget
	row("Budget", fmt.Sprintf("%d rounds · %d tokens (%d per agent per round) · %d s · convergence %d",
		bu.MaxRounds, bu.MaxTokens, bu.MaxTokensPerRound, bu.MaxWallClockMs/1000, bu.ConvergenceRounds))
	if v := t.Verdict; v != nil {
		row("Verdict", fmt.Sprintf("**%s** → %s (%s)", v.Verdict, v.Action, v.Rule))
	} else {
		row("Verdict", "none yet")
	}
	if r := t.Report; r != nil {
		if r.Intact {
			row("Transcript", fmt.Sprintf("intact: %d events, head `%s`", r.Events, short(r.Head)))
		} else {
			row("Transcript", fmt.Sprintf("**does not verify: line %d %s**", r.BadLine, r.Problem))
		}
	}
	fmt.Fprintf(&b, "\n**Opening position (defender):** %s\n", oneLine(s.OpeningPosition()))
	if len(s.Context) > 0 {
		b.WriteString("\n## Context\n")
		for _, c := range s.Context {
			title := c.Kind
			if c.Ref != "" {
				title += ": `" + c.Ref + "`"
			}
			fmt.Fprintf(&b, "\n- %s (%d characters)\n", title, len([]rune(c.Text)))
		}
	}
	round := 0
	for _, e := range t.Events {
		switch e.Kind {
		case debate.EventTurn:
			var tr debate.TurnRecord
			if json.Unmarshal(e.Data, &tr) != nil {
				continue
			}
			if tr.Round != round {
				round = tr.Round
				fmt.Fprintf(&b, "\n## Round %d\n", round)
			}
			renderTurn(&b, &tr)
		case debate.EventRejected:
			var r debate.RejectedEvent
			if json.Unmarshal(e.Data, &r) == nil {
				fmt.Fprintf(&b, "\n> [!warning] Reply of %s (%s, round %d) rejected: %s\n", r.Agent, r.Role, r.Round, oneLine(r.Reason))
			}
		case debate.EventForfeit:
			var f debate.ForfeitEvent
			if json.Unmarshal(e.Data, &f) == nil {
				if f.Round != round {
					round = f.Round
					fmt.Fprintf(&b, "\n## Round %d\n", round)
				}
				fmt.Fprintf(&b, "\n### %s (%s) — forfeited\n\n%s", f.Agent, f.Role, string(f.Reason))
				if f.Detail != "" {
					fmt.Fprintf(&b, ": %s", oneLine(f.Detail))
				}
				b.WriteString("\n")
			}
		case debate.EventResume:
			var r debate.ResumeEvent
			if json.Unmarshal(e.Data, &r) == nil {
				fmt.Fprintf(&b, "\n_The coordinator was resumed at %.1f s of active time._\n", float64(r.ElapsedMs)/1000)
			}
		}
	}
	if v := t.Verdict; v != nil {
		renderVerdict(&b, &v.Outcome, v.Record)
	} else if o := verdictEvent(t.Events); o != nil {
		renderVerdict(&b, o, "")
	}
	return b.Bytes()
}

func verdictEvent(events []debate.Event) *debate.Outcome {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == debate.EventVerdict {
			var o debate.Outcome
			if json.Unmarshal(events[i].Data, &o) == nil {
				return &o
			}
		}
	}
	return nil
}

func renderTurn(b *bytes.Buffer, t *debate.TurnRecord) {
	tokens := fmt.Sprintf("%d tokens", t.Tokens)
	if t.TokensEstimated {
		tokens += " (estimated)"
	}
	if t.OverBudget {
		tokens += ", **over budget**"
	}
	fmt.Fprintf(b, "\n### %s (%s) — %s\n\n", t.Agent, t.Role, tokens)
	pos := oneLine(t.Position)
	if pos == "" {
		pos = "_(none)_"
	}
	fmt.Fprintf(b, "- **Position:** %s\n", pos)
	if c := oneLine(t.CounterTo); c != "" {
		fmt.Fprintf(b, "- **Counters:** %s\n", c)
	} else if t.Role == debate.RoleAttacker && t.Concedes() {
		b.WriteString("- **No further objections**\n")
	}
	fmt.Fprintf(b, "- **Confidence change:** %s\n", signed(t.ConfidenceChange))
	if len(t.Evidence) > 0 {
		b.WriteString("- **Evidence:**\n")
		for _, e := range t.Evidence {
			fmt.Fprintf(b, "  - `%s` — %s", strings.ReplaceAll(e.Ref, "`", "'"), e.Status)
			if e.Detail != "" {
				fmt.Fprintf(b, " (%s)", oneLine(e.Detail))
			}
			b.WriteString("\n")
		}
	}
	if text := strings.TrimSpace(t.Text); text != "" {
		b.WriteString("\n")
		for line := range strings.Lines(text) {
			b.WriteString("> " + strings.TrimRight(line, "\r\n") + "\n")
		}
	}
}

func renderVerdict(b *bytes.Buffer, o *debate.Outcome, record string) {
	fmt.Fprintf(b, "\n## Verdict: %s → %s\n\n%s.\n\n", o.Verdict, o.Action, o.Reason)
	if o.FinalPosition != "" {
		fmt.Fprintf(b, "- **Final position:** %s\n", oneLine(o.FinalPosition))
	}
	fmt.Fprintf(b, "- **Defender's last position:** %s\n", oneLine(o.DefenderPosition))
	for _, name := range slices.Sorted(maps.Keys(o.AttackerPositions)) {
		fmt.Fprintf(b, "- **%s's last position:** %s\n", name, oneLine(o.AttackerPositions[name]))
	}
	fmt.Fprintf(b, "- **Rounds:** %d · **Tokens:** %d · **Active time:** %.1f s\n", o.Rounds, o.Tokens, float64(o.ElapsedMs)/1000)
	if record != "" {
		fmt.Fprintf(b, "- **Record:** `%s`\n", record)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// signed writes -1, 0 or +1.
func signed(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

package transcripts

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/vault"
	"github.com/parleyhq/parley/vocab"
)

// RenderMarkdown renders a transcript as a readable Markdown page: the
// session, every round's turns with their evidence checks, rejections and
// forfeits, and the verdict. It is the page written to the vault
// (wiki/debates/<id>.md). Agents' arguments are quoted and '<' is escaped,
// so that their Markdown or HTML cannot break the page's structure. A
// transcript that does not verify opens with a warning naming its first
// bad line, and every entry from there on is marked unverified.
func RenderMarkdown(t *Transcript) []byte {
	return RenderMarkdownView(NewView(t))
}

// RenderMarkdownView is RenderMarkdown of a View (with its page check, if
// the caller made one). As on the vault page (vault.WritePage), control
// characters but newline and tab, and bidirectional overrides, are
// U+FFFD: "transcripts show --format md" written to a file and opened
// in Obsidian shows no word in another order than it was recorded in.
func RenderMarkdownView(v *View) []byte {
	return termsafe.CleanBytes(renderMarkdown(v, pageFull), "\n\t")
}

// pageDetail is how much of a debate a Markdown page holds.
type pageDetail int

const (
	pageFull        pageDetail = iota // everything
	pageNoArguments                   // each turn's argument replaced by a note of its length
	pageSummary                       // no rounds: the session, a note, and the verdict
)

// renderMarkdown renders a view with the detail asked for (less for a
// page that would be too large).
func renderMarkdown(v *View, detail pageDetail) []byte {
	arguments := detail == pageFull
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Debate: %s\n\n", mdLine(v.Topic))
	in := &v.Integrity
	if !in.Intact {
		fmt.Fprintf(&b, "> [!danger] TAMPERED: this transcript does not verify\n> Line %d %s. Everything from line %d on is not verified.\n\n", in.BadLine, mdLine(in.Problem), in.BadLine)
	}
	if p := in.Page; p != nil && p.Status == PageDiffers {
		fmt.Fprintf(&b, "> [!danger] The vault page does not match the transcript\n> %s\n\n", mdLine(p.Problem))
	}
	if f := FirstBad(in.Files); f != nil && in.Intact {
		fmt.Fprintf(&b, "> [!danger] TAMPERED: %s %s\n> %s\n\n", mdLine(f.File), f.Status, mdLine(f.Problem))
	} else if in.Signature.Bad() {
		fmt.Fprintf(&b, "> [!danger] The seal's signature is %s\n\n", in.Signature)
	}
	b.WriteString("| | |\n|---|---|\n")
	row := func(k, val string) { fmt.Fprintf(&b, "| %s | %s |\n", k, cell(val)) }
	row("Debate", "`"+v.ID+"`")
	row("Layer", string(v.Layer))
	if v.Scope != "" {
		row("Scope", mdLine(v.Scope))
	}
	row("Created", v.Created)
	row("Participants", v.ParticipantList())
	bu := v.Budget
	row("Budget", fmt.Sprintf("%d rounds · %d tokens (%d per agent per round) · %d s · convergence %d",
		bu.MaxRounds, bu.MaxTokens, bu.MaxTokensPerRound, bu.MaxWallClockMs/1000, bu.ConvergenceRounds))
	if o := v.Verdict; o != nil {
		row("Verdict", fmt.Sprintf("**%s** → %s (%s)", o.Verdict, o.Action, o.Rule))
	} else {
		row("Verdict", "none yet ("+string(v.State)+")")
	}
	if in.Intact {
		row("Transcript", fmt.Sprintf("intact: %d events, head `%s`", in.Events, in.Head))
	} else {
		row("Transcript", fmt.Sprintf("**does not verify: line %d %s**", in.BadLine, mdLine(in.Problem)))
	}
	fmt.Fprintf(&b, "\n**Opening position (defender):** %s\n", mdLine(v.OpeningPosition))
	if len(v.Context) > 0 {
		b.WriteString("\n## Context\n")
		for _, c := range v.Context {
			title := c.Kind
			if c.Ref != "" {
				title += ": `" + strings.ReplaceAll(c.Ref, "`", "'") + "`"
			}
			fmt.Fprintf(&b, "\n- %s (%d characters)\n", title, c.Chars)
		}
	}
	if detail == pageSummary {
		fmt.Fprintf(&b, "\n_The %d turns of this debate are too long for a vault page: parley transcripts show %s has them._\n", v.Turns, v.ID)
	}
	for _, r := range v.Rounds {
		if detail == pageSummary {
			break
		}
		if r.N > 0 {
			fmt.Fprintf(&b, "\n## Round %d\n", r.N)
		}
		for i := range r.Entries {
			renderEntryMD(&b, &r.Entries[i], arguments)
		}
	}
	if o := v.Verdict; o != nil {
		renderVerdictMD(&b, o, v.Record)
	}
	return b.Bytes()
}

func renderEntryMD(b *bytes.Buffer, e *Entry, arguments bool) {
	mark := ""
	if e.Unverified {
		mark = " — **unverified**"
	}
	switch {
	case e.Turn != nil:
		renderTurnMD(b, e.Turn, e.Decision, mark, arguments)
	case e.Rejected != nil:
		r := e.Rejected
		fmt.Fprintf(b, "\n> [!warning] Reply of %s (%s, round %d) rejected%s: %s\n", mdLine(r.Agent), mdLine(string(r.Role)), r.Round, mark, mdLine(r.Reason))
	case e.Forfeit != nil:
		f := e.Forfeit
		// The reasons parley writes (deadline, bad_reply, …) are shown as
		// written; anything else a tampered transcript says is escaped.
		reason := string(f.Reason)
		if strings.ContainsFunc(reason, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '_') }) {
			reason = mdLine(reason)
		}
		fmt.Fprintf(b, "\n### %s (%s) — forfeited%s\n\n%s", mdLine(f.Agent), mdLine(string(f.Role)), mark, reason)
		if f.Detail != "" {
			fmt.Fprintf(b, ": %s", mdLine(f.Detail))
		}
		b.WriteString("\n")
	case e.Resume != nil:
		fmt.Fprintf(b, "\n_The coordinator was resumed at %.1f s of active time._%s\n", float64(e.Resume.ElapsedMs)/1000, mark)
	case e.Stopped != nil:
		fmt.Fprintf(b, "\n_The coordinator stopped at %.1f s of active time: %s._%s\n", float64(e.ElapsedMs)/1000, mdLine(stopDetail(e.Stopped)), mark)
	}
}

func renderTurnMD(b *bytes.Buffer, t *debate.TurnRecord, d *debate.Decision, mark string, arguments bool) {
	fmt.Fprintf(b, "\n### %s (%s) — %s%s\n\n", mdLine(t.Agent), mdLine(string(t.Role)), TokensLabel(t), mark)
	pos := mdLine(t.Position)
	if pos == "" {
		pos = "_(none)_"
	}
	fmt.Fprintf(b, "- **Position:** %s\n", pos)
	if c := mdLine(t.CounterTo); c != "" {
		fmt.Fprintf(b, "- **Counters:** %s\n", c)
	} else if d != nil && d.Counter == debate.CounterConceding {
		b.WriteString("- **No further objections**\n")
	}
	fmt.Fprintf(b, "- **Confidence change:** %s\n", Signed(t.ConfidenceChange))
	if d != nil && d.Label() != "" {
		fmt.Fprintf(b, "- **Counted as:** %s\n", mdLine(d.Label()))
	}
	if len(t.Evidence) > 0 {
		b.WriteString("- **Evidence:**\n")
		for _, e := range t.Evidence {
			fmt.Fprintf(b, "  - `%s` — %s", strings.ReplaceAll(clip.OneLine(e.Ref), "`", "'"), e.Status)
			if e.Detail != "" {
				fmt.Fprintf(b, " (%s)", mdLine(e.Detail))
			}
			b.WriteString("\n")
		}
	}
	if text := strings.TrimSpace(t.Text); text != "" && !arguments {
		fmt.Fprintf(b, "\n_The argument (%d characters) is left out of this page to keep it under the vault's size limit: parley transcripts show %s has it._\n", len([]rune(text)), t.DebateID)
	} else if text != "" {
		b.WriteString("\n")
		for _, line := range vault.EscapeLines(text) {
			b.WriteString("> " + line + "\n")
		}
	}
}

func renderVerdictMD(b *bytes.Buffer, o *debate.Outcome, record string) {
	fmt.Fprintf(b, "\n## Verdict: %s → %s\n\n%s.\n\n", o.Verdict, o.Action, mdLine(strings.TrimSuffix(o.Reason, ".")))
	if o.FinalPosition != "" {
		fmt.Fprintf(b, "- **Final position:** %s\n", mdLine(o.FinalPosition))
	}
	fmt.Fprintf(b, "- **Defender's last position:** %s\n", mdLine(o.DefenderPosition))
	for _, name := range slices.Sorted(maps.Keys(o.AttackerPositions)) {
		fmt.Fprintf(b, "- **%s's last position:** %s\n", name, mdLine(o.AttackerPositions[name]))
	}
	fmt.Fprintf(b, "- **Rounds:** %d · **Tokens:** %d · **Active time:** %.1f s\n", o.Rounds, o.Tokens, float64(o.ElapsedMs)/1000)
	if record != "" {
		fmt.Fprintf(b, "- **Record:** [[%s]] (`%s`)\n", RecordLink(record), record)
	}
}

// RecordLink turns a record's vault path ("wiki/consensus/spec-x.md") into
// the wikilink target that names it: its bare, unique name ("spec-x").
func RecordLink(record string) string {
	return path.Base(strings.TrimSuffix(record, ".md"))
}

// TokensLabel is a turn's tokens as a reader sees them: "120 tokens",
// "(estimated)", "over budget".
func TokensLabel(t *debate.TurnRecord) string {
	s := vocab.Count(t.Tokens, "token")
	if t.TokensEstimated {
		s += " (estimated)"
	}
	if t.OverBudget {
		s += ", over budget"
	}
	return s
}

// mdLine is text that parley did not write on one line of Markdown
// (vault.EscapeInline): white space collapsed and every Markdown and
// Obsidian syntax character escaped, so an agent's "<script>", "[[page]]"
// or "#tag" is read as text in Obsidian too.
func mdLine(s string) string { return vault.EscapeInline(s) }

func cell(s string) string { return strings.ReplaceAll(clip.OneLine(s), "|", `\|`) }

// Signed writes a confidence change as -1, 0 or +1.
func Signed(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

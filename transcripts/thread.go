package transcripts

import (
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/debate"
)

// writeThread writes the rounds as HTML: one <section class="round"> per
// round, an <article class="turn …"> per turn, a paragraph per rejection,
// forfeit and resume. It is written in Go rather than as a template
// because it is the part that grows with the debate (a 1000-turn page
// through html/template's reflection took several times longer). Every
// value from the transcript goes through html.EscapeString, in text and
// in double-quoted attributes alike, and links come only from EvidenceHref
// (web addresses checked to be http or https, or the caller's own), and
// only for the turns whose evidence may be linked (Entry.LinksEvidence).
func (d *htmlData) writeThread(w io.Writer) error {
	var b strings.Builder
	b.Grow(1024 * (d.Turns + 1))
	if len(d.Rounds) == 0 {
		b.WriteString(`<p class="empty">No turn recorded yet.</p>`)
	}
	for _, r := range d.Rounds {
		n := strconv.Itoa(r.N)
		b.WriteString(`<section class="round" id="round-` + n + `">` + "\n<h2>")
		if r.N > 0 {
			b.WriteString("Round " + n)
		} else {
			b.WriteString("Before round 1")
		}
		b.WriteString("</h2>\n")
		for i := range r.Entries {
			d.entry(&b, &r.Entries[i])
		}
		b.WriteString("</section>\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var esc = html.EscapeString

func (d *htmlData) entry(b *strings.Builder, e *Entry) {
	line := strconv.Itoa(e.Line)
	unverified, mark := "", ""
	if e.Unverified {
		unverified = " unverified"
		mark = ` · <strong class="unverified-mark">unverified</strong>`
	}
	lineLink := `<a class="line" href="#line-` + line + `">line ` + line + `</a>`
	who := func(name string, role debate.Role) string {
		return `<span class="who ` + esc(string(role)) + `">` + esc(name) + `</span>`
	}
	switch {
	case e.Turn != nil:
		t := e.Turn
		role := esc(string(t.Role))
		b.WriteString(`<article class="turn ` + role + unverified + `" id="line-` + line + `">` + "\n<header>\n")
		b.WriteString(who(t.Agent, t.Role) + ` <span class="role">` + role + "</span>\n")
		over := ""
		if t.OverBudget {
			over = " over"
		}
		sign := Signed(t.ConfidenceChange)
		b.WriteString(`<span class="facts"><span class="tokens` + over + `">` + esc(TokensLabel(t)) + `</span> · <span class="confidence c` + sign + `">confidence ` + sign + `</span> · ` + lineLink + mark + "</span>\n</header>\n")
		b.WriteString(`<p class="position"><span class="label">Position</span> `)
		if t.Position != "" {
			b.WriteString(esc(t.Position))
		} else {
			b.WriteString("<em>(none)</em>")
		}
		b.WriteString("</p>\n")
		if t.CounterTo != "" {
			b.WriteString(`<p class="counter"><span class="label">Counters</span> ` + esc(t.CounterTo) + "</p>\n")
		} else if e.Decision != nil && e.Decision.Counter == debate.CounterConceding {
			b.WriteString(`<p class="concede">No further objections</p>` + "\n")
		}
		if dc := e.Decision; dc != nil && dc.Label() != "" {
			b.WriteString(`<p class="decision"><span class="label">Counted as</span> ` + esc(dc.Label()) + "</p>\n")
		}
		if len(t.Evidence) > 0 {
			b.WriteString(`<ul class="evidence">` + "\n")
			for _, ev := range t.Evidence {
				ref := `<code>` + esc(ev.Ref) + `</code>`
				switch href := d.EvidenceHref(ev); {
				case href == "":
				case !e.LinksEvidence():
					ref += ` <span class="unverified-mark" title="not linked: this turn is unverified">unverified</span>`
				default:
					ref = `<a href="` + esc(href) + `" rel="noopener noreferrer nofollow">` + ref + `</a>`
				}
				b.WriteString(`<li class="ev ev-` + esc(string(ev.Status)) + `">` + ref + ` <span class="status">` + esc(string(ev.Status)) + `</span>`)
				if ev.Detail != "" {
					b.WriteString(` <span class="detail">` + esc(ev.Detail) + `</span>`)
				}
				b.WriteString("</li>\n")
			}
			b.WriteString("</ul>\n")
		}
		if t.Text != "" {
			b.WriteString(`<blockquote class="argument">` + esc(t.Text) + "</blockquote>\n")
		}
		b.WriteString("</article>\n")
	case e.Rejected != nil:
		r := e.Rejected
		b.WriteString(`<p class="event rejected` + unverified + `" id="line-` + line + `"><span class="icon">!</span> Reply of ` + who(r.Agent, r.Role) +
			` (` + esc(string(r.Role)) + `, round ` + strconv.Itoa(r.Round) + `) rejected: ` + esc(r.Reason) + ` ` + lineLink + mark + "</p>\n")
	case e.Forfeit != nil:
		f := e.Forfeit
		detail := ""
		if f.Detail != "" {
			detail = " (" + esc(f.Detail) + ")"
		}
		b.WriteString(`<p class="event forfeit` + unverified + `" id="line-` + line + `"><span class="icon">✗</span> ` + who(f.Agent, f.Role) +
			` (` + esc(string(f.Role)) + `) forfeited: ` + esc(string(f.Reason)) + detail + ` ` + lineLink + mark + "</p>\n")
	case e.Resume != nil:
		b.WriteString(`<p class="event resume` + unverified + `" id="line-` + line + `"><span class="icon">↻</span> The coordinator was resumed at ` +
			strconv.FormatFloat(float64(e.Resume.ElapsedMs)/1000, 'f', 1, 64) + ` s of active time ` + lineLink + mark + "</p>\n")
	case e.Stopped != nil:
		b.WriteString(`<p class="event stopped` + unverified + `" id="line-` + line + `"><span class="icon">■</span> The coordinator stopped at ` +
			strconv.FormatFloat(float64(e.ElapsedMs)/1000, 'f', 1, 64) + ` s of active time: ` + esc(stopDetail(e.Stopped)) + ` ` + lineLink + mark + "</p>\n")
	}
}

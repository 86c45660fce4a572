package transcripts

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"path"
	"sync"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/vocab"
)

//go:embed html/transcript.html
var htmlFS embed.FS

// Stylesheet is the CSS of the classes RenderHTMLBody writes. It expects
// the variables --fg, --muted, --line, --soft, --card and --link to be set
// by the page around it. (Embedded as a string: no work at start-up.)
//
//go:embed html/transcript.css
var Stylesheet string

//go:embed html/base.css
var baseCSS string

// htmlTemplates is parsed on first use, not at start-up.
var htmlTemplates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("transcript").Funcs(template.FuncMap{
		"short":   short,
		"seconds": func(ms int64) string { return fmt.Sprintf("%.1f s", float64(ms)/1000) },
		"count":   vocab.Count,
		"agent":   AgentLabel,
		"pageStatus": func(s PageStatus) string {
			switch s {
			case PageMatches:
				return "matches"
			case PageDiffers:
				return "DIFFERS"
			case PageMissing:
				return "missing"
			case PageNoHead:
				return "records no head"
			}
			return "unreadable"
		},
	}).ParseFS(htmlFS, "html/transcript.html"))
})

// HTMLOptions says where an HTML rendering links to. Every field may be nil.
type HTMLOptions struct {
	// EvidenceURL returns the address an evidence reference links to, ""
	// for none. Nil: web addresses (http, https) link to themselves and
	// nothing else links.
	EvidenceURL func(debate.EvidenceCheck) string
	// RecordURL returns the address of the consensus record at a vault
	// path, "" for none. Nil: the record is named, not linked.
	RecordURL func(record string) string
	// Charts returns the charts drawn under the answer, as trusted HTML
	// (inline SVG whose text the caller escaped). Nil: none.
	Charts func(*View) template.HTML
}

// htmlData is what the templates see: the view and the links.
type htmlData struct {
	*View
	opts HTMLOptions
	CSS  template.CSS
}

// EvidenceHref is the address of an evidence reference, "" for none.
func (d *htmlData) EvidenceHref(e debate.EvidenceCheck) string {
	if d.opts.EvidenceURL != nil {
		return d.opts.EvidenceURL(e)
	}
	return WebURL(e)
}

// RecordHref is the address of the consensus record, "" for none.
func (d *htmlData) RecordHref() string {
	if d.opts.RecordURL == nil || d.Record == "" {
		return ""
	}
	return d.opts.RecordURL(d.Record)
}

// Charts is the charts of the view, if the caller draws any.
func (d *htmlData) Charts() template.HTML {
	if d.opts.Charts == nil {
		return ""
	}
	return d.opts.Charts(d.View)
}

// RecordName is the record's name (its file name without ".md").
func (d *htmlData) RecordName() string { return path.Base(RecordLink(d.Record)) }

// BadgeClass is the integrity badge's class: ok (verified and sealed),
// pending (verified so far) or bad (tampered).
func (d *htmlData) BadgeClass() string {
	switch {
	case d.Integrity.Tampered():
		return "bad"
	case d.Integrity.Sealed:
		return "ok"
	}
	return "pending"
}

// WebURL returns an evidence reference's address when it is a web address
// (http or https), else "".
func WebURL(e debate.EvidenceCheck) string {
	if e.Kind != "url" {
		return ""
	}
	u, err := url.Parse(e.Ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// RenderHTML writes a view as a whole HTML document with its stylesheet
// inline: the header (topic, participants, budget), the integrity badge
// and, for a tampered transcript, a banner naming the first bad line, the
// rounds as a thread, and the verdict. Everything agents wrote is escaped:
// it is shown as text, never run.
func RenderHTML(w io.Writer, v *View, o HTMLOptions) error {
	d := &htmlData{View: v, opts: o, CSS: template.CSS(baseCSS + Stylesheet)}
	var b bytes.Buffer
	if err := htmlTemplates().ExecuteTemplate(&b, "document", d); err != nil {
		return err
	}
	if err := d.writeBody(&b); err != nil {
		return err
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := w.Write(SafeHTML(b.Bytes()))
	return err
}

// SafeHTML is a page, or a part of one, as a browser may be given it: the
// text in it that parley did not write (agents' turns, topics, reasons,
// file names) may hold control characters, and bidirectional overrides and
// isolates that make a browser show words in another order than they are
// recorded in ("Trojan Source"); each becomes U+FFFD, as on a terminal and
// in the vault's pages. Newlines, tabs and carriage returns stay. It
// returns page itself when there is nothing to replace. Every HTML
// rendering of a debate goes through it (RenderHTML, and the web server's
// pages and live updates).
func SafeHTML(page []byte) []byte { return termsafe.CleanBytes(page, "\n\t\r") }

// RenderHTMLBody writes the body of RenderHTML without the document around
// it, for a page that has its own (and serves Stylesheet): the header,
// then <div id="live"> holding what changes while a debate runs (see
// RenderHTMLLive).
func RenderHTMLBody(w io.Writer, v *View, o HTMLOptions) error {
	return (&htmlData{View: v, opts: o}).writeBody(w)
}

// RenderHTMLLive writes the inside of RenderHTMLBody's <div id="live">:
// the integrity badge and banners, the rounds and the verdict.
func RenderHTMLLive(w io.Writer, v *View, o HTMLOptions) error {
	return (&htmlData{View: v, opts: o}).writeLive(w)
}

func (d *htmlData) writeBody(w io.Writer) error {
	if err := htmlTemplates().ExecuteTemplate(w, "body", d); err != nil {
		return err
	}
	if err := d.writeLive(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "</div>\n")
	return err
}

// writeLive writes the badge and banners and opens the thread (template
// "live"), the thread (in Go: it is what grows), then closes it and
// writes the verdict (template "live-end").
func (d *htmlData) writeLive(w io.Writer) error {
	if err := htmlTemplates().ExecuteTemplate(w, "live", d); err != nil {
		return err
	}
	if err := d.writeThread(w); err != nil {
		return err
	}
	return htmlTemplates().ExecuteTemplate(w, "live-end", d)
}

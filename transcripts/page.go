package transcripts

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// The debate's page in the vault, and the frontmatter keys that record the
// transcript it was written from.
const (
	// PageHeadKey holds the hash of the transcript's last line when the
	// page was written (the head verdict.json records).
	PageHeadKey = debate.FrontmatterHead
	// PageEventsKey holds how many events the transcript had then.
	PageEventsKey = debate.FrontmatterEvents
	// PageSessionKey holds the SHA-256 of session.json.
	PageSessionKey = debate.FrontmatterSessionHash
)

// PageFolder is the vault folder of the debates' readable transcript pages.
const PageFolder = "wiki/debates"

// PagePath is the vault path of debate id's readable transcript page.
func PagePath(id string) string { return PageFolder + "/" + id + ".md" }

// PageLink is the wikilink target of debate id's page: its bare name
// ("<id>"), which is unique in a vault and which Obsidian and obsidiantools
// resolve by name (a path-style "debates/<id>" they count as a missing
// note).
func PageLink(id string) string { return id }

// WritePage writes the readable transcript of a closed debate to the vault
// at PagePath(id) (replacing any earlier version), so that the vault alone
// tells the story: the frontmatter has type "debate", the layer, verdict,
// action, date, topic, participants, the debate id, a wikilink to the
// consensus record (record, related), the chain's head hash and event
// count (PageHeadKey, PageEventsKey) and tags; the body is RenderMarkdown,
// or, when that would pass vault.MaxPageBytes, the same without the
// agents' arguments (each turn says how long its argument was), and when
// even that would, the session and the verdict without the rounds.
//
// t is the transcript as Read returned it, after the verdict event was
// recorded; o the outcome and record where it was filed ("" if nowhere).
// A transcript that does not verify gets no page: WritePage returns a
// *TamperError, since the page would vouch for a chain that is broken.
func WritePage(v *vault.Vault, t *Transcript, o *debate.Outcome, record string) error {
	rep := t.Report
	if rep == nil {
		return fmt.Errorf("write the page of %s: the transcript was not verified", t.Session.ID)
	}
	if !rep.Intact {
		return &TamperError{ID: t.Session.ID, Line: rep.BadLine, Problem: rep.Problem}
	}
	if t.Verdict == nil {
		t.Verdict = &Verdict{Outcome: *o, Record: record, Transcript: fileOf(t.Session.ID, TranscriptFile), Events: rep.Events, Head: rep.Head}
	}
	s := t.Session
	var names []string
	for _, p := range s.Participants {
		names = append(names, p.Name)
	}
	fm := vault.Frontmatter{
		{Key: "type", Value: "debate"},
		{Key: "layer", Value: string(s.Layer)},
		{Key: "verdict", Value: string(o.Verdict)},
		{Key: "action", Value: string(o.Action)},
		{Key: "date", Value: vault.Date(dateOf(o.Closed))},
		{Key: "topic", Value: s.Topic},
		{Key: "participants", Value: names},
		{Key: "debate_id", Value: s.ID},
	}
	if record != "" {
		link := "[[" + RecordLink(record) + "]]"
		fm = append(fm, vault.Field{Key: "record", Value: link}, vault.Field{Key: "related", Value: []string{link}})
	}
	fm = append(fm,
		vault.Field{Key: PageHeadKey, Value: rep.Head},
		vault.Field{Key: PageEventsKey, Value: rep.Events},
	)
	if o.Filing != nil && o.Filing.SessionHash != "" {
		fm = append(fm, vault.Field{Key: PageSessionKey, Value: o.Filing.SessionHash})
	}
	fm = append(fm,
		vault.Field{Key: "created", Value: s.Created},
		vault.Field{Key: "tags", Value: []string{"debate", string(s.Layer)}},
	)
	view := NewView(t)
	err := v.WritePage(PagePath(s.ID), fm, renderMarkdown(view, pageFull))
	if errors.Is(err, vault.ErrTooLarge) {
		// A long debate: the page keeps every turn but not the arguments.
		err = v.WritePage(PagePath(s.ID), fm, renderMarkdown(view, pageNoArguments))
	}
	if errors.Is(err, vault.ErrTooLarge) {
		// Turns too long even so (long positions, a hundred long evidence
		// references each): the page keeps the session and the verdict, so
		// that the debate can still be filed.
		err = v.WritePage(PagePath(s.ID), fm, renderMarkdown(view, pageSummary))
	}
	if err != nil {
		return fmt.Errorf("write the transcript page of %s: %w", s.ID, err)
	}
	return nil
}

func dateOf(ts string) string {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.UTC().Format("2006-01-02")
	}
	return time.Now().UTC().Format("2006-01-02")
}

// PageStatus is how a debate's vault page compares with its transcript.
type PageStatus string

// The outcomes of CheckPage.
const (
	// PageMatches: the page records the head and event count the chain
	// verifies to.
	PageMatches PageStatus = "matches"
	// PageDiffers: the page records another head or count; the page or
	// the transcript was changed after filing.
	PageDiffers PageStatus = "differs"
	// PageMissing: no page (a debate still running, or not filed yet).
	PageMissing PageStatus = "missing"
	// PageNoHead: a page without the head keys (written by hand, or by a
	// parley before they were added); nothing to compare.
	PageNoHead PageStatus = "no_head"
	// PageUnreadable: the page exists but cannot be read or parsed.
	PageUnreadable PageStatus = "unreadable"
)

// PageCheck compares a debate's vault page with its transcript.
type PageCheck struct {
	Path   string     `json:"path"`
	Status PageStatus `json:"status"`
	// Head and Events are what the page records.
	Head    string `json:"head,omitempty"`
	Events  int    `json:"events,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// CheckPage reads debate id's vault page and compares the head and event
// count it records with the transcript's verification report: the vault
// is a second witness of the chain, so a transcript rewritten whole (a
// valid chain with a new verdict.json) still shows as changed when the
// page was written before. Only the frontmatter is trusted, never the
// body.
func CheckPage(v *vault.Vault, id string, rep *Report) *PageCheck {
	pc := &PageCheck{Path: PagePath(id)}
	page, err := v.ReadPage(pc.Path)
	if err != nil {
		pc.Status, pc.Problem = PageUnreadable, err.Error()
		if vault.IsNotExist(err) {
			pc.Status, pc.Problem = PageMissing, "no vault page at "+pc.Path
		}
		return pc
	}
	return checkMeta(pc, page.Meta, rep)
}

// CheckReadPage is CheckPage on debate id's vault page already read (by a
// caller that shows it too), so it is not read twice.
func CheckReadPage(page *vault.Page, id string, rep *Report) *PageCheck {
	return checkMeta(&PageCheck{Path: PagePath(id)}, page.Meta, rep)
}

// checkMeta compares the head and event count a page's frontmatter records
// with rep.
func checkMeta(pc *PageCheck, meta map[string]any, rep *Report) *PageCheck {
	head, _ := meta[PageHeadKey].(string)
	events, okEvents := intOf(meta[PageEventsKey])
	if head == "" || !okEvents {
		pc.Status, pc.Problem = PageNoHead, "the vault page records no transcript head"
		return pc
	}
	pc.Head, pc.Events = head, events
	if head == rep.Head && events == rep.Events && rep.Intact {
		pc.Status = PageMatches
		return pc
	}
	pc.Status = PageDiffers
	pc.Problem = fmt.Sprintf("the vault page %s records head %s at %d events; the transcript verifies to head %s at %d events",
		pc.Path, short(head), events, short(rep.Head), rep.Events)
	if !rep.Intact {
		pc.Problem += fmt.Sprintf(" and breaks at line %d", rep.BadLine)
	}
	return pc
}

func intOf(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case uint64:
		return int(x), true
	case float64:
		return int(x), x == float64(int(x))
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "(none)"
	}
	return h
}

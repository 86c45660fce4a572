package web

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// perPage is how many debates the index lists (and verifies) per page.
const perPage = 100

// maxQuery bounds a search or filter text.
const maxQuery = 500

type debateRow struct {
	S transcripts.Summary
	// Intact is true when nothing the debate produced was tampered with;
	// Summary and Problem say what was.
	Intact  bool
	Events  int
	Summary string
	Problem string
}

type indexData struct {
	F                  transcripts.Filter
	Filtered           bool
	Layers             []debate.Layer
	Verdicts           []debate.Verdict
	States             []transcripts.State
	Rows               []debateRow
	Total, Page, Pages int
	Prev, Next         string
	GateChart          template.HTML
}

var states = []transcripts.State{transcripts.StateRunning, transcripts.StateClosed, transcripts.StateInterrupted}

// handleIndex lists the debates, filtered by text, layer, verdict and
// state, each with its chain verified.
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := indexData{Layers: debate.Layers, Verdicts: debate.Verdicts, States: states}
	d.F.Text = clipQuery(q.Get("q"))
	var bad []string
	d.F.Layer = filterValue(q, "layer", debate.ParseLayer, debate.Layers, &bad)
	d.F.Verdict = filterValue(q, "verdict", debate.ParseVerdict, debate.Verdicts, &bad)
	d.F.State = filterValue(q, "state", parseState, states, &bad)
	if len(bad) > 0 {
		s.badFilter(w, r, "debates", "/", "All debates", bad)
		return
	}
	d.Filtered = d.F != (transcripts.Filter{})
	list, err := s.search.Find(r.Context(), d.F)
	if err != nil {
		s.fail(w, r, "list", err)
		return
	}
	d.Total = len(list)
	d.Pages = max(1, (len(list)+perPage-1)/perPage)
	d.Page, _ = strconv.Atoi(q.Get("page"))
	d.Page = min(max(d.Page, 1), d.Pages)
	from, to := (d.Page-1)*perPage, min(d.Page*perPage, len(list))
	for _, sum := range list[from:to] {
		row := debateRow{S: sum}
		t, err := s.debates.Audit(r.Context(), sum.DebateID, s.witnesses())
		if err != nil {
			row.Summary, row.Problem = "unreadable", err.Error()
		} else {
			in := transcripts.IntegrityOf(t)
			row.Intact, row.Events, row.Summary, row.Problem = !in.Tampered(), in.Events, in.Summary(), in.Trouble()
		}
		d.Rows = append(d.Rows, row)
	}
	pageLink := func(n int) string {
		v := url.Values{}
		for _, k := range []string{"q", "layer", "verdict", "state"} {
			if q.Get(k) != "" {
				v.Set(k, q.Get(k))
			}
		}
		v.Set("page", strconv.Itoa(n))
		return "/?" + v.Encode()
	}
	if d.Page > 1 {
		d.Prev = pageLink(d.Page - 1)
	}
	if d.Page < d.Pages {
		d.Next = pageLink(d.Page + 1)
	}
	d.GateChart = s.gateChart()
	s.render(w, r, http.StatusOK, "index", layoutData{Title: "Debates", Nav: "debates", Data: d})
}

// filterValue is the value of the filter key of a list page's query q,
// read by parse; "" when it is not given. One that names no value of its
// kind is "", and what is wrong with it, with the valid values to use, is
// added to bad.
func filterValue[T ~string](q url.Values, key string, parse func(string) (T, error), valid []T, bad *[]string) T {
	v := q.Get(key)
	if v == "" {
		return ""
	}
	x, err := parse(v)
	if err != nil {
		*bad = append(*bad, unknownValue(key, v, valid))
		return ""
	}
	return x
}

// parseState reads a debate's state as the index filters by it.
func parseState(v string) (transcripts.State, error) {
	if st := transcripts.State(v); slices.Contains(states, st) {
		return st, nil
	}
	return "", fmt.Errorf("unknown state %q", v)
}

// unknownValue says that the filter key of a list page names no value of
// its kind (v, clipped), and what to use.
func unknownValue[T ~string](key, v string, valid []T) string {
	if r := []rune(clipQuery(v)); len(r) > 40 {
		v = string(r[:40]) + "…"
	}
	names := make([]string, len(valid))
	for i, x := range valid {
		names[i] = string(x)
	}
	return fmt.Sprintf("%s: unknown %s %q (use %s)", key, key, v, strings.Join(names, ", "))
}

// clipQuery is a search or filter text as the pages use and show it:
// trimmed, invalid UTF-8 replaced (a page is UTF-8), at most maxQuery
// runes.
func clipQuery(s string) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	if r := []rune(s); len(r) > maxQuery {
		s = string(r[:maxQuery])
	}
	return s
}

// view reads, verifies and lays out a debate; for a closed debate the
// vault page is checked against the chain too. Nothing is cached.
func (s *Server) view(id string) (*transcripts.View, error) {
	t, err := s.debates.Audit(context.Background(), id, s.witnesses())
	if err != nil {
		return nil, err
	}
	return transcripts.NewView(t), nil
}

// witnesses are what a debate's seal is checked against.
func (s *Server) witnesses() transcripts.Witnesses {
	return transcripts.Witnesses{Vault: s.vault, Records: s.cs, PublicKey: s.pub}
}

// htmlOptions of debate id links evidence to the vault pages it names, to
// web addresses, and to the cited lines of files under the debate's
// workspace (handleEvidence); it draws the debate's charts.
func (s *Server) htmlOptions(id string) transcripts.HTMLOptions {
	return transcripts.HTMLOptions{
		EvidenceURL: func(e debate.EvidenceCheck) string {
			if e.Kind == "wiki" {
				if p, err := s.vault.Resolve(e.Ref); err == nil {
					return s.linkURL(p)
				}
				return ""
			}
			if fileEvidence(e) {
				return evidenceURL(id, e)
			}
			return transcripts.WebURL(e)
		},
		Charts: debateCharts,
		RecordURL: func(record string) string {
			if !strings.HasPrefix(record, consensus.Folder+"/") {
				return ""
			}
			// A record renamed or removed since is named, not linked to a
			// 404 (the integrity banner says it is missing).
			if fi, err := s.vroot.Lstat(record); err != nil || !fi.Mode().IsRegular() {
				return ""
			}
			return s.linkURL(record)
		},
	}
}

// linkURL is the address a link to the vault page p opens: pageURL's,
// except that the vault page of a debate that is not under this root (a
// vault synced without its root, a debate removed) opens as a vault page
// rather than as the debate, which is not there.
func (s *Server) linkURL(p string) string {
	u := pageURL(p)
	if id, ok := strings.CutPrefix(u, "/debates/"); ok && !s.hasDebate(id) {
		return "/wiki/debates/" + url.PathEscape(id)
	}
	return u
}

// headingURL is where a wikilink to heading of page p leads: the page
// (this one when p is ""), at the heading when there is one. A block
// reference (#^id) leads to the page: blocks have no ids here.
func (s *Server) headingURL(p, heading string) string {
	frag := ""
	if heading != "" && !strings.HasPrefix(heading, "^") {
		frag = "#" + vault.HeadingID(heading)
	}
	if p == "" {
		return cmp.Or(frag, "#")
	}
	return s.linkURL(p) + frag
}

// debateURL is where debate id is read: its page when it is under this
// root, else its vault page when the vault has one, else "".
func (s *Server) debateURL(id string) string {
	if debate.ValidateID(id) != nil {
		return ""
	}
	if s.hasDebate(id) {
		return "/debates/" + id
	}
	if fi, err := s.vroot.Lstat(transcripts.PagePath(id)); err == nil && fi.Mode().IsRegular() {
		return "/wiki/debates/" + id
	}
	return ""
}

// hasDebate reports whether debate id has a folder under this root.
func (s *Server) hasDebate(id string) bool {
	fi, err := os.Lstat(filepath.Join(s.debates.Dir(), transcripts.Dir, id))
	return err == nil && fi.IsDir()
}

func isNotFound(err error) bool {
	return errors.Is(err, transcripts.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, debate.ErrInvalidID)
}

type debateData struct {
	View    *transcripts.View
	Live    bool
	PageURL string
	// ShowCmd and VerifyCmd are the commands that show and verify the
	// debate, naming the root and vault served, to paste anywhere.
	ShowCmd, VerifyCmd string
	// ResumeCmd, for an interrupted debate that resume takes, is the
	// command that continues it (or, its verdict recorded, finishes
	// closing it); ResumeRefused says resume refuses it (its files do not
	// verify: VerifyCmd names what differs).
	ResumeCmd     string
	ResumeRefused bool
}

// handleDebate shows one debate as a thread, its integrity badge computed
// from the chain now. A running debate's page updates live.
func (s *Server) handleDebate(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if debate.ValidateID(id) != nil {
		s.redirectPrefix(w, r, id)
		return
	}
	v, err := s.view(id)
	if isNotFound(err) {
		s.redirectPrefix(w, r, id)
		return
	}
	if err != nil {
		s.fail(w, r, "debate", err)
		return
	}
	d := s.debateData(id, v)
	opts := s.htmlOptions(id)
	l := layoutData{Title: v.Topic, Nav: "debates", MainClass: "narrow", Data: d,
		raw: func(w io.Writer) error { return transcripts.RenderHTMLBody(w, v, opts) }}
	if d.Live {
		l.Script, l.Refresh = true, 5
	}
	s.render(w, r, http.StatusOK, "debate", l)
}

// debateData is what a debate's page shows around its thread.
func (s *Server) debateData(id string, v *transcripts.View) debateData {
	d := debateData{View: v, Live: v.State == transcripts.StateRunning,
		ShowCmd: s.command("transcripts", "show", id), VerifyCmd: s.command("transcripts", "verify", id)}
	switch {
	case v.State != transcripts.StateInterrupted:
	case v.Integrity.RefusesResume():
		d.ResumeRefused = true
	default:
		d.ResumeCmd = s.command("debate", "resume", id)
	}
	for _, f := range v.Integrity.Files {
		if f.File == transcripts.PagePath(id) && f.Status != transcripts.FileMissing {
			d.PageURL = "/wiki/" + strings.TrimSuffix(strings.TrimPrefix(f.File, "wiki/"), ".md")
		}
	}
	return d
}

// command is the parley command line that runs args on the root and vault
// this server shows, whatever directory it is pasted in: --root always,
// --vault when the vault is not the root's own.
func (s *Server) command(args ...string) string {
	root, _ := filepath.Abs(s.debates.Dir())
	vdir, _ := filepath.Abs(s.vault.Path())
	words := []string{"parley", "--root", root}
	if filepath.Clean(vdir) != filepath.Join(root, "vault") {
		words = append(words, "--vault", vdir)
	}
	return suggest.CommandLine(append(words, args...)...)
}

type recordsData struct {
	F        consensus.Filter
	Filtered bool
	Layers   []debate.Layer
	Verdicts []debate.Verdict
	Records  []consensus.Record
	// Skipped are the files of the records folder that are not valid
	// records: lookups skip them, and the page names them.
	Skipped []consensus.Skipped
}

func (s *Server) handleRecords(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := recordsData{Layers: debate.Layers, Verdicts: debate.Verdicts}
	var bad []string
	d.F.Layer = filterValue(q, "layer", debate.ParseLayer, debate.Layers, &bad)
	d.F.Verdict = filterValue(q, "verdict", debate.ParseVerdict, debate.Verdicts, &bad)
	d.F.Status = filterValue(q, "status", consensus.ParseStatus, []consensus.Status{consensus.StatusActive, consensus.StatusSuperseded}, &bad)
	if len(bad) > 0 {
		s.badFilter(w, r, "consensus", "/consensus", "All records", bad)
		return
	}
	d.Filtered = d.F != (consensus.Filter{})
	recs, err := s.cs.Records(r.Context(), d.F)
	if err != nil {
		s.fail(w, r, "records", err)
		return
	}
	d.Records, d.Skipped = recs, s.cs.Skipped()
	s.render(w, r, http.StatusOK, "records", layoutData{Title: "Consensus records", Nav: "consensus", Data: d})
}

type recordData struct {
	R *consensus.Record
	// DebateURL is where the record's debate is read: its page, or its
	// vault page when the debate is not under this root; "" for neither.
	DebateURL string
	Chain     []consensus.Record
	HTML      template.HTML
	// Check is the audit of the record against its debate's seal, nil
	// when it names no debate of this root.
	Check *pageCheck
}

// handleRecord shows a consensus record: its facts, the supersession chain
// of its question, and its page rendered with wikilinks as links.
func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	// Any file name the vault holds may name a record (a person may file
	// "Rate limits.md" by hand); the consensus store refuses the others.
	if !plainSegment(name) || strings.HasSuffix(name, ".") {
		s.notFound(w, r)
		return
	}
	rec, page, err := s.cs.Record(r.Context(), name)
	if errors.Is(err, consensus.ErrNotRecord) {
		s.notRecord(w, r, name, err)
		return
	}
	if errors.Is(err, consensus.ErrNoRecord) || isNotFound(err) || errors.Is(err, vault.ErrNotPage) || errors.Is(err, vault.ErrInvalidPath) {
		s.resolveRecord(w, r, name)
		return
	}
	if errors.Is(err, vault.ErrTooLarge) {
		s.tooLarge(w, r, consensus.Folder+"/"+name+".md", err)
		return
	}
	if err != nil {
		s.fail(w, r, "record", err)
		return
	}
	d := recordData{R: rec}
	if rec.DebateID != "" {
		d.DebateURL = s.debateURL(rec.DebateID)
		d.Check = s.fileCheck(r.Context(), rec.DebateID, rec.Path, "record")
	}
	all, err := s.cs.Records(r.Context(), consensus.Filter{Layer: rec.Layer})
	if err != nil {
		s.fail(w, r, "record", err)
		return
	}
	for _, o := range all {
		if o.Slug == rec.Slug {
			d.Chain = append(d.Chain, o)
		}
	}
	slices.SortFunc(d.Chain, func(a, b consensus.Record) int { return strings.Compare(a.Created, b.Created) })
	if d.HTML, err = s.markdown(page.Body); err != nil {
		s.fail(w, r, "record", err)
		return
	}
	s.render(w, r, http.StatusOK, "record", layoutData{Title: rec.Topic, Nav: "consensus", MainClass: "narrow", Data: d})
}

// resolveRecord answers for a record name that names no file: as the
// command line reads a record name (app.ResolveRecord), a name that
// differs only in case, a unique prefix of a name or of a debate id is
// sent to its record; a prefix of several says so, naming them; anything
// else is not found.
func (s *Server) resolveRecord(w http.ResponseWriter, r *http.Request, name string) {
	resolved, err := app.ResolveRecord(r.Context(), s.cs, name)
	if ae := (*app.Error)(nil); errors.As(err, &ae) && ae.Problem == app.ProblemAmbiguous {
		s.render(w, r, http.StatusNotFound, "error", layoutData{Title: "More than one record", Nav: "consensus", Data: errorData{
			Title: "More than one record", Message: ae.Error() + ".", Link: "/consensus", LinkText: "The consensus records"}})
		return
	}
	if err != nil || resolved == name || resolved == "" {
		s.notFound(w, r)
		return
	}
	http.Redirect(w, r, "/consensus/"+url.PathEscape(resolved), http.StatusFound)
}

// notRecord answers 404 for a file of the records folder that is not a
// valid consensus record (err, consensus.ErrNotRecord, says why): the page
// says so, as lookup skips it, and links to the file as a vault page.
func (s *Server) notRecord(w http.ResponseWriter, r *http.Request, name string, err error) {
	p := consensus.Folder + "/" + strings.TrimSuffix(name, ".md") + ".md"
	why := err.Error()
	if re := (*consensus.RecordError)(nil); errors.As(err, &re) {
		p, why = re.Path, re.Err.Error()
	}
	s.render(w, r, http.StatusNotFound, "error", layoutData{Title: "Not a valid record", Data: errorData{
		Title:    "Not a valid consensus record",
		Message:  fmt.Sprintf("%s is in the records folder but is not a record parley can read (%s), so lookups and checks skip it. Fix its frontmatter in Obsidian or an editor.", p, why),
		Link:     vaultURL(p),
		LinkText: "Its text, as a vault page",
	}})
}

// maxRenderBytes is the largest page body rendered as Markdown. goldmark
// takes time superlinear in some hostile inputs (hundreds of KiB of "[a]("
// or of nested list markers take minutes), and a vault page can hold an
// agent's argument; a larger body is shown as plain text instead, which
// costs linear time.
const maxRenderBytes = 64 << 10

// markdown renders a page body: goldmark, no raw HTML, wikilinks resolved
// against the vault; a body over maxRenderBytes as escaped plain text.
func (s *Server) markdown(body []byte) (template.HTML, error) {
	var buf bytes.Buffer
	if len(body) > maxRenderBytes {
		fmt.Fprintf(&buf, "<p class=\"note\">This page is larger than %d KiB, so it is shown as plain text.</p>\n<pre class=\"plain\">", maxRenderBytes>>10)
		template.HTMLEscape(&buf, body)
		buf.WriteString("</pre>\n")
		return template.HTML(buf.String()), nil
	}
	if err := vault.Render(&buf, body, s.vault.Resolver(s.headingURL)); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil // goldmark escapes text and drops raw HTML
}

type prop struct {
	Key   string
	Value template.HTML
}

// pageCheck is what the audit of a debate says of one of its vault files
// (its vault page, its consensus record), for the badge and banner above
// the file's page.
type pageCheck struct {
	ID, Class, Summary, Detail string
	Bad                        bool
	// Banner heads the alert of a bad check: what is wrong, and where.
	Banner string
}

type pageData struct {
	Path   string
	Props  []prop
	HTML   template.HTML
	Debate *pageCheck
}

func (s *Server) handleWiki(w http.ResponseWriter, r *http.Request) {
	s.servePage(w, r, "wiki/"+r.PathValue("path"))
}

func (s *Server) handleVault(w http.ResponseWriter, r *http.Request) {
	s.servePage(w, r, r.PathValue("path"))
}

// servePage renders the vault page at p ("wiki/x" or "wiki/x.md"). Only
// Markdown pages are served, read strictly (see readPage). A debate's page
// is compared with the debate's chain.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, p string) {
	if p == "" || p == "wiki/" {
		s.notFound(w, r)
		return
	}
	if strings.HasSuffix(p, "/") { // a page's address with a slash added
		s.redirectTrimmed(w, r)
		return
	}
	if !strings.HasSuffix(p, ".md") {
		p += ".md"
	}
	data, err := readPage(s.vroot, p)
	if errors.Is(err, fs.ErrNotExist) && p == consensus.Folder+"/"+consensus.IndexName {
		// Every page's Vault link leads here, before any record is filed too.
		data, err = []byte("No consensus record yet: the first debate filed writes this index.\n"), nil
	}
	if errors.Is(err, vault.ErrTooLarge) {
		s.tooLarge(w, r, p, err)
		return
	}
	if err != nil {
		s.log.Debug("vault page refused", "path", p, "err", err)
		s.notFound(w, r)
		return
	}
	d := pageData{Path: p}
	body := data
	page, perr := vault.ParsePage(p, data)
	if perr == nil {
		body = page.Body
		d.Props = s.props(page.Meta)
	}
	if d.HTML, err = s.markdown(body); err != nil {
		s.fail(w, r, "page", err)
		return
	}
	switch dir, file := path.Split(p); {
	case dir == "wiki/debates/":
		d.Debate = s.fileCheck(r.Context(), strings.TrimSuffix(file, ".md"), p, "vault page")
	case dir == consensus.Folder+"/" && page != nil:
		if id, ok := page.Meta["debate_id"].(string); ok {
			d.Debate = s.fileCheck(r.Context(), id, p, "record")
		}
	}
	title := strings.TrimSuffix(path.Base(p), ".md")
	s.render(w, r, http.StatusOK, "page", layoutData{Title: title, Nav: "vault", MainClass: "narrow", Data: d})
}

// fileCheck audits debate id now and says what the audit found of its
// file p, which a page calls what ("vault page", "record"); nil when the
// debate cannot be read (an id that names no debate of this root).
func (s *Server) fileCheck(ctx context.Context, id, p, what string) *pageCheck {
	if debate.ValidateID(id) != nil {
		return nil
	}
	t, err := s.debates.Audit(ctx, id, s.witnesses())
	if err != nil {
		return nil
	}
	return pageCheckOf(id, p, what, transcripts.IntegrityOf(t))
}

func pageCheckOf(id, p, what string, in transcripts.Integrity) *pageCheck {
	c := &pageCheck{ID: id, Class: "ok"}
	var mine *transcripts.FileCheck
	for i := range in.Files {
		if in.Files[i].File == p {
			mine = &in.Files[i]
		}
	}
	bad := func(summary, detail, banner string) {
		c.Bad, c.Class, c.Summary, c.Detail, c.Banner = true, "bad", summary, detail, banner
	}
	switch {
	case !in.Intact:
		bad("transcript tampered", in.Trouble(), "This "+what+" does not match its transcript.")
	case mine != nil && mine.Status.Bad():
		bad(path.Base(mine.File)+" "+string(mine.Status), fmt.Sprintf("%s %s: %s", mine.File, mine.Status, mine.Problem),
			"This "+what+" does not match its transcript.")
	case in.Tampered():
		bad(in.Summary(), in.Trouble(), "A file of this "+what+"'s debate does not match its transcript.")
	case mine != nil && mine.Status == transcripts.FileIntact:
		c.Summary = what + " matches the transcript"
		c.Detail = fmt.Sprintf("head %s at %d events, as the chain verifies", in.Head, in.Events)
	default:
		c.Class, c.Summary = "pending", what+" not checked"
		if mine != nil {
			c.Detail = mine.Problem
		}
	}
	return c
}

// propOrder is the order frontmatter keys are shown in; others follow,
// sorted.
var propOrder = []string{"type", "layer", "verdict", "action", "status", "date", "topic", "participants", "debate_id", "record", "related",
	"supersedes", "superseded_by", "final_position", transcripts.PageHeadKey, transcripts.PageEventsKey, "created", "updated", "tags"}

// props lays out a page's frontmatter; wikilinks in it become links.
func (s *Server) props(meta map[string]any) []prop {
	var keys []string
	for _, k := range propOrder {
		if _, ok := meta[k]; ok {
			keys = append(keys, k)
		}
	}
	var rest []string
	for k := range meta {
		if !slices.Contains(propOrder, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	var out []prop
	for _, k := range append(keys, rest...) {
		out = append(out, prop{Key: k, Value: s.propValue(meta[k])})
	}
	return out
}

func (s *Server) propValue(v any) template.HTML {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		t := strings.TrimSpace(x)
		if strings.HasPrefix(t, "[[") && strings.HasSuffix(t, "]]") {
			if l, err := vault.ParseLink(t); err == nil {
				if p, err := s.vault.Resolve(l.Target); err == nil {
					return template.HTML(`<a class="wikilink" href="` + template.HTMLEscapeString(s.linkURL(p)) + `">` + template.HTMLEscapeString(l.Text()) + `</a>`)
				}
				return template.HTML(`<span class="wikilink broken">` + template.HTMLEscapeString(l.Text()) + `</span>`)
			}
		}
		return template.HTML(template.HTMLEscapeString(x))
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, string(s.propValue(e)))
		}
		return template.HTML(strings.Join(parts, ", "))
	case map[string]any:
		// A nested property, as Obsidian shows it: "key: value" pairs,
		// by key, rather than Go's map[key:value].
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, template.HTMLEscapeString(k)+": "+string(s.propValue(x[k])))
		}
		return template.HTML("{" + strings.Join(parts, "; ") + "}")
	}
	return template.HTML(template.HTMLEscapeString(fmt.Sprint(v)))
}

type searchData struct {
	Q       string
	Hits    []consensus.Hit
	Debates []transcripts.SearchHit
	// MoreHits: more records match than the best maxRecordHits shown.
	// MoreDebates: the search of the debates stopped at its limits.
	MoreHits, MoreDebates bool
}

// maxRecordHits is how many records a search shows, the best first.
const maxRecordHits = 20

// handleSearch searches the consensus records (BM25 over topic, positions
// and rationale) and the debates (topic, every turn's position, counter
// and text, the verdict's reason and final position).
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	d := searchData{Q: clipQuery(r.URL.Query().Get("q"))}
	if d.Q != "" {
		hits, err := s.cs.Search(r.Context(), d.Q, consensus.Filter{}, maxRecordHits+1)
		if err != nil {
			s.fail(w, r, "search", err)
			return
		}
		d.Hits, d.MoreHits = hits[:min(len(hits), maxRecordHits)], len(hits) > maxRecordHits
		d.Debates, d.MoreDebates, err = s.search.Search(r.Context(), d.Q)
		if err != nil {
			s.fail(w, r, "search", err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "search", layoutData{Title: "Search", Nav: "search", Query: d.Q, Data: d})
}

// redirectPrefix sends /debates/PREFIX to the one other debate whose id
// starts with PREFIX, as the command line accepts a unique prefix; anything
// else is not found.
func (s *Server) redirectPrefix(w http.ResponseWriter, r *http.Request, prefix string) {
	if !debateIDPrefixRE().MatchString(prefix) {
		s.notFound(w, r)
		return
	}
	ids, err := app.DebateIDsIn(filepath.Join(s.debates.Dir(), transcripts.Dir))
	if err != nil {
		s.notFound(w, r)
		return
	}
	// The debate named by prefix itself could not be read: sending the
	// browser back to it would loop.
	ids = slices.DeleteFunc(ids, func(id string) bool { return id == prefix })
	match, err := app.MatchDebate(prefix, ids, s.debates.Dir())
	if ae := (*app.Error)(nil); errors.As(err, &ae) && ae.Problem == app.ProblemAmbiguous {
		// Say so, as the command line does, and list them.
		s.render(w, r, http.StatusNotFound, "error", layoutData{Title: "More than one debate", Nav: "debates", Data: errorData{
			Title:    "More than one debate",
			Message:  ae.Error() + ".",
			Link:     "/?q=" + url.QueryEscape(prefix),
			LinkText: "The debates it starts",
		}})
		return
	}
	if err != nil {
		s.notFound(w, r)
		return
	}
	http.Redirect(w, r, "/debates/"+match, http.StatusFound)
}

// debateIDPrefixRE is what may start a debate id.
var debateIDPrefixRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{3,}$`) })

package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/vault"
)

// A file of the records folder whose frontmatter does not parse is not a
// server failure: its record page is a 404 that says why lookup skips it
// and links to its text.
func TestBrokenRecordSaysWhy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	broken := "---\ntype: consensus\nlayer: spec\ntopic: [unclosed\n---\nbody\n"
	if err := os.WriteFile(filepath.Join(f.vaultDir, "wiki", "consensus", "broken front.md"), []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	res, body := get(t, f.srv, "/consensus/broken%20front")
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("status %d, want 404", res.StatusCode)
	}
	for _, want := range []string{"Not a valid consensus record", "wiki/consensus/broken front.md is in the records folder", "invalid frontmatter",
		`href="/vault/wiki/consensus/broken%20front"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q\n%s", want, body)
		}
	}
	if res, page := get(t, f.srv, "/vault/wiki/consensus/broken%20front"); res.StatusCode != http.StatusOK || !strings.Contains(page, "unclosed") {
		t.Errorf("the link to its text: %d", res.StatusCode)
	}
}

// The list of records names the files of the records folder that are not
// valid records, rather than leaving them out without a word (the command
// line warns about each).
func TestRecordsListNamesSkippedFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	broken := "---\ntype: consensus\nlayer: spec\ntopic: [unclosed\n---\nbody\n"
	if err := os.WriteFile(filepath.Join(f.vaultDir, "wiki", "consensus", "broken front.md"), []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	res, body := get(t, f.srv, "/consensus")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, want := range []string{`href="/consensus/spec-idempotency-keys"`, "1 file of the records folder is not a valid record",
		`<a href="/vault/wiki/consensus/broken%20front"><code>wiki/consensus/broken front.md</code></a>: `, "invalid frontmatter"} {
		if !strings.Contains(body, want) {
			t.Errorf("the list lacks %q\n%s", want, body)
		}
	}
	if err := os.Remove(filepath.Join(f.vaultDir, "wiki", "consensus", "broken front.md")); err != nil {
		t.Fatal(err)
	}
	if _, body := get(t, f.srv, "/consensus"); strings.Contains(body, "not a valid record") {
		t.Error("the list still names a file that is gone")
	}
}

// A tampered debate's page says so before it answers: the banner comes
// above the verdict, and the verdict (past the first bad line, so not
// verified) is marked unverified; an intact debate's answer is not.
func TestTamperedDebateWarnsBeforeItAnswers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	_, body := get(t, f.srv, "/debates/"+id)
	if strings.Contains(body, "unverified-mark") || strings.Contains(body, "banner tampered") {
		t.Fatalf("the intact debate's page is marked unverified or tampered")
	}
	line := f.lineOf(id, "Keys leak the creation time")
	f.tamperFile(id, "Keys leak the creation time", "Keys leak nothing at all")
	_, body = get(t, f.srv, "/debates/"+id)
	banner, answer := strings.Index(body, `<div class="banner tampered" role="alert">`), strings.Index(body, `id="answer"`)
	if banner < 0 || answer < 0 || banner > answer {
		t.Errorf("the tamper banner (at %d) does not come before the answer (at %d)", banner, answer)
	}
	for _, want := range []string{`class="answer verdict-CONSENSUS_REACHED unverified" id="answer"`,
		fmt.Sprintf(`<span class="unverified-mark">unverified: the transcript breaks at line %d</span>`, line),
		`class="verdict verdict-CONSENSUS_REACHED unverified" id="verdict"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the tampered debate's page lacks %q", want)
		}
	}
}

// A consensus record edited after filing is flagged on its record page
// and on its vault page, as the debate's own vault page is; an intact one
// says it matches.
func TestEditedRecordIsFlaggedOnItsPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	const rec = "/consensus/spec-idempotency-keys"
	_, body := get(t, f.srv, rec)
	if !strings.Contains(body, "✓ record matches the transcript") || strings.Contains(body, "banner tampered") {
		t.Errorf("the intact record's page:\n%s", body)
	}
	p := filepath.Join(f.vaultDir, "wiki", "consensus", "spec-idempotency-keys.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `action: "proceed"`) {
		t.Fatalf("the record says no action proceed:\n%s", data)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), `action: "proceed"`, `action: "hold"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{rec, "/vault/wiki/consensus/spec-idempotency-keys"} {
		_, body := get(t, f.srv, page)
		for _, want := range []string{`<div class="banner tampered" role="alert"><strong>This record does not match its transcript.</strong> wiki/consensus/spec-idempotency-keys.md differs: `,
			"✗ spec-idempotency-keys.md differs", `href="/debates/` + id + `">the verified transcript</a>`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q", page, want)
			}
		}
	}
	// The debate's vault page is intact: the banner there names the
	// record, not the page.
	_, body = get(t, f.srv, "/wiki/debates/"+id)
	if !strings.Contains(body, "<strong>A file of this vault page&#39;s debate does not match its transcript.</strong> wiki/consensus/spec-idempotency-keys.md differs") {
		t.Errorf("the debate's vault page does not name the edited record:\n%s", body)
	}
}

// The commands a debate's page offers name the root and vault it shows:
// pasted in any directory, they show that debate, not "no parley root".
func TestDebatePageCommandsNameTheRoot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	_, body := get(t, f.srv, "/debates/"+id)
	for _, verb := range []string{"show", "verify"} {
		want := "<code>parley --root " + f.root + " --vault " + f.vaultDir + " transcripts " + verb + " " + id + "</code>"
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// A vault that is the root's own is not named again.
func TestCommandLeavesOutTheRootsOwnVault(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := &Server{debates: f.debates, vault: f.vault}
	if got, want := s.command("transcripts", "verify", "x"), "parley --root "+f.root+" --vault "+f.vaultDir+" transcripts verify x"; got != want {
		t.Errorf("another vault: %q, want %q", got, want)
	}
	v, err := vault.Create(filepath.Join(f.root, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	s.vault = v
	if got, want := s.command("transcripts", "verify", "x"), "parley --root "+f.root+" transcripts verify x"; got != want {
		t.Errorf("the root's vault: %q, want %q", got, want)
	}
}

// An address typed with a slash at the end leads to its page, and the
// vault's folders (/wiki, /vault) to the vault's index, rather than to
// "There is no page at this address".
func TestTrailingSlashesLeadToThePage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	for from, to := range map[string]string{
		"/consensus/":                       "/consensus",
		"/consensus/?layer=spec":            "/consensus?layer=spec",
		"/search/?q=keys":                   "/search?q=keys",
		"/debates/":                         "/",
		"/debates/" + id + "/":              "/debates/" + id,
		"/consensus/spec-idempotency-keys/": "/consensus/spec-idempotency-keys",
		"/wiki/debates/" + id + "/":         "/wiki/debates/" + id,
		"/wiki/":                            vaultIndex,
		"/vault/":                           vaultIndex,
	} {
		res, _ := get(t, f.srv, from)
		if loc := res.Header.Get("Location"); res.StatusCode/100 != 3 || loc != to {
			t.Errorf("%s: %d to %q, want a redirect to %s", from, res.StatusCode, loc, to)
			continue
		}
		if res, _ := get(t, f.srv, to); res.StatusCode != http.StatusOK {
			t.Errorf("%s leads to %s, which is %d", from, to, res.StatusCode)
		}
	}
	for _, p := range []string{"/nothing/", "/static/", "/consensus//", "/wiki/no-such-page/"} {
		res, _ := get(t, f.srv, p)
		if p == "/wiki/no-such-page/" {
			if res.StatusCode/100 == 3 {
				res, _ = get(t, f.srv, res.Header.Get("Location"))
			}
		}
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}

// A page or record named with a '%' (Obsidian allows "100% uptime") is
// served, and the links to it open it; an escape left after decoding is
// still refused as double encoding.
func TestPercentInANameIsServed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	wiki := filepath.Join(f.vaultDir, "wiki")
	rec, err := os.ReadFile(filepath.Join(wiki, "consensus", "spec-idempotency-keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"100% uptime.md":        "# Uptime\n",
		"hub.md":                "See [[100% uptime]] and [[50% done]].\n",
		"consensus/50% done.md": string(rec),
		"a%41b.md":              "# not reachable\n",
	} {
		if err := os.WriteFile(filepath.Join(wiki, filepath.FromSlash(name)), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, hub := get(t, f.srv, "/wiki/hub")
	for _, href := range []string{"/wiki/100%25%20uptime", "/consensus/50%25%20done"} {
		if !strings.Contains(hub, `href="`+href+`"`) {
			t.Errorf("the hub does not link %s\n%s", href, hub)
			continue
		}
		if res, _ := get(t, f.srv, href); res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want 200", href, res.StatusCode)
		}
	}
	if _, list := get(t, f.srv, "/consensus"); !strings.Contains(list, `href="/consensus/50%25%20done"`) {
		t.Error("the consensus list does not link the record 50% done")
	}
	for _, p := range []string{"/wiki/a%2541b", "/wiki/%252e%252e/x", "/wiki/50%25", "/wiki/x%25"} {
		if res, _ := get(t, f.srv, p); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}

// A debate whose record was removed since names the record rather than
// linking it to a 404; one whose record was renamed links it where it is.
func TestMissingRecordIsNamedNotLinked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	const link = `href="/consensus/spec-idempotency-keys"`
	if _, body := get(t, f.srv, "/debates/"+id); !strings.Contains(body, link) {
		t.Fatalf("the debate page does not link its record")
	}
	p := filepath.Join(f.vaultDir, "wiki", "consensus", "spec-idempotency-keys.md")
	renamed := filepath.Join(filepath.Dir(p), "renamed.md")
	if err := os.Rename(p, renamed); err != nil {
		t.Fatal(err)
	}
	if _, body := get(t, f.srv, "/debates/"+id); !strings.Contains(body, `href="/consensus/renamed"`) || strings.Contains(body, link) {
		t.Errorf("the debate page does not link its renamed record where it is")
	}
	if err := os.Remove(renamed); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, "/debates/"+id)
	if strings.Contains(body, link) {
		t.Error("the debate page links the record that is gone")
	}
	for _, want := range []string{"<dt>Consensus record</dt><dd><code>wiki/consensus/spec-idempotency-keys.md</code></dd>", "wiki/consensus/spec-idempotency-keys.md missing"} {
		if !strings.Contains(body, want) {
			t.Errorf("the debate page lacks %q", want)
		}
	}
}

// A vault whose root lacks a debate (synced without it, or the debate
// removed): the links to the debate open its vault page, not a 404.
func TestLinksToADebateNotUnderTheRoot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	const rec = "/consensus/spec-idempotency-keys"
	if _, body := get(t, f.srv, rec); !strings.Contains(body, `href="/debates/`+id+`"`) {
		t.Fatalf("the record does not link its debate")
	}
	if err := os.RemoveAll(filepath.Join(f.root, "debates", id)); err != nil {
		t.Fatal(err)
	}
	// The record's facts and its body's wikilink to the debate.
	_, body := get(t, f.srv, rec)
	if strings.Contains(body, `href="/debates/`+id) {
		t.Errorf("the record links the debate that is not under the root")
	}
	if n := strings.Count(body, `href="/wiki/debates/`+id+`"`); n < 2 {
		t.Errorf("the record links the debate's vault page %d times, want its facts and its body", n)
	}
	if res, _ := get(t, f.srv, "/wiki/debates/"+id); res.StatusCode != http.StatusOK {
		t.Errorf("the debate's vault page: %d", res.StatusCode)
	}
	if err := os.Remove(filepath.Join(f.vaultDir, "wiki", "debates", id+".md")); err != nil {
		t.Fatal(err)
	}
	if _, body := get(t, f.srv, rec); !strings.Contains(body, "<code>"+id+"</code> (not under this root)") || strings.Contains(body, `href="/wiki/debates/`+id+`"`) {
		t.Errorf("with neither the debate nor its page, the record still links one:\n%s", body)
	}
}

// The gate chart's caption counts in words that agree with the number
// ("1 question") and says how many lines of gate.jsonl it could not read,
// as parley gate stats warns, rather than leaving them out unsaid.
func TestGateChartCaptionCountsAndNamesBadLines(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r, err := os.OpenRoot(f.root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e := gating.LogEntry{Time: "2026-11-28T10:00:00.000Z", Decision: gating.Decision{Outcome: gating.Debate, Mode: gating.ModeModel, Layer: debate.LayerSpec}}
	if err := gating.AppendLog(r, e); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, "/")
	if !strings.Contains(body, "The gate&#39;s record: 1 question, 1 sent to a debate, 0 skipped; about 0 tokens saved") {
		t.Errorf("the caption of one question:\n%s", body)
	}
	if strings.Contains(body, "could not be read") {
		t.Error("the caption names bad lines in a log that has none")
	}
	lf, err := r.OpenFile(gating.LogName, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lf.WriteString("not json\n{\"time\":\n"); err != nil {
		t.Fatal(err)
	}
	lf.Close()
	_, body = get(t, f.srv, "/")
	if !strings.Contains(body, "2 lines of gate.jsonl could not be read and are left out.") {
		t.Errorf("the caption does not name the 2 bad lines:\n%s", body)
	}
}

// Search finds words in a tampered transcript's unverified lines as the
// debate's page shows them: marked unverified, not as what was said.
func TestSearchMarksUnverifiedHits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	const mark = `<span class="unverified-mark">unverified: the transcript is tampered</span>`
	_, body := get(t, f.srv, "/search?q=creation+time")
	if !strings.Contains(body, `href="/debates/`+id+`#line-`) || strings.Contains(body, mark) {
		t.Fatalf("the intact debate's hit:\n%s", body)
	}
	f.tamperFile(id, "Keys leak the creation time", "Keys leak nothing at all")
	_, body = get(t, f.srv, "/search?q=nothing+at+all")
	if !strings.Contains(body, `href="/debates/`+id+`#line-`) || !strings.Contains(body, "Keys leak nothing at all</span> "+mark) {
		t.Errorf("the tampered line's hit is not marked unverified:\n%s", body)
	}
}

// An id prefix that starts more than one debate says so and names them,
// as the command line does, rather than "There is no page at this
// address"; its link lists them.
func TestAmbiguousDebatePrefixNamesTheDebates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.run(debate.LayerSpec, "Alpha question", "A", conceding...)
	b := f.run(debate.LayerSpec, "Beta question", "B", conceding...)
	common := b[:strings.Index(b, "beta")] // "<date>-spec-"
	if !strings.HasPrefix(a, common) {
		t.Skip("the two debates were made on two dates")
	}
	res, body := get(t, f.srv, "/debates/"+common)
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("status %d, want 404", res.StatusCode)
	}
	for _, want := range []string{fmt.Sprintf("&#34;%s&#34; is the start of 2 debates: ", common), a, b, "give more of it", `href="/?q=` + common + `"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q\n%s", want, body)
		}
	}
	if _, list := get(t, f.srv, "/?q="+common); !strings.Contains(list, `href="/debates/`+a+`"`) || !strings.Contains(list, `href="/debates/`+b+`"`) {
		t.Errorf("the link does not list both debates")
	}
}

// A nested frontmatter property is shown as its keys and values, escaped,
// not as Go's map[key:value].
func TestNestedPropertiesAreShownAsKeysAndValues(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := "---\nnested: {b: [x, y], a: \"<i>1</i>\", c: {d: \"[[nowhere]]\"}}\nlist: [{k: v}]\n---\nbody\n"
	if err := os.WriteFile(filepath.Join(f.vaultDir, "wiki", "props.md"), []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, "/wiki/props")
	for _, want := range []string{
		`<dt>nested</dt><dd>{a: &lt;i&gt;1&lt;/i&gt;; b: x, y; c: {d: <span class="wikilink broken">nowhere</span>}}</dd>`,
		`<dt>list</dt><dd>{k: v}</dd>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(body, "map[") {
		t.Error("the page shows Go's map syntax")
	}
}

// A record's address takes a record name as the command line does: in
// any case, or a unique prefix of a name or of its debate's id; a prefix
// of several says so and names them.
func TestRecordNamesAsTheCommandLineTakesThem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	const want = "/consensus/spec-idempotency-keys"
	if res, _ := get(t, f.srv, "/consensus/"+id); res.StatusCode != http.StatusOK {
		t.Errorf("/consensus/%s (the debate's id): %d", id, res.StatusCode)
	}
	for _, name := range []string{"SPEC-Idempotency-Keys", "spec-idem", id[:len(id)-3]} {
		res, _ := get(t, f.srv, "/consensus/"+name)
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusFound || loc != want {
			t.Errorf("/consensus/%s: %d to %q, want a redirect to %s", name, res.StatusCode, loc, want)
		}
	}
	data, err := os.ReadFile(filepath.Join(f.vaultDir, "wiki", "consensus", "spec-idempotency-keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.vaultDir, "wiki", "consensus", "spec-idempotency-other.md"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	res, body := get(t, f.srv, "/consensus/spec-idem")
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "is the start of 2 records: spec-idempotency-keys, spec-idempotency-other; give more of it") {
		t.Errorf("an ambiguous prefix: %d\n%s", res.StatusCode, body)
	}
	if res, body := get(t, f.srv, "/consensus/nothing-like-it"); res.StatusCode != http.StatusNotFound || !strings.Contains(body, "There is no page at this address.") {
		t.Errorf("an unknown name: %d", res.StatusCode)
	}
}

// A HEAD of a running debate's live stream answers its headers and ends:
// it holds no live slot (here the only one) while the debate runs.
func TestHeadOfALiveStreamHoldsNoSlot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(Config{Debates: f.debates, Vault: f.vault, Consensus: f.cs, LivePoll: 20 * time.Millisecond, MaxLive: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	release := make(chan struct{})
	run := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", waitingSides(release)...)
	defer func() { close(release); run.wait(t) }()
	waitEvents(t, f, run.ID, 3)
	u := "/debates/" + run.ID + "/live"
	head := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.ServeHTTP(head, httptest.NewRequest(http.MethodHead, "http://localhost"+u, nil))
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("HEAD of the live stream did not end while the debate runs")
	}
	if head.Code != http.StatusOK || !strings.HasPrefix(head.Header().Get("Content-Type"), "text/event-stream") {
		t.Errorf("HEAD: %d %q", head.Code, head.Header().Get("Content-Type"))
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	res, err := http.Get(ts.URL + u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("the stream after a HEAD: %d, want 200", res.StatusCode)
	}
}

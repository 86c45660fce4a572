package web

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
)

// get serves one request for target (a raw request target, not cleaned)
// and returns the response and its body.
func get(t testing.TB, h http.Handler, target string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "127.0.0.1:7420"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func checkSecurityHeaders(t testing.TB, target string, res *http.Response) {
	t.Helper()
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "style-src 'self'", "img-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("%s: CSP %q lacks %q", target, csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(csp, "*") {
		t.Errorf("%s: CSP %q allows too much", target, csp)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("%s: headers %v", target, res.Header)
	}
}

func TestPathTraversalIs404(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	wiki := filepath.Join(f.vaultDir, "wiki")
	os.WriteFile(filepath.Join(f.root, "secret.md"), []byte("root-secret"), 0o600)
	os.MkdirAll(filepath.Join(wiki, "notes"), 0o700)
	os.WriteFile(filepath.Join(wiki, "notes", "real.md"), []byte("# Real page\n"), 0o600)
	os.Mkdir(filepath.Join(f.vaultDir, ".obsidian"), 0o700)
	os.WriteFile(filepath.Join(f.vaultDir, ".obsidian", "app.md"), []byte("hidden"), 0o600)
	// Symbolic links planted in the vault: out of it, and inside it.
	os.Symlink("/etc/passwd", filepath.Join(wiki, "evil.md"))
	os.Symlink("/etc", filepath.Join(wiki, "etc"))
	os.Symlink(filepath.Join(f.root, "secret.md"), filepath.Join(wiki, "secret.md"))
	os.Symlink(filepath.Join(wiki, "notes", "real.md"), filepath.Join(wiki, "alias.md"))
	os.Symlink(filepath.Join(wiki, "notes"), filepath.Join(wiki, "linked"))
	os.Symlink("../../root/secret.md", filepath.Join(wiki, "rel.md"))
	// Relative links that stay inside the vault: os.Root would follow
	// these (it refuses only absolute links and links that lead out), so
	// only the server's own lstat checks refuse them.
	os.Symlink("notes/real.md", filepath.Join(wiki, "relalias.md"))
	os.Symlink("notes", filepath.Join(wiki, "rellinked"))

	// The real pages are served, so the 404s below are refusals.
	for _, ok := range []string{"/wiki/notes/real", "/wiki/notes/real.md", "/wiki/debates/" + id, "/debates/" + id} {
		if res, _ := get(t, f.srv, ok); res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d, want 200", ok, res.StatusCode)
		}
	}
	for _, target := range []string{
		"/wiki/../../etc/passwd",
		"/wiki/../../../../../../etc/passwd",
		"/wiki/..%2f..%2fetc%2fpasswd",
		"/wiki/%2e%2e/%2e%2e/etc/passwd",
		"/wiki/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
		"/wiki/%252e%252e%252f%252e%252e%252fetc%252fpasswd",
		"/wiki/%25252e%25252e%25252fetc",
		"/wiki/..%5c..%5cetc%5cpasswd",
		`/wiki/..\..\etc\passwd`,
		"/wiki/./notes/real",
		"/wiki//etc/passwd",
		"/wiki/notes/../notes/real",
		"/wiki/%00",
		"/wiki/notes/real%00.md",
		"/vault/../root/secret.md",
		"/vault/wiki/../../root/secret",
		"/vault/.obsidian/app",
		"/wiki/.obsidian/app",
		"/vault/%2e%2e/root/secret",
		"/debates/..%2f..%2fsecret.md",
		"/debates/../../secret.md",
		"/debates/" + id + "/../../secret.md",
		"/consensus/..%2f..%2f..%2froot%2fsecret",
		"/consensus/../../root/secret",
		"/static/../../root/secret.md",
		"/static/%2e%2e/secret.md",
		"/wiki/evil",
		"/wiki/evil.md",
		"/wiki/etc/passwd",
		"/wiki/secret",
		"/wiki/alias",
		"/wiki/linked/real",
		"/wiki/rel",
		"/wiki/relalias",
		"/wiki/rellinked/real",
		"/vault/wiki/rellinked/real.md",
		"/vault/wiki/evil",
		"/wiki/debates/" + id + ".md/..",
	} {
		res, body := get(t, f.srv, target)
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", target, res.StatusCode)
		}
		if strings.Contains(body, "root:") || strings.Contains(body, "root-secret") || strings.Contains(body, "Real page") || strings.Contains(body, "hidden") {
			t.Errorf("%s: leaks a file:\n%s", target, body)
		}
		checkSecurityHeaders(t, target, res)
	}

	// The same through a real server and a raw request line, which no
	// client library cleans first.
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	for _, target := range []string{"/wiki/../../etc/passwd", "/wiki/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/wiki/%252e%252e%252fetc%252fpasswd", "/wiki/evil"} {
		if code := rawGet(t, ts.Listener.Addr().String(), target); code != 404 {
			t.Errorf("raw %s: status %d, want 404", target, code)
		}
	}
}

// rawGet sends a request line as written and returns the status code.
func rawGet(t testing.TB, addr, target string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestEveryResponseHasTheCSP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	release := make(chan struct{})
	running := f.start(debate.LayerPlan, "A debate that waits", "", waitingSides(release)...)
	waitEvents(t, f, running.ID, 3)
	targets := []string{"/", "/?layer=spec&verdict=DEADLOCK&q=x", "/debates/" + id, "/debates/" + running.ID, "/consensus", "/consensus/spec-idempotency-keys",
		"/wiki/debates/" + id, "/wiki/consensus/consensus-records", "/search?q=keys", "/search", "/static/style.css", "/static/live.js",
		"/nowhere", "/debates/not-an-id", "/consensus/nothing", "/static/nothing.js", "/debates/" + id + "/live"}
	for _, target := range targets {
		res, _ := get(t, f.srv, target)
		checkSecurityHeaders(t, target, res)
		script := strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src")
		if want := target == "/debates/"+running.ID; script != want {
			t.Errorf("%s: script-src in the CSP is %v, want %v", target, script, want)
		}
	}
	// Other methods, and requests for another host (DNS rebinding).
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, "PROPFIND"} {
		req := httptest.NewRequest(m, "/", strings.NewReader("x"))
		req.Host = "localhost:7420"
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d %v", m, rec.Code, rec.Header())
		}
		checkSecurityHeaders(t, m, rec.Result())
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Host = "attacker.example:7420"
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusMisdirectedRequest || strings.Contains(rec.Body.String(), id) {
		t.Errorf("another host: %d", rec.Code)
	}
	checkSecurityHeaders(t, "another host", rec.Result())
	close(release)
	running.wait(t)
}

func TestDebatePages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.vault.WritePage("wiki/glossary.md", nil, []byte("# Glossary\n"))
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	dead := f.run(debate.LayerPlan, "Rate limits", "Rate limits live in each service", deadlocked...)

	res, body := get(t, f.srv, "/debates/"+id)
	for _, want := range []string{"<h2>Round 1</h2>", "<h2>Round 2</h2>", "Keys leak the creation time", "Use UUIDv7 keys with a 24h window",
		"No further objections", `class="integrity ok"`, "✓ verified", "sealed by verdict.json", "<code>wiki/debates/" + id + ".md</code> intact",
		`href="https://www.rfc-editor.org/rfc/rfc9562"`, `href="/wiki/glossary"`, "<code>notes.md:2</code>", "Verdict: CONSENSUS_REACHED",
		`href="/consensus/spec-idempotency-keys"`, "Anyone who sees a key learns when the payment was made."} {
		if !strings.Contains(body, want) {
			t.Errorf("debate page lacks %q", want)
		}
	}
	if res.StatusCode != 200 || strings.Contains(body, "/static/live.js") || strings.Contains(body, "tampered") {
		t.Errorf("a closed debate: %d, live script or tamper mark", res.StatusCode)
	}

	// The index filters by layer, verdict and text.
	for target, want := range map[string][]string{
		"/":                                      {id, dead},
		"/?layer=plan":                           {dead},
		"/?verdict=DEADLOCK":                     {dead},
		"/?verdict=CONSENSUS_REACHED&layer=plan": {},
		"/?q=IDEMPOTENCY":                        {id},
		"/?q=rate+limits&state=closed":           {dead},
	} {
		_, body := get(t, f.srv, target)
		for _, d := range []string{id, dead} {
			in := strings.Contains(body, "/debates/"+d)
			if should := contains(want, d); in != should {
				t.Errorf("%s: lists %s: %v, want %v", target, d, in, should)
			}
		}
	}

	// A filter that names no value of its kind is refused (400, saying
	// which and what to use), not ignored: the list unfiltered would read
	// as filtered. "any" in a select is an empty value: no filter.
	for target, want := range map[string][]string{
		"/?verdict=zz":                                    {`verdict: unknown verdict`, "DEADLOCK"},
		"/?layer=zz&state=zz":                             {`layer: `, `state: unknown state &#34;zz&#34; (use running, closed, interrupted)`},
		"/consensus?status=zz&layer=zz":                   {`layer: `, `status: `},
		"/consensus?verdict=" + strings.Repeat("x", 5000): {`verdict: `},
	} {
		res, body := get(t, f.srv, target)
		if res.StatusCode != http.StatusBadRequest || strings.Contains(body, "/debates/"+id) {
			t.Errorf("%.60s: %d, or it lists the debates", target, res.StatusCode)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%.60s: the page lacks %q", target, w)
			}
		}
	}
	if res, body := get(t, f.srv, "/?verdict=&layer=&state="); res.StatusCode != 200 || !strings.Contains(body, "/debates/"+id) {
		t.Errorf("empty filters: %d", res.StatusCode)
	}

	// The record: rendered Markdown, wikilinks as links, the chain.
	_, body = get(t, f.srv, "/consensus/spec-idempotency-keys")
	for _, want := range []string{"CONSENSUS_REACHED", `href="/debates/` + id + `"`, `<h2 id="final-position">Final Position</h2>`, "Use UUIDv7 keys with a 24h window"} {
		if !strings.Contains(body, want) {
			t.Errorf("record page lacks %q", want)
		}
	}
	// A second debate on the question supersedes the first: the chain.
	id2 := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	_, body = get(t, f.srv, "/consensus/spec-idempotency-keys-2")
	for _, want := range []string{"Supersession chain", `href="/consensus/spec-idempotency-keys"`, "<strong>spec-idempotency-keys-2</strong>", "superseded", `href="/debates/` + id2 + `"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the superseding record's page lacks %q", want)
		}
	}

	// The vault page of the debate: frontmatter with links, the check.
	_, body = get(t, f.srv, "/wiki/debates/"+id)
	for _, want := range []string{"vault page matches the transcript", `<dt>record</dt><dd><a class="wikilink" href="/consensus/spec-idempotency-keys">spec-idempotency-keys</a></dd>`, "<dt>transcript_head</dt>"} {
		if !strings.Contains(body, want) {
			t.Errorf("vault page lacks %q", want)
		}
	}

	// Search: records by BM25, debates by topic.
	_, body = get(t, f.srv, "/search?q=rate+limits")
	if !strings.Contains(body, `href="/debates/`+dead+`"`) || !strings.Contains(body, `href="/consensus/plan-rate-limits"`) || strings.Contains(body, `href="/debates/`+id+`"`) {
		t.Errorf("search:\n%s", body)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTamperedDebateOnTheWeb(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	line := f.lineOf(id, "Keys leak the creation time")
	f.tamperFile(id, "Keys leak the creation time", "Keys leak nothing at all")
	_, body := get(t, f.srv, "/debates/"+id)
	for _, want := range []string{`class="integrity bad"`, "✗ tampered", fmt.Sprintf("Line %d its content does not match its hash", line),
		`class="banner tampered" role="alert"`, "Keys leak nothing at all", fmt.Sprintf(`class="turn attacker unverified" id="line-%d"`, line), "<code>wiki/debates/" + id + ".md</code> differs"} {
		if !strings.Contains(body, want) {
			t.Errorf("tampered debate page lacks %q", want)
		}
	}
	_, body = get(t, f.srv, "/")
	if !strings.Contains(body, "✗ tampered") || !strings.Contains(body, fmt.Sprintf("line %d its content does not match its hash", line)) {
		t.Errorf("the index does not flag the tampered debate")
	}
	_, body = get(t, f.srv, "/wiki/debates/"+id)
	if !strings.Contains(body, "transcript tampered") || !strings.Contains(body, "This vault page does not match its transcript.") {
		t.Errorf("the vault page view does not flag the tampered transcript")
	}
}

func TestRewrittenChainIsCaughtByTheVaultPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	rewriteChain(t, f, id, "Keys leak the creation time", "Keys are fine")
	rep, err := f.debates.Verify(id)
	if err != nil || !rep.Intact {
		t.Fatalf("the rewritten chain should verify on its own: %+v %v", rep, err)
	}
	_, body := get(t, f.srv, "/debates/"+id)
	// verdict.json (left as it was) no longer says what the rewritten
	// verdict event says, and the vault page records the old head.
	for _, want := range []string{`class="integrity bad"`, "<code>wiki/debates/" + id + ".md</code> differs", "<strong>Tampered.</strong> debates/" + id + "/verdict.json differs: verdict.json says attacker_positions"} {
		if !strings.Contains(body, want) {
			t.Errorf("debate page lacks %q\n%s", want, body)
		}
	}
}

// waitingSides is a debate whose defender answers only once release is
// closed: it runs until then.
func waitingSides(release chan struct{}) []side {
	s, err := agent.ParseScript([]byte(turns("1|Ship it now||0|50|Held until the test says so.")))
	if err != nil {
		panic(err)
	}
	return []side{
		attacker(turns("1|Wait for the review|Ship it now|-1|60|Nobody has read it.", "2||||10|")),
		{role: debate.RoleDefender, respond: agent.ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return s.Respond(ctx, req)
		})},
	}
}

// waitEvents waits until debate id's transcript holds n events.
func waitEvents(t testing.TB, f *fixture, id string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if ev, err := f.debates.Events(id); err == nil && len(ev) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("debate %s never reached %d events", id, n)
}

func TestLiveStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	release := make(chan struct{})
	run := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", waitingSides(release)...)
	waitEvents(t, f, run.ID, 3) // open, request, the attacker's turn
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	res, err := http.Get(ts.URL + "/debates/" + run.ID + "/live")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	events := readEvents(res.Body)
	first := <-events
	if first.name != "live" || !strings.Contains(first.data, "Wait for the review") || strings.Contains(first.data, "Verdict:") {
		t.Fatalf("first event %+v", first)
	}
	close(release)
	var last, after sse
	var sawVerdict bool
	for e := range events {
		if e.name == "live" && strings.Contains(e.data, "Verdict: CONSENSUS_REACHED") && strings.Contains(e.data, "Held until the test says so.") {
			sawVerdict = true
		}
		if e.name == "after" {
			after = e
		}
		last = e
	}
	if !sawVerdict || last.name != "done" || last.data != "closed" {
		t.Fatalf("the stream did not carry the verdict then end: verdict %v, last %+v", sawVerdict, last)
	}
	// The page's last paragraph gains the vault page the verdict filed:
	// it was the page's as first served, without it, until a reload.
	if !strings.Contains(after.data, `<p class="also">`) || !strings.Contains(after.data, `href="/wiki/debates/`+run.ID+`"`) {
		t.Errorf("the stream did not bring the link to the vault page: %+v", after)
	}
	run.wait(t)
}

type sse struct{ name, data string }

// readEvents parses a server-sent event stream until it ends.
func readEvents(r io.Reader) <-chan sse {
	out := make(chan sse, 100)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var e sse
		var data []string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e.name != "" {
					e.data = strings.Join(data, "\n")
					out <- e
				}
				e, data = sse{}, nil
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			}
		}
	}()
	return out
}

func TestServeShutsDownWithALiveStreamOpen(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	release := make(chan struct{})
	run := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", waitingSides(release)...)
	waitEvents(t, f, run.ID, 3)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(ctx, ln) }()
	res, err := http.Get("http://" + ln.Addr().String() + "/debates/" + run.ID + "/live")
	if err != nil {
		t.Fatal(err)
	}
	events := readEvents(res.Body)
	<-events
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	for range events { // the stream ended
	}
	res.Body.Close()
	close(release)
	run.wait(t)
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

// rewriteChain rewrites debate id's transcript with old replaced by new as
// a chain that verifies (each line's hash and prev recomputed, the format
// being public), and verdict.json's head to match: the forgery only a
// second witness, the vault page, can reveal.
func rewriteChain(t testing.TB, f *fixture, id, old, new string) {
	t.Helper()
	dir := filepath.Join(f.root, "debates", id)
	data, err := os.ReadFile(filepath.Join(dir, transcripts.TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	const tail = len(`,"hash":"`) + 64 + len(`"}`)
	prev := transcripts.Genesis(id)
	var out bytes.Buffer
	for line := range bytes.Lines(data) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		body := bytes.ReplaceAll(line[:len(line)-tail], []byte(old), []byte(new))
		body = append([]byte(`{"prev":"`+prev), body[len(`{"prev":"`)+64:]...)
		sum := sha256.Sum256(body)
		prev = hex.EncodeToString(sum[:])
		out.Write(body)
		out.WriteString(`,"hash":"` + prev + `"}` + "\n")
	}
	os.WriteFile(filepath.Join(dir, transcripts.TranscriptFile), out.Bytes(), 0o600)
	v, err := os.ReadFile(filepath.Join(dir, transcripts.VerdictFile))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(v, &m)
	m["head"] = prev
	v, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(dir, transcripts.VerdictFile), v, 0o600)
}

// TestLiveStreamsAreBounded: beyond MaxLive open streams a live request is
// refused (503, with the security headers), and a stream whose client went
// away gives its slot back.
func TestLiveStreamsAreBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv, err := New(Config{Debates: f.debates, Vault: f.vault, Consensus: f.cs, LivePoll: 20 * time.Millisecond, MaxLive: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	release := make(chan struct{})
	run := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", waitingSides(release)...)
	waitEvents(t, f, run.ID, 3)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	url := ts.URL + "/debates/" + run.ID + "/live"
	var open []*http.Response
	for range 2 {
		res, err := http.Get(url)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("stream within the limit: %v %v", res, err)
		}
		<-readEvents(res.Body) // the stream is open and counted
		open = append(open, res)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a stream over the limit: %d, want 503", res.StatusCode)
	}
	checkSecurityHeaders(t, "503", res)
	open[0].Body.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slot of a closed stream was never given back")
		}
		time.Sleep(20 * time.Millisecond)
	}
	open[1].Body.Close()
	close(release)
	run.wait(t)
}

// readEventsAsABrowser parses a server-sent event stream as the HTML
// standard says a browser does: a line ends at CR LF, LF or a lone CR.
func readEventsAsABrowser(r io.Reader) <-chan sse {
	out := make(chan sse, 100)
	go func() {
		defer close(out)
		body, _ := io.ReadAll(r)
		text := strings.ReplaceAll(strings.ReplaceAll(string(body), "\r\n", "\n"), "\r", "\n")
		var e sse
		var data []string
		for _, line := range strings.Split(text, "\n") {
			switch {
			case line == "":
				if data != nil {
					if e.name == "" {
						e.name = "message"
					}
					e.data = strings.Join(data, "\n")
					out <- e
				}
				e, data = sse{}, nil
			case strings.HasPrefix(line, "event:"):
				e.name = strings.TrimPrefix(strings.TrimPrefix(line, "event:"), " ")
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			}
		}
	}()
	return out
}

// TestLiveStreamCannotBeForgedByAnArgument: an agent's argument holding
// carriage returns (a line end to an EventSource) must not end the server's
// data lines early and add events of its own, which live.js would put in
// the page (a forged verdict or integrity badge on the page that attests
// integrity).
func TestLiveStreamCannotBeForgedByAnArgument(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	forged := "Before.\r\revent: live\rdata: <p id=forged>Integrity: intact. Verdict: CONSENSUS_REACHED</p>\r\revent: done\rdata: closed\r\rAfter."
	release := make(chan struct{})
	sides := waitingSides(release)
	sides[0] = attacker(turns("1|Wait for the review|Ship it now|-1|60|"+forged, "2||||10|"))
	run := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", sides...)
	waitEvents(t, f, run.ID, 3)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	res, err := http.Get(ts.URL + "/debates/" + run.ID + "/live")
	if err != nil {
		t.Fatal(err)
	}
	events := readEventsAsABrowser(res.Body)
	close(release)
	var names []string
	for e := range events {
		names = append(names, e.name)
		if strings.Contains(e.data, "<p id=forged>") {
			t.Errorf("event %q carries the argument's own markup:\n%s", e.name, e.data)
		}
		if e.name == "live" && !strings.Contains(e.data, "Before.") {
			t.Errorf("a live event without the start of the argument:\n%.300s", e.data)
		}
	}
	res.Body.Close()
	run.wait(t)
	if len(names) < 2 || names[len(names)-1] != "done" || slices.Contains(names[:len(names)-1], "done") {
		t.Errorf("events %v: want live updates, then one done", names)
	}
}

// A request that net/http would answer itself, before any handler ("OPTIONS
// *", with an empty 200 and no headers of ours), reaches the Server under
// Serve: it is refused with the security headers like every other.
func TestServeLeavesNoResponseToNetHTTP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(ctx, ln) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "OPTIONS * HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", ln.Addr())
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("OPTIONS *: status %d, want 405", res.StatusCode)
	}
	checkSecurityHeaders(t, "OPTIONS *", res)
}

// A debate folder that cannot be read as a debate (no session.json yet, or
// a corrupt one) is not found, not a redirect to itself.
func TestUnreadableDebateIsNotFound(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct{ id, session string }{
		{"20261204-spec-no-session-aaaaaa", ""},
		{"20261204-spec-bad-session-bbbbbb", "{bad"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			dir := filepath.Join(f.root, transcripts.Dir, tc.id)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if tc.session != "" {
				os.WriteFile(filepath.Join(dir, "session.json"), []byte(tc.session), 0o600)
			}
			res, _ := get(t, f.srv, "/debates/"+tc.id)
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("status %d (Location %q), want 404", res.StatusCode, res.Header.Get("Location"))
			}
		})
	}
}

// A record a person filed under a name of their own ("Rate limits?.md")
// is listed, and every link to it opens it.
func TestRecordWithAnyFileName(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	data, err := os.ReadFile(filepath.Join(f.vaultDir, "wiki", "consensus", "spec-idempotency-keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Idempotency keys", "what? v2", "clés"}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(f.vaultDir, "wiki", "consensus", name+".md"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, list := range []string{"/consensus", "/search?q=idempotency"} {
		_, body := get(t, f.srv, list)
		for _, name := range names {
			href := `href="/consensus/` + url.PathEscape(name) + `"`
			if !strings.Contains(body, href) {
				t.Errorf("%s lacks %s", list, href)
				continue
			}
			if res, _ := get(t, f.srv, "/consensus/"+url.PathEscape(name)); res.StatusCode != http.StatusOK {
				t.Errorf("%s: the link to %q is %d", list, name, res.StatusCode)
			}
		}
	}
}

// The Vault link of every page opens a page on a vault with no record yet.
func TestVaultLinkBeforeTheFirstRecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, body := get(t, f.srv, "/")
	if !strings.Contains(body, `href="/wiki/consensus/consensus-records"`) {
		t.Fatal("the index has no Vault link")
	}
	res, body := get(t, f.srv, "/wiki/consensus/consensus-records")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "No consensus record yet") {
		t.Errorf("the Vault link of an empty vault: %d\n%s", res.StatusCode, body)
	}
}

// A debate that cannot be read is a 500 whose page says where to read why:
// parley serve logs nothing without --verbose.
func TestUnreadableDebateSaysWhereWhyIs(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root reads a file whatever its mode")
	}
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	p := filepath.Join(f.root, transcripts.Dir, id, "transcript.jsonl")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	res, body := get(t, f.srv, "/debates/"+id)
	if res.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "parley serve --verbose") {
		t.Errorf("%d\n%s", res.StatusCode, body)
	}
}

// A debate whose transcript was replaced by a directory was tampered
// with: its page says so and what stands in the transcript's place,
// rather than failing as unreadable.
func TestTranscriptReplacedByADirectoryIsTampered(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	p := filepath.Join(f.root, transcripts.Dir, id, "transcript.jsonl")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	res, body := get(t, f.srv, "/debates/"+id)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "Tampered transcript") || !strings.Contains(body, "it is a directory") {
		t.Errorf("%d\n%s", res.StatusCode, body)
	}
}

// Search shows the best maxRecordHits records and says when more match,
// rather than counting only those it shows.
func TestSearchSaysWhenMoreRecordsMatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	data, err := os.ReadFile(filepath.Join(f.vaultDir, "wiki", "consensus", "spec-idempotency-keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxRecordHits {
		os.WriteFile(filepath.Join(f.vaultDir, "wiki", "consensus", fmt.Sprintf("copy-%d.md", i)), data, 0o600)
	}
	_, body := get(t, f.srv, "/search?q=idempotency")
	if n := strings.Count(body, `href="/consensus/`); n != maxRecordHits {
		t.Errorf("%d records shown, want %d", n, maxRecordHits)
	}
	if want := fmt.Sprintf("(the best %d; more match)", maxRecordHits); !strings.Contains(body, want) {
		t.Errorf("search of %d matching records lacks %q", maxRecordHits+1, want)
	}
	_, body = get(t, f.srv, "/search?q=uuidv7")
	if !strings.Contains(body, `Debates <span class="count">(1)</span>`) {
		t.Errorf("one debate found is not counted as (1)")
	}
}

// HEAD answers with the headers GET would send, Content-Length included,
// and no body: the static files as the pages.
func TestHeadHasTheContentLengthOfGet(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	for _, target := range []string{"/static/style.css", "/static/live.js", "/", "/consensus"} {
		res, err := http.Get(ts.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		head, err := http.Head(ts.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		head.Body.Close()
		if res.StatusCode != 200 || head.StatusCode != 200 || len(body) == 0 {
			t.Fatalf("%s: GET %d (%d bytes), HEAD %d", target, res.StatusCode, len(body), head.StatusCode)
		}
		if got, want := head.Header.Get("Content-Length"), strconv.Itoa(len(body)); got != want {
			t.Errorf("HEAD %s: Content-Length %q, want %s", target, got, want)
		}
		if got, want := head.Header.Get("Content-Type"), res.Header.Get("Content-Type"); got != want {
			t.Errorf("HEAD %s: Content-Type %q, want %q", target, got, want)
		}
	}
}

// A wikilink to a heading ([[Page#Heading]], [[#Heading]]) leads to the
// heading, which has the id the link names; the heading was dropped and
// every such link opened the top of the page.
func TestWikilinkToAHeading(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	page := "# Notes\n\n## Décision finale\n\ntext\n\n## Décision finale\n\nagain\n\n" +
		"See [[spec-idempotency-keys#Rationale]], [[#Décision finale|below]], [[spec-idempotency-keys#^block1]].\n"
	if err := os.WriteFile(filepath.Join(f.vaultDir, "notes.md"), []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, pageURL("notes.md"))
	for _, want := range []string{
		`<h2 id="décision-finale">`, `<h2 id="décision-finale-1">`,
		`href="/consensus/spec-idempotency-keys#rationale"`,
		`href="#d%C3%A9cision-finale">below</a>`, // the browser decodes it to find the id
		`href="/consensus/spec-idempotency-keys">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	// The record's page has the heading the link names.
	if _, body := get(t, f.srv, "/consensus/spec-idempotency-keys"); !strings.Contains(body, `<h2 id="rationale">Rationale</h2>`) {
		t.Errorf("the record's page has no heading with the id rationale:\n%s", body)
	}
}

// An interrupted debate's page names the command that continues it, with
// the root served; a closed one's does not. The page said "No verdict yet
// (interrupted)" and left the reader to find the command.
func TestInterruptedDebateNamesItsResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	closed := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	if _, body := get(t, f.srv, "/debates/"+closed); strings.Contains(body, "debate resume") {
		t.Errorf("a closed debate's page names a resume:\n%s", body)
	}
	if err := os.Remove(filepath.Join(f.root, transcripts.Dir, closed, transcripts.VerdictFile)); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, "/debates/"+closed)
	root, _ := filepath.Abs(f.root)
	if want := "parley --root " + root; !strings.Contains(body, `<p class="note resume">`) || !strings.Contains(body, want) || !strings.Contains(body, "debate resume "+closed) {
		t.Errorf("the interrupted debate's page does not name %s … debate resume %s:\n%s", want, closed, body)
	}
}

// The index lists a debate stopped after its verdict was recorded, before
// it was filed and sealed, with that verdict and its state: it showed
// "interrupted" alone, as if the debate had not ended.
func TestIndexShowsTheRecordedVerdictOfAnInterruptedDebate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	if err := os.Remove(filepath.Join(f.root, transcripts.Dir, id, transcripts.VerdictFile)); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, "/")
	row := body[strings.Index(body, "/debates/"+id):]
	row = row[:strings.Index(row, "</tr>")]
	if !strings.Contains(row, `<span class="verdict-tag v-CONSENSUS_REACHED">CONSENSUS_REACHED</span>`) || !strings.Contains(row, `<span class="state-tag s-interrupted">interrupted</span>`) {
		t.Errorf("the index row of the interrupted debate does not show its verdict and its state:\n%s", row)
	}
	if _, body := get(t, f.srv, "/?verdict=CONSENSUS_REACHED&state=interrupted"); !strings.Contains(body, "/debates/"+id) {
		t.Errorf("the index filtered by its verdict and state does not list it:\n%s", body)
	}
}

// What an agent or a topic says reaches the browser without the control
// characters and bidirectional overrides that would make it show words in
// another order than they were recorded in: every page and the live
// stream replace them with U+FFFD, as the terminal and the vault do. The
// pages passed a right-to-left override and a NUL as they were.
func TestPagesShowNoBidiOverrideOrControl(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Keys \u202eton od\u202c expire", "Keys expire",
		attacker(turns("1|Keys \u2066never\u2069 expire|Keys expire|-1|50|They \u202eton\x00 do.\r\nSecond line.", "2||||10|")),
		defender(turns("1|Keys expire||0|40|They do.")))
	for _, target := range []string{"/", "/debates/" + id, "/debates/" + id + "/live", "/search?q=keys", "/wiki/debates/" + id} {
		res, body := get(t, f.srv, target)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", target, res.StatusCode)
			continue
		}
		if i := strings.IndexFunc(body, func(r rune) bool { return termsafe.Unsafe(r) && !strings.ContainsRune("\n\t\r", r) }); i >= 0 {
			t.Errorf("%s passes %U to the browser: …%s…", target, []rune(body[i:])[0], body[max(0, i-40):min(len(body), i+40)])
		}
		if !strings.Contains(body, "\uFFFD") {
			t.Errorf("%s does not mark what it replaced", target)
		}
	}
}

// The page of an interrupted debate points at resume only when resume
// takes it, and says what resume will do: finish closing a debate whose
// verdict is recorded. A debate whose files do not verify, which resume
// refuses, is pointed at verify instead, as "debate status" does: the page
// named a resume that then refused to run.
func TestInterruptedDebatePointsAtWhatTakesIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	if err := os.Remove(filepath.Join(f.root, transcripts.Dir, id, transcripts.VerdictFile)); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv, "/debates/"+id)
	if !strings.Contains(body, "debate resume "+id+"</code> finishes closing it") {
		t.Errorf("the page of an interrupted debate with its verdict recorded does not say resume finishes closing it:\n%s", body)
	}
	f.tamperFile(id, "UUIDv7 embeds a millisecond timestamp", "UUIDv7 embeds a second timestamp")
	_, body = get(t, f.srv, "/debates/"+id)
	if strings.Contains(body, "debate resume") {
		t.Errorf("the page of a tampered interrupted debate names resume, which refuses it:\n%s", body)
	}
	if !strings.Contains(body, "resume refuses a debate whose files do not verify: <code>") || !strings.Contains(body, "transcripts verify "+id+"</code> names what differs") {
		t.Errorf("the page of a tampered interrupted debate does not point at verify:\n%s", body)
	}
}

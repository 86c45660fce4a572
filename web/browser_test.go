package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/parleyhq/parley/debate"
)

// browser starts Debian's chromium, headless, with a fresh profile, and
// returns a context to run actions in. It fails when chromium is missing,
// unless PARLEY_NO_BROWSER=1 asks to skip the browser tests (CI never
// sets it: .ci/run installs chromium).
func browser(t *testing.T) context.Context {
	t.Helper()
	if os.Getenv("PARLEY_NO_BROWSER") == "1" {
		t.Skip("PARLEY_NO_BROWSER=1: browser tests skipped")
	}
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Fatal("no chromium to run the browser tests: apt-get install -y chromium (.ci/run does), or set PARLEY_NO_BROWSER=1 to skip them")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium (%s): %v", path, err)
	}
	return ctx
}

// step runs browser actions with a time limit.
func step(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// value runs one browser action that returns a value, with a time limit.
func value[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// screenshot saves the viewport as <temp dir>/<name>.png and checks that
// it is a PNG with something in it. PARLEY_SCREENSHOTS=DIR keeps a copy.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png := value(t, ctx, "screenshot "+name, chromedp.FullScreenshot(100))
	if len(png) < 1000 || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot %s: %d bytes, not a PNG of a page", name, len(png))
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
		t.Fatalf("screenshot %s: %v", p, err)
	}
	if keep := os.Getenv("PARLEY_SCREENSHOTS"); keep != "" {
		_ = os.WriteFile(filepath.Join(keep, name+".png"), png, 0o644)
	}
}

func has(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// TestBrowser drives chromium through the pages a person reads: the index,
// a debate with its rounds and badge, its vault page and the wikilink to
// its consensus record, search, a tampered transcript, a transcript whose
// agent wrote <script>, and a running debate that updates live.
func TestBrowser(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.vault.WritePage("wiki/glossary.md", nil, []byte("# Glossary\n\nTerms of the payments team.\n"))
	keys := f.run(debate.LayerSpec, "Idempotency keys", "Use UUIDv7 keys", conceding...)
	limits := f.run(debate.LayerPlan, "Rate limits", "Rate limits live in each service", deadlocked...)
	hostile := f.run(debate.LayerVerify, "Hostile <b>agent</b> output", "The closure holds",
		attacker(turns(`1|<img src=x onerror="window.__pwned=2">|The closure holds|-1|70|Look: <script>window.__pwned=1;document.title='pwned'</script> and [click](javascript:window.__pwned=3)|https://example.org/?q=<script>`, "2||||10|")),
		defender(turns("1|The closure holds||0|50|Nothing to see.")))
	tampered := f.run(debate.LayerSpec, "Retry budget", "Three retries", conceding...)
	line := f.lineOf(tampered, "Keys leak the creation time")
	f.tamperFile(tampered, "Keys leak the creation time", "Keys leak nothing")
	release := make(chan struct{})
	f.context = []debate.ContextItem{{Kind: "file", Ref: "release-plan.md", Text: "Ship the release on Friday at 16:00."}}
	live := f.start(debate.LayerSpec, "Ship on Friday", "Ship it now", waitingSides(release)...)
	f.context = nil
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
		live.wait(t)
	}()
	waitEvents(t, f, live.ID, 3)

	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	ctx := browser(t)
	shots := t.TempDir()

	t.Run("index", func(t *testing.T) {
		step(t, ctx, "load the index", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("table.debates")))
		text := value(t, ctx, "index text", chromedp.Text(chromedp.CSS("main")))
		has(t, "the index", text, "Idempotency keys", "Rate limits", "Retry budget", "Ship on Friday", "DEADLOCK", "running", "✓ verified", "✗ tampered")
		// The badge's title names the first bad line.
		has(t, "the tampered badge's title", value(t, ctx, "badge title", chromedp.Evaluate[string](`document.querySelector(".bad-mark").title`)), fmt.Sprintf("line %d", line))
		// The stylesheet loaded under the CSP.
		bg := value(t, ctx, "style", chromedp.Evaluate[string](`getComputedStyle(document.querySelector("header.site")).backgroundColor`))
		if bg == "" || bg == "rgba(0, 0, 0, 0)" {
			t.Errorf("the stylesheet did not apply: header background %q", bg)
		}
		screenshot(t, ctx, shots, "index")
	})

	t.Run("debate", func(t *testing.T) {
		step(t, ctx, "open the debate", chromedp.Navigate(ts.URL+"/"), chromedp.Click(chromedp.CSS(`a[href="/debates/`+keys+`"]`)), chromedp.WaitVisible(chromedp.CSS("#thread")))
		rounds := value(t, ctx, "rounds", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#thread .round h2")].map(h => h.textContent)`))
		if strings.Join(rounds, ",") != "Round 1,Round 2" {
			t.Errorf("rounds %v", rounds)
		}
		badge := value(t, ctx, "badge", chromedp.Text(chromedp.CSS("#integrity .badge")))
		has(t, "the badge", badge, "✓ verified")
		thread := value(t, ctx, "thread", chromedp.Text(chromedp.CSS("#thread")))
		has(t, "the thread", thread, "Keys leak the creation time", "Use UUIDv7 keys with a 24h window", "No further objections", "notes.md:2", "ok", "unchecked")
		verdict := value(t, ctx, "verdict", chromedp.Text(chromedp.CSS("#verdict")))
		has(t, "the verdict", verdict, "CONSENSUS_REACHED", "proceed")
		screenshot(t, ctx, shots, "debate")
	})

	t.Run("wikilink to the record", func(t *testing.T) {
		step(t, ctx, "open the vault page", chromedp.Navigate(ts.URL+"/debates/"+keys), chromedp.Click(chromedp.CSS(".also a")), chromedp.WaitVisible(chromedp.CSS("article.markdown")))
		has(t, "the vault page", value(t, ctx, "page badge", chromedp.Text(chromedp.CSS(".integrity"))), "vault page matches the transcript")
		screenshot(t, ctx, shots, "vault-page")
		step(t, ctx, "follow the wikilink", chromedp.Click(chromedp.CSS(`article.markdown a.wikilink[href="/consensus/spec-idempotency-keys"]`)), chromedp.WaitVisible(chromedp.CSS(".record-head")))
		if loc := value(t, ctx, "location", chromedp.Location()); !strings.HasSuffix(loc, "/consensus/spec-idempotency-keys") {
			t.Errorf("location %s", loc)
		}
		has(t, "the record", value(t, ctx, "record", chromedp.Text(chromedp.CSS("main"))), "Final Position", "Use UUIDv7 keys with a 24h window", "CONSENSUS_REACHED", "active")
		screenshot(t, ctx, shots, "record")
	})

	t.Run("search", func(t *testing.T) {
		step(t, ctx, "search", chromedp.Navigate(ts.URL+"/"), chromedp.SendKeys(chromedp.CSS(`header input[name="q"]`), "rate limits"),
			chromedp.Submit(chromedp.CSS("header form.search")), chromedp.WaitVisible(chromedp.CSS(".results")))
		text := value(t, ctx, "results", chromedp.Text(chromedp.CSS("main")))
		has(t, "the results", text, "Rate limits", "DEADLOCK")
		if strings.Contains(text, "Idempotency keys") {
			t.Errorf("the search for rate limits lists Idempotency keys:\n%s", text)
		}
		step(t, ctx, "open the hit", chromedp.Click(chromedp.CSS(`.results a[href="/debates/`+limits+`"]`)), chromedp.WaitVisible(chromedp.CSS("#verdict")))
		has(t, "the debate found", value(t, ctx, "verdict", chromedp.Text(chromedp.CSS("#verdict"))), "DEADLOCK")
		screenshot(t, ctx, shots, "search")
	})

	t.Run("tampered", func(t *testing.T) {
		step(t, ctx, "open the tampered debate", chromedp.Navigate(ts.URL+"/debates/"+tampered), chromedp.WaitVisible(chromedp.CSS(".banner.tampered")))
		has(t, "the badge", value(t, ctx, "badge", chromedp.Text(chromedp.CSS("#integrity"))), "✗ tampered", fmt.Sprintf("line %d", line))
		has(t, "the banner", value(t, ctx, "banner", chromedp.Text(chromedp.CSS(".banner.tampered"))), "Tampered transcript.", fmt.Sprintf("Line %d its content does not match its hash", line))
		has(t, "the edited turn", value(t, ctx, "edited turn", chromedp.Text(chromedp.CSS(fmt.Sprintf("#line-%d", line)))), "Keys leak nothing", "UNVERIFIED") // the mark is upper case by CSS
		screenshot(t, ctx, shots, "tampered")
	})

	t.Run("script in an argument is text", func(t *testing.T) {
		step(t, ctx, "open the hostile debate", chromedp.Navigate(ts.URL+"/debates/"+hostile), chromedp.WaitVisible(chromedp.CSS("#thread")))
		pwned := value(t, ctx, "pwned", chromedp.Evaluate[string](`String(window.__pwned)`))
		title := value(t, ctx, "title", chromedp.Title())
		if pwned != "undefined" || strings.Contains(title, "pwned") {
			t.Fatalf("a script from the transcript ran: __pwned=%s, title %q", pwned, title)
		}
		n := value(t, ctx, "elements", chromedp.Evaluate[int](`document.querySelectorAll("main script, main img, main a[href^='javascript']").length`))
		if n != 0 {
			t.Errorf("%d script, img or javascript: elements in the page", n)
		}
		arg := value(t, ctx, "argument", chromedp.Text(chromedp.CSS(".turn.attacker .argument")))
		has(t, "the argument", arg, "<script>window.__pwned=1;document.title='pwned'</script>")
		has(t, "the position", value(t, ctx, "position", chromedp.Text(chromedp.CSS(".turn.attacker .position"))), `<img src=x onerror="window.__pwned=2">`)
		has(t, "the title", value(t, ctx, "h1", chromedp.Text(chromedp.CSS("h1"))), "Hostile <b>agent</b> output")
		screenshot(t, ctx, shots, "hostile")
	})

	t.Run("live", func(t *testing.T) {
		step(t, ctx, "open the running debate", chromedp.Navigate(ts.URL+"/debates/"+live.ID), chromedp.WaitVisible(chromedp.CSS("[data-live]")))
		has(t, "the running debate", value(t, ctx, "thread", chromedp.Text(chromedp.CSS("#live"))), "Wait for the review", "No verdict yet (running)")
		screenshot(t, ctx, shots, "live-running")
		value(t, ctx, "mark the page", chromedp.Evaluate[bool](`window.__sameDocument = true`))
		step(t, ctx, "open the context", chromedp.Click(chromedp.CSS("details.context-doc summary")))
		close(release)
		step(t, ctx, "wait for the verdict", chromedp.WaitVisible(chromedp.CSS("section.verdict")), chromedp.WaitVisible(chromedp.CSS("#live-status.ended")))
		if same := value(t, ctx, "same document", chromedp.Evaluate[bool](`window.__sameDocument === true`)); !same {
			t.Error("the page was reloaded instead of updated")
		}
		has(t, "the updated page", value(t, ctx, "live", chromedp.Text(chromedp.CSS("#live"))), "Held until the test says so.", "CONSENSUS_REACHED", "✓ verified")
		has(t, "the status", value(t, ctx, "status", chromedp.Text(chromedp.CSS("#live-status"))), "The debate is closed.")
		if open := value(t, ctx, "context open", chromedp.Evaluate[bool](`document.querySelector("details.context-doc").open`)); !open {
			t.Error("the context document the reader opened closed when the page updated")
		}
		has(t, "the answer after the update", value(t, ctx, "answer", chromedp.Text(chromedp.CSS("#answer"))), "CONSENSUS_REACHED")
		// The last paragraph links the vault page the verdict filed,
		// without a reload.
		has(t, "the links after the update", value(t, ctx, "also", chromedp.Evaluate[string](`document.querySelector("p.also").innerHTML`)), `href="/wiki/debates/`+live.ID+`"`)
		screenshot(t, ctx, shots, "live-closed")
	})
}

package web

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

// retrySource is a workspace file a turn cites lines 20–22 of.
func retrySource() string {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		switch i {
		case 20:
			b.WriteString("for attempt := 0; attempt < 5; attempt++ {\n")
		case 21:
			b.WriteString("\ttime.Sleep(base << attempt) // <b>no jitter</b>\n")
		case 22:
			b.WriteString("}\n")
		default:
			fmt.Fprintf(&b, "// line %d of the retry loop's file\n", i)
		}
	}
	return b.String()
}

// The context document a debate was handed: Markdown with raw HTML and a
// script that must stay text.
const proposalDoc = "# Retry policy\n\nRetry failed calls five times with exponential backoff.\n\n<script>window.__pwned='context'</script>\n<img src=x onerror=\"window.__pwned='img'\">\n\nOwner: payments platform.\n"

// writeGateLog writes decisions over three days to the fixture's
// gate.jsonl: day 1 two debated, day 2 one debated and two skipped, day 3
// three skipped (spec layer, priced at the spec budget).
func writeGateLog(t *testing.T, root string) {
	t.Helper()
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	days := []struct {
		day            string
		debated, skips int
	}{{"2026-11-28", 2, 0}, {"2026-11-29", 1, 2}, {"2026-11-30", 0, 3}}
	for _, d := range days {
		for i := 0; i < d.debated+d.skips; i++ {
			outcome := gating.Debate
			if i >= d.debated {
				outcome = gating.Skip
			}
			e := gating.LogEntry{Time: d.day + fmt.Sprintf("T10:%02d:00.000Z", i), Decision: gating.Decision{Outcome: outcome, Mode: gating.ModeModel, Layer: debate.LayerSpec}}
			if err := gating.AppendLog(r, e); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The answer first: a person who opens a debate sees its verdict, action
// and final position without scrolling; the context document the debate
// was handed is on the page (collapsed, as text); an evidence reference to
// a file opens the cited lines; the charts of tokens and positions, and
// on the index the gate's record, are drawn; participants show their
// agent's kind and model; the consensus list shows each record's final
// position and action; search finds a word that only a turn's argument
// holds. Screenshots of each are kept (PARLEY_SCREENSHOTS=DIR).
func TestBrowserAnswerFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.workspace, "retry.go"), []byte(retrySource()), 0o600); err != nil {
		t.Fatal(err)
	}
	f.context = []debate.ContextItem{{Kind: "file", Ref: "proposal.md", Text: proposalDoc}}
	id := f.run(debate.LayerSpec, "Retry policy for payment calls", "Retry five times with exponential backoff",
		attacker(turns(
			"1|Backoff without jitter synchronises the retries|Retry five times with exponential backoff|-1|340|Every client sleeps the same base << attempt, so after an outage they all come back in lockstep: a thundering herd.|retry.go:20-22",
			"2|Add full jitter to every backoff|Retry five times with exponential backoff and full jitter|-1|260|Full jitter spreads them.|retry.go:21",
			"3||||40|")).as("openai:qwen2.5:7b-instruct"),
		defender(turns(
			"1|Retry five times with exponential backoff||0|180|Five tries ride out a blip.",
			"2|Retry five times with exponential backoff and full jitter||1|220|Adopted: jitter it is.")).as("script:/srv/agents/proposer.json"),
	)
	writeGateLog(t, f.root)

	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	ctx := browser(t)
	shots := t.TempDir()

	t.Run("verdict without scrolling", func(t *testing.T) {
		step(t, ctx, "open the debate", chromedp.EmulateViewport(1200, 800), chromedp.Navigate(ts.URL+"/debates/"+id), chromedp.WaitVisible(chromedp.CSS("#answer")))
		box := value(t, ctx, "answer box", chromedp.Evaluate[[]float64](`(() => { const r = document.getElementById("answer").getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight, window.scrollY]; })()`))
		if box[0] < 0 || box[1] > box[2] || box[3] != 0 {
			t.Errorf("the answer is not on the first screen: top %.0f, bottom %.0f, viewport %.0f, scrolled %.0f", box[0], box[1], box[2], box[3])
		}
		answer := value(t, ctx, "answer", chromedp.Text(chromedp.CSS("#answer")))
		has(t, "the answer", answer, "CONSENSUS_REACHED", "→ proceed", "FINAL POSITION", "Retry five times with exponential backoff and full jitter")
		// Above the answer is only the title: the thread and the
		// transcript's facts come after it.
		order := value(t, ctx, "order", chromedp.Evaluate[bool](`document.querySelector("h1").compareDocumentPosition(document.getElementById("answer")) & Node.DOCUMENT_POSITION_FOLLOWING && document.getElementById("answer").compareDocumentPosition(document.getElementById("thread")) & Node.DOCUMENT_POSITION_FOLLOWING ? true : false`))
		if !order {
			t.Error("the answer is not between the title and the thread")
		}
		png := value(t, ctx, "viewport screenshot", chromedp.CaptureScreenshot())
		keep(t, shots, "answer-first-screen", png)
		parts := value(t, ctx, "participants", chromedp.Text(chromedp.CSS("dl.meta")))
		has(t, "the participants", parts, "openai qwen2.5:7b-instruct", "script proposer.json")
	})

	t.Run("context document", func(t *testing.T) {
		summary := value(t, ctx, "context summary", chromedp.Text(chromedp.CSS("details.context-doc summary")))
		has(t, "the context's summary", summary, "proposal.md", fmt.Sprintf("%d characters", len([]rune(proposalDoc))))
		if open := value(t, ctx, "collapsed", chromedp.Evaluate[bool](`document.querySelector("details.context-doc").open`)); open {
			t.Error("the context document is open on load; it should be collapsed")
		}
		step(t, ctx, "open the context", chromedp.Click(chromedp.CSS("details.context-doc summary")), chromedp.WaitVisible(chromedp.CSS("details.context-doc pre.context-text")))
		text := value(t, ctx, "context text", chromedp.Text(chromedp.CSS("details.context-doc pre.context-text")))
		has(t, "the context", text, "# Retry policy", "Retry failed calls five times with exponential backoff.", "<script>window.__pwned='context'</script>", "Owner: payments platform.")
		if pwned := value(t, ctx, "pwned", chromedp.Evaluate[string](`String(window.__pwned)`)); pwned != "undefined" {
			t.Fatalf("the context document ran a script: %s", pwned)
		}
		if n := value(t, ctx, "elements", chromedp.Evaluate[int](`document.querySelectorAll("details.context-doc script, details.context-doc img").length`)); n != 0 {
			t.Errorf("%d script or img elements from the context document", n)
		}
		step(t, ctx, "scroll to the context", chromedp.ScrollIntoView(chromedp.CSS("details.context-doc")))
		keep(t, shots, "context", value(t, ctx, "context screenshot", chromedp.Screenshot(chromedp.CSS("details.context-doc"))))
	})

	t.Run("charts", func(t *testing.T) {
		bars := value(t, ctx, "bars", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#chart-tokens rect.bar title")].map(t => t.textContent)`))
		// 3 rounds × 2 participants; the attacker's round-1 turn is 340.
		if len(bars) != 6 || !strings.Contains(strings.Join(bars, "\n"), "round 1, Attacker1-") || !strings.Contains(strings.Join(bars, "\n"), ": 340 tokens") {
			t.Errorf("token bars: %q", bars)
		}
		heights := value(t, ctx, "bar heights", chromedp.Evaluate[[]float64](`[...document.querySelectorAll("#chart-tokens rect.bar")].map(r => r.getBoundingClientRect().height)`))
		if len(heights) != 6 || heights[0] <= heights[2] || heights[0] == 0 {
			t.Errorf("the round-1 attacker bar (340) is not drawn taller than the round-2 one (260): %v", heights)
		}
		if n := value(t, ctx, "allowance", chromedp.Evaluate[int](`document.querySelectorAll("#chart-tokens line.allowance").length`)); n != 1 {
			t.Errorf("no allowance line in the token chart (%d)", n)
		}
		pos := value(t, ctx, "positions", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#chart-positions g.pos title")].map(t => t.textContent)`))
		has(t, "the positions chart", strings.Join(pos, "\n"), "round 1: Attacker1-", "moves to A", "holds B: Retry five times with exponential backoff", "round 2: Defender1-", "moves to D")
		legend := value(t, ctx, "legend", chromedp.Text(chromedp.CSS("#chart-positions ol.legend")))
		has(t, "the legend", legend, "Backoff without jitter synchronises the retries", "Retry five times with exponential backoff and full jitter")
		step(t, ctx, "scroll to the charts", chromedp.ScrollIntoView(chromedp.CSS(".charts")))
		keep(t, shots, "charts", value(t, ctx, "charts screenshot", chromedp.Screenshot(chromedp.CSS(".charts"))))
	})

	t.Run("evidence opens the cited lines", func(t *testing.T) {
		sel := `a[href="/debates/` + id + `/evidence?ref=` + url.QueryEscape("retry.go:20-22") + `#L20"]`
		step(t, ctx, "follow the evidence link", chromedp.Navigate(ts.URL+"/debates/"+id), chromedp.ScrollIntoView(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel)),
			chromedp.WaitVisible(chromedp.CSS("table.source")))
		if loc := value(t, ctx, "location", chromedp.Location()); !strings.Contains(loc, "/evidence?ref=retry.go%3A20-22#L20") {
			t.Errorf("location %s", loc)
		}
		cited := value(t, ctx, "cited lines", chromedp.Evaluate[[]string](`[...document.querySelectorAll("tr.cited")].map(r => r.id + " " + r.querySelector("pre").textContent)`))
		want := []string{"L20 for attempt := 0; attempt < 5; attempt++ {", "L21 \ttime.Sleep(base << attempt) // <b>no jitter</b>", "L22 }"}
		if strings.Join(cited, "\n") != strings.Join(want, "\n") {
			t.Errorf("cited lines %q, want %q", cited, want)
		}
		if n := value(t, ctx, "shown", chromedp.Evaluate[int](`document.querySelectorAll("table.source tr").length`)); n != 3+2*evidenceContext {
			t.Errorf("%d lines shown, want the 3 cited and %d around them", n, 2*evidenceContext)
		}
		has(t, "the heading", value(t, ctx, "h1", chromedp.Text(chromedp.CSS("h1"))), "retry.go", "lines 20–22")
		png := value(t, ctx, "viewport screenshot", chromedp.CaptureScreenshot())
		keep(t, shots, "evidence", png)
	})

	t.Run("gate chart on the index", func(t *testing.T) {
		step(t, ctx, "load the index", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#chart-gate svg")))
		cap := value(t, ctx, "caption", chromedp.Text(chromedp.CSS("#chart-gate figcaption")))
		saved := 5 * debate.DefaultBudget(debate.LayerSpec).MaxTokens
		has(t, "the gate chart", cap, "8 questions, 3 sent to a debate, 5 skipped", fmt.Sprintf("about %d tokens saved", saved))
		counts := value(t, ctx, "bars", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#chart-gate rect title")].map(t => t.textContent)`))
		has(t, "the gate bars", strings.Join(counts, "\n"), "2026-11-28: 2 debated", "2026-11-29: 2 skipped", "2026-11-30: 3 skipped")
		if n := value(t, ctx, "line", chromedp.Evaluate[int](`document.querySelectorAll("#chart-gate polyline.saved").length`)); n != 1 {
			t.Errorf("no tokens-saved line (%d)", n)
		}
		keep(t, shots, "gate-chart", value(t, ctx, "gate screenshot", chromedp.Screenshot(chromedp.CSS("#chart-gate"))))
	})

	t.Run("consensus list", func(t *testing.T) {
		step(t, ctx, "load the records", chromedp.Navigate(ts.URL+"/consensus"), chromedp.WaitVisible(chromedp.CSS("table.records")))
		row := value(t, ctx, "row", chromedp.Text(chromedp.CSS("table.records tbody tr")))
		has(t, "the record's row", row, "Retry policy for payment calls", "Retry five times with exponential backoff and full jitter", "proceed", "CONSENSUS_REACHED")
		png := value(t, ctx, "viewport screenshot", chromedp.CaptureScreenshot())
		keep(t, shots, "consensus-list", png)
	})

	t.Run("search covers turns", func(t *testing.T) {
		// "lockstep" and "herd" are in the attacker's argument only.
		step(t, ctx, "search", chromedp.Navigate(ts.URL+"/search?q="+url.QueryEscape("lockstep herd")), chromedp.WaitVisible(chromedp.CSS(".results")))
		text := value(t, ctx, "results", chromedp.Text(chromedp.CSS("main")))
		has(t, "the results", text, "Retry policy for payment calls", "round 1, Attacker1-", "argument", "lockstep")
		step(t, ctx, "open the hit", chromedp.Click(chromedp.CSS(`.results a[href^="/debates/`+id+`#line-"]`)), chromedp.WaitVisible(chromedp.CSS("#thread")))
		keep(t, shots, "search-turns", value(t, ctx, "viewport screenshot", chromedp.CaptureScreenshot()))
	})
}

// keep saves a screenshot as <dir>/<name>.png (and a copy under
// PARLEY_SCREENSHOTS), after checking it is a PNG with something in it.
func keep(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if len(png) < 1000 || !strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n") {
		t.Fatalf("screenshot %s: %d bytes, not a PNG of a page", name, len(png))
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o600); err != nil {
		t.Fatal(err)
	}
	if d := os.Getenv("PARLEY_SCREENSHOTS"); d != "" {
		_ = os.WriteFile(filepath.Join(d, name+".png"), png, 0o644)
	}
}

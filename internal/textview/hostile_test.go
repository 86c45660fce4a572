package textview

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/transcripts"
)

// hostile is text an agent or a vault file could hold: an escape sequence
// that clears the screen, a carriage return that overwrites the line, a
// C1 CSI, a bidi override that reorders what a reader sees, a line
// separator, and a newline that would forge a line of output.
const hostile = "ok\x1b[2J\rFORGED\u009b31m\u202eevil\u2028\nparley: conflict"

// assertSafe fails when out holds anything that could drive a terminal: a
// control character other than newline and tab, a bidi control or a
// Unicode line separator; or when it is not valid UTF-8.
func assertSafe(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: not UTF-8: %q", what, out)
	}
	for _, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			t.Errorf("%s: %U reaches the terminal: %q", what, r, out)
			return
		}
	}
}

// lines counts the lines of out that start with prefix: an agent's
// newline must not add one.
func lines(out, prefix string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func record(topic, final string) consensus.Record {
	return consensus.Record{Summary: debate.Summary{DebateID: "20261201-spec-x-abcdef", Topic: topic, Layer: "spec",
		Verdict: debate.ConsensusReached, Action: debate.ActionProceed, FinalPosition: final},
		Name: "spec-x" + topic, Path: "wiki/consensus/spec-x.md", Status: consensus.StatusActive, Date: "2026-12-01"}
}

func TestConsensusViewsAreSafe(t *testing.T) {
	t.Parallel()
	r := record(hostile, hostile)
	var b bytes.Buffer
	if err := Records(&b, []consensus.Record{r}, "/v/wiki/consensus", true); err != nil {
		t.Fatal(err)
	}
	assertSafe(t, "Records", b.String())
	if got := strings.Count(b.String(), "\n"); got != 2 {
		t.Errorf("Records: a header and one record should be 2 lines, got %d:\n%s", got, b.String())
	}
	if !strings.HasPrefix(b.String(), "DATE ") || !strings.Contains(b.String(), "2026-12-01  spec   CONSENSUS_REACHED  proceed  active") {
		t.Errorf("Records:\n%s", b.String())
	}
	b.Reset()
	if err := Records(&b, nil, "/v/wiki/consensus", true); err != nil || b.String() != "no consensus records in /v/wiki/consensus\n" {
		t.Errorf("no records: %q %v", b.String(), err)
	}

	b.Reset()
	if err := SearchHits(&b, []app.SearchHit{{Record: r, Score: 1.23456}}, hostile); err != nil {
		t.Fatal(err)
	}
	assertSafe(t, "SearchHits", b.String())
	if !strings.HasPrefix(b.String(), " 1.235  spec    CONSENSUS_REACHED  active      spec-xok") || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("SearchHits: %q", b.String())
	}
	b.Reset()
	_ = SearchHits(&b, nil, "a\x1bquery")
	assertSafe(t, "SearchHits (none)", b.String())

	b.Reset()
	if err := RecordPage(&b, &app.RecordPage{Record: r, File: "/v/" + hostile, Body: "# T\n" + hostile + "\n"}); err != nil {
		t.Fatal(err)
	}
	assertSafe(t, "RecordPage", b.String())
}

// Every answer of a check is worded, with the position and what differs
// on one line each however the agents wrote them, and the warnings and the
// message of exit 3 come from the verdict: conflict and tampered block,
// unclear blocks unless lenient, open warns, consistent and none are quiet.
func TestCheckWordsEveryAnswer(t *testing.T) {
	t.Parallel()
	rec := record("Thumbnail format", "Thumbnails are WebP\nat quality 80")
	for _, tc := range []struct {
		status            consensus.CheckStatus
		lenient           bool
		first, warn, exit string
	}{
		{consensus.CheckConsistent, false, "consistent: the position agrees with the active consensus /v/r.md (score 0.50)", "", ""},
		{consensus.CheckConflict, true, "conflict: the position contradicts the active consensus /v/r.md", "", "conflict: the position contradicts the filed consensus /v/r.md"},
		{consensus.CheckUnclear, false, "unclear: parley cannot tell", "", "unclear: parley cannot tell whether the position agrees with /v/r.md; read it, or pass --lenient"},
		{consensus.CheckUnclear, true, "unclear: parley cannot tell", "(--lenient: not blocking)", ""},
		{consensus.CheckOpen, false, "open: /v/r.md records CONSENSUS_REACHED; no position is bound", "the question is open", ""},
		{consensus.CheckTampered, true, "tampered: /v/r.md does not verify", "", "tampered: /v/r.md does not verify against its debate's seal, so it binds nothing: seal\uFFFD[0m"},
		{consensus.CheckNone, false, "none: no consensus filed for spec/thumbnail-format", "", ""},
	} {
		res := &consensus.CheckResult{Status: tc.status, Layer: "spec", Slug: "thumbnail-format", Position: hostile,
			Comparison: consensus.Comparison{Score: 0.5, Differences: []string{"webp → " + hostile}}, Judge: hostile, Problem: "seal\x1b[0m",
			Warnings: []string{"judge: " + hostile}, Related: []consensus.Hit{{Record: record(hostile, ""), Score: 0.4}}}
		if tc.status != consensus.CheckNone {
			res.Record = &rec
		}
		out := &app.CheckResult{Status: tc.status, File: "/v/r.md", Check: res}
		var b bytes.Buffer
		if err := Check(&b, out); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		assertSafe(t, string(tc.status), text)
		if !strings.HasPrefix(text, tc.first) {
			t.Errorf("%s: starts %q, want %q", tc.status, text, tc.first)
		}
		if lines(text, "parley: conflict") != 0 || lines(text, "FORGED") != 0 {
			t.Errorf("%s: an agent's newline forged a line:\n%s", tc.status, text)
		}
		if tc.status == consensus.CheckConflict && (!strings.Contains(text, "    Thumbnails are WebP at quality 80\n") || lines(text, "  differs: webp → ok") != 1) {
			t.Errorf("conflict: the positions and differences:\n%s", text)
		}
		warnings, blocked := CheckEnd(out, tc.lenient)
		if len(warnings) == 0 || !strings.HasPrefix(warnings[0], "judge: ok") {
			t.Errorf("%s: the check's own warning comes first: %q", tc.status, warnings)
		}
		for _, w := range warnings {
			assertSafe(t, "warning", w)
			if strings.Contains(w, "\n") {
				t.Errorf("%s: a warning spans lines: %q", tc.status, w)
			}
		}
		if got := strings.Join(warnings[1:], "|"); !strings.Contains(got, tc.warn) || (tc.warn == "") != (got == "") {
			t.Errorf("%s lenient=%v: warnings %q, want one saying %q", tc.status, tc.lenient, warnings[1:], tc.warn)
		}
		if blocked != tc.exit || (blocked != "") != out.Blocks(tc.lenient) {
			t.Errorf("%s lenient=%v: blocked %q, want %q", tc.status, tc.lenient, blocked, tc.exit)
		}
		assertSafe(t, "blocked", blocked)
	}
}

// A record whose file name holds a newline (the vault is a directory
// anyone with access may add files to) forges no line of a check.
func TestCheckOfAHostileFileName(t *testing.T) {
	t.Parallel()
	rec := record("x\nparley: consistent", "a")
	for _, st := range []consensus.CheckStatus{consensus.CheckConflict, consensus.CheckOpen, consensus.CheckUnclear} {
		out := &app.CheckResult{Status: st, File: "/v/" + hostile + ".md", Check: &consensus.CheckResult{Status: st, Record: &rec}}
		var b bytes.Buffer
		if err := Check(&b, out); err != nil {
			t.Fatal(err)
		}
		assertSafe(t, string(st), b.String())
		warnings, blocked := CheckEnd(out, true)
		text := b.String() + strings.Join(warnings, "\n") + "\n" + blocked
		if lines(text, "parley: c") != 0 {
			t.Errorf("%s: a file name forged a line:\n%s", st, text)
		}
	}
}

func TestDecisionCuesAreSafe(t *testing.T) {
	t.Parallel()
	for _, mode := range []gating.Mode{gating.ModeModel, gating.ModeRules} {
		d := gating.Decision{Outcome: gating.Debate, Score: 0.9, Threshold: 0.2, Mode: mode, Model: "embedded",
			Cues:   []gating.Cue{{Feature: "hedge_density", Value: 1.5, Weight: 0.25, Text: hostile}},
			Parsed: &gating.Parsed{Form: "text", Notes: []string{hostile}}}
		var b bytes.Buffer
		if err := GateDecision(&b, &app.GateDecision{ID: "3f9a2c1e", Decision: d, Labellable: true}, "parley gate label --decision 3f9a2c1e"); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		assertSafe(t, string(mode), text)
		if lines(text, "parley: conflict") != 0 || !strings.HasPrefix(text, "id:       3f9a2c1e (label it later: parley gate label --decision 3f9a2c1e --debate, or --skip)\ndecision: debate\n") {
			t.Errorf("%s:\n%s", mode, text)
		}
		cmp := map[gating.Mode]string{gating.ModeModel: "≥", gating.ModeRules: ">"}[mode]
		if !strings.Contains(text, "score:    0.900 (debate iff score "+cmp+" threshold 0.200; mode "+string(mode)+", layer unknown)\n") {
			t.Errorf("%s: the score line:\n%s", mode, text)
		}
	}
	var b bytes.Buffer
	_ = Decision(&b, gating.Decision{Outcome: gating.Skip, Mode: gating.ModeRules, Layer: "verify"})
	if !strings.HasSuffix(b.String(), "cues:     none fired\n") {
		t.Errorf("no cue:\n%s", b.String())
	}
}

func TestTranscriptViewsAreSafe(t *testing.T) {
	t.Parallel()
	s := transcripts.Summary{Summary: debate.Summary{DebateID: "20261201-spec-x-abcdef", Topic: hostile, Layer: debate.Layer("sp\x1bec"), Rounds: 2, Tokens: 470},
		Created: "2026-12-01T10:00:00Z", State: "running", Integrity: "verified"}
	var b bytes.Buffer
	if err := Transcripts(&b, []transcripts.Summary{s}, "/r", true); err != nil {
		t.Fatal(err)
	}
	assertSafe(t, "Transcripts", b.String())
	if got := strings.Split(b.String(), "\n"); len(got) != 3 || !strings.HasPrefix(got[1], "2026-12-01  sp\uFFFDec   (running)  ") {
		t.Errorf("Transcripts:\n%s", b.String())
	}
	b.Reset()
	in := transcripts.Integrity{Intact: false, BadLine: 3, Problem: hostile,
		Files: []transcripts.FileCheck{{File: "debates/x/" + hostile, Status: transcripts.FileDiffers, Problem: hostile, Want: hostile}}}
	if err := Audit(&b, &app.Verification{Report: transcripts.Report{ID: "20261201-spec-x-abcdef"}, Integrity: in}, "parley debate resume 20261201-spec-x-abcdef"); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	assertSafe(t, "Audit", text)
	if !strings.HasPrefix(text, "20261201-spec-x-abcdef: TAMPERED at line 3: ok") || lines(text, "parley: conflict") != 0 || strings.Count(text, "\n") != 3 {
		t.Errorf("Audit:\n%s", text)
	}
}

func TestLintFindingsAreSafe(t *testing.T) {
	t.Parallel()
	found := []app.LintFinding{
		{Kind: app.LintContradiction, Page: "wiki/consensus/a.md", Other: "wiki/consensus/" + hostile, Differences: []string{"5 → 10", hostile}},
		{Kind: app.LintBrokenLink, Page: hostile, Link: "[[" + hostile + "]]", Problem: "no such page"},
		{Kind: app.LintOrphan, Page: "wiki/o.md", Problem: "no other page links to it"},
		{Kind: app.LintStale, Page: "wiki/consensus/a.md", Ref: "x.go:1-3", Problem: "the lines changed"},
	}
	var b bytes.Buffer
	if err := LintFindings(&b, found, "/v/"); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	assertSafe(t, "LintFindings", text)
	want := []string{"contradiction wiki/consensus/a.md ↔ wiki/consensus/ok", "broken_link ok", "orphan wiki/o.md: no other page links to it", "stale wiki/consensus/a.md x.go:1-3: the lines changed"}
	got := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("one line per finding, got:\n%s", text)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d: %q, want it to start %q", i, got[i], want[i])
		}
	}
	b.Reset()
	if err := LintFindings(&b, nil, "/v/"); err != nil || b.String() != "vault lint: nothing found in /v\n" {
		t.Errorf("clean: %q %v", b.String(), err)
	}
}

// The gate's decision before a debate names its source and its id; a
// skipped debate says which topic did not run (quoted: a topic cannot
// drive the terminal) and where the decision is recorded.
func TestGateBeforeDebate(t *testing.T) {
	t.Parallel()
	for _, outcome := range []gating.Outcome{gating.Skip, gating.Debate} {
		e := gating.LogEntry{ID: "7c01d2e3", Decision: gating.Decision{Outcome: outcome, Mode: gating.ModeRules, Layer: "plan"}}
		var b bytes.Buffer
		if err := GateBeforeDebate(&b, "critique.md", e, hostile, "/r/gate.jsonl"); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		assertSafe(t, string(outcome), text)
		if !strings.HasPrefix(text, "gate (critique.md, decision 7c01d2e3): decision: "+string(outcome)+"\n") {
			t.Errorf("%s:\n%s", outcome, text)
		}
		skipped := strings.Contains(text, "\nno debate: the gate skipped \"") && strings.HasSuffix(text, " (recorded in /r/gate.jsonl)\n")
		if skipped != (outcome == gating.Skip) || strings.HasSuffix(text, "\n\n") != (outcome == gating.Debate) {
			t.Errorf("%s: skipped %v:\n%s", outcome, skipped, text)
		}
	}
}

// A record whose seal could not be checked (its debate is not under the
// root: a vault synced without it, or the debate's folder removed) is
// answered from, with a warning that says so; before, only --json's
// "unsealed" told, and the text said "consistent" as for a verified one.
func TestCheckSaysTheSealWasNotChecked(t *testing.T) {
	t.Parallel()
	rec := record("Thumbnails", "WebP")
	res := &consensus.CheckResult{Status: consensus.CheckConsistent, Record: &rec,
		Unsealed: "the record's debate is not here to check its seal against: debate 20260101-spec-x-abcdef is not under /r"}
	warnings, blocked := CheckEnd(&app.CheckResult{Status: res.Status, File: "/v/r.md", Check: res}, false)
	if blocked != "" || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "seal not checked: the record's debate is not here") || !strings.Contains(warnings[0], "/v/r.md") {
		t.Errorf("warnings %q, blocked %q", warnings, blocked)
	}
}

// A conflict answered from a record whose seal could not be checked says
// so too: the warning was given for a consistent answer only, and the
// conflict that blocks the caller rested, unsaid, on a record nothing
// verified.
func TestABlockingCheckSaysTheSealWasNotChecked(t *testing.T) {
	t.Parallel()
	rec := record("Thumbnails", "WebP")
	res := &consensus.CheckResult{Status: consensus.CheckConflict, Record: &rec,
		Unsealed: "the record's debate is not here to check its seal against: debate 20260101-spec-x-abcdef is not under /r"}
	warnings, blocked := CheckEnd(&app.CheckResult{Status: res.Status, File: "/v/r.md", Check: res}, false)
	if !strings.HasPrefix(blocked, "conflict: ") || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "seal not checked: the record's debate is not here") || !strings.Contains(warnings[0], "/v/r.md") {
		t.Errorf("warnings %q, blocked %q", warnings, blocked)
	}
}

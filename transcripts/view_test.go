package transcripts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/vault"
)

// tamper replaces the first occurrence of old in debate id's transcript.
func tamper(t testing.TB, dir, id, old, new string) {
	t.Helper()
	p := filepath.Join(dir, "debates", id, TranscriptFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%q is not in the transcript", old)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readView(t testing.TB, s *Store, id string) *View {
	t.Helper()
	tr, err := s.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	return NewView(tr)
}

func TestViewOfAnIntactDebate(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	writeDebate(t, s, testID, 8, true).Close()
	v := readView(t, s, testID)
	if !v.Integrity.Intact || !v.Integrity.Sealed || v.Integrity.Events != 9 || v.State != StateClosed {
		t.Fatalf("integrity %+v state %s", v.Integrity, v.State)
	}
	// Events 2..7 are request/turn pairs: turns at 3, 5 (round 1) and 7 (round 2).
	if len(v.Rounds) != 2 || v.Rounds[0].N != 1 || len(v.Rounds[0].Entries) != 2 || len(v.Rounds[1].Entries) != 1 || v.Rounds[1].N != 2 {
		t.Fatalf("rounds %+v", v.Rounds)
	}
	if e := v.Rounds[0].Entries[0]; e.Line != 3 || e.Turn == nil || e.Turn.Agent != "Critic" || e.Unverified {
		t.Fatalf("entry %+v", e)
	}
	if v.Turns != 3 || v.Tokens != 300 || v.Verdict == nil || v.Verdict.Verdict != debate.Deadlock || v.Record != "wiki/consensus/spec-idempotency-keys.md" {
		t.Fatalf("view %+v", v)
	}
}

func TestTamperedTranscriptIsShownAsTampered(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 8, true).Close()
	tamper(t, dir, testID, "position 5", "position X")
	v := readView(t, s, testID)
	if v.Integrity.Intact || v.Integrity.BadLine != 5 || !v.Integrity.Tampered() || v.Integrity.Summary() != "tampered at line 5" {
		t.Fatalf("integrity %+v", v.Integrity)
	}
	// The edited line is still shown, as it now reads, marked unverified,
	// and so is everything after it; what comes before is not marked.
	var lines []int
	var marks []bool
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			lines, marks = append(lines, e.Line), append(marks, e.Unverified)
			if e.Line == 5 && e.Turn.Position != "position X" {
				t.Errorf("line 5 shows %q", e.Turn.Position)
			}
		}
	}
	if want := []int{3, 5, 7}; !equalInts(lines, want) || marks[0] || !marks[1] || !marks[2] {
		t.Fatalf("lines %v unverified %v", lines, marks)
	}

	var text bytes.Buffer
	if err := RenderText(&text, v); err != nil {
		t.Fatal(err)
	}
	if out := text.String(); !strings.HasPrefix(out, "!! TAMPERED: line 5 its content does not match its hash") || !strings.Contains(out, "line 5  UNVERIFIED") || strings.Contains(out, "line 3  UNVERIFIED") {
		t.Errorf("text:\n%s", out)
	}
	md := string(RenderMarkdownView(v))
	if !strings.Contains(md, "> [!danger] TAMPERED: this transcript does not verify\n> Line 5 its content does not match its hash") || !strings.Contains(md, "— **unverified**") {
		t.Errorf("markdown:\n%s", md)
	}
	var html bytes.Buffer
	if err := RenderHTML(&html, v, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	for _, want := range []string{`class="integrity bad"`, `class="banner tampered" role="alert"`, "Line 5 its content does not match its hash", `class="turn attacker unverified" id="line-5"`} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	var js bytes.Buffer
	json.NewEncoder(&js).Encode(v)
	var back struct {
		Integrity struct {
			Intact  bool `json:"intact"`
			BadLine int  `json:"bad_line"`
		} `json:"integrity"`
	}
	if json.Unmarshal(js.Bytes(), &back) != nil || back.Integrity.Intact || back.Integrity.BadLine != 5 {
		t.Errorf("JSON: %s", js.String())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHostileArgumentsAreText(t *testing.T) {
	t.Parallel()
	s := hostileDebate(t, `Keys <img src=x onerror=alert(1)>`, debate.TurnRecord{
		Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Position: "<script>alert(1)</script>", CounterTo: "x",
			Text: "</blockquote><script>alert(2)</script>\n\x1b[31mred"},
		Agent: "Critic", Evidence: []debate.EvidenceCheck{{Ref: "javascript:alert(3)", Kind: "url", Status: debate.EvidenceUnchecked}, {Ref: "https://example.org/a?b=<c>", Kind: "url", Status: debate.EvidenceUnchecked},
			{Ref: `x" onmouseover="alert(4)`, Kind: "path", Status: debate.EvidenceStatus(`ok" onmouseover="alert(5)`)}},
	})
	v := readView(t, s, testID)
	var html bytes.Buffer
	if err := RenderHTML(&html, v, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	if strings.Contains(h, "<script>") || strings.Contains(h, "<img") || strings.Contains(h, `href="javascript`) || strings.Contains(h, `" onmouseover=`) {
		t.Errorf("HTML lets markup through:\n%s", h)
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;/blockquote&gt;&lt;script&gt;alert(2)", `href="https://example.org/a?b=&lt;c&gt;"`} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	md := string(RenderMarkdownView(v))
	if strings.Contains(md, "<script>") || strings.Contains(md, "<img") || !strings.Contains(md, "&lt;script&gt;alert(1)") {
		t.Errorf("Markdown lets markup through:\n%s", md)
	}
	var text bytes.Buffer
	RenderText(&text, v)
	if strings.Contains(text.String(), "\x1b") {
		t.Errorf("text passes an escape sequence to the terminal: %q", text.String())
	}
}

func TestRunningDebateWithAPartialLine(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	l := writeDebate(t, s, testID, 6, false) // held open: running
	defer l.Close()
	f, err := os.OpenFile(filepath.Join(dir, "debates", testID, TranscriptFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"prev":"half a line being writ`)
	f.Close()
	v := readView(t, s, testID)
	if v.State != StateRunning || !v.Integrity.Intact || v.Integrity.Sealed || v.Integrity.Events != 6 || v.Integrity.Summary() != "verified so far" {
		t.Fatalf("a running debate mid-write: %s %+v", v.State, v.Integrity)
	}
	l.Close()
	// Interrupted with a torn line: that is reported, as verify does.
	v = readView(t, s, testID)
	if v.State != StateInterrupted || v.Integrity.Intact || v.Integrity.BadLine != 7 {
		t.Fatalf("an interrupted debate with a torn line: %s %+v", v.State, v.Integrity)
	}
}

func TestWriteAndCheckPage(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	v, err := vault.Create(filepath.Join(dir, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	l := writeDebate(t, s, testID, 8, false)
	tr, err := s.Read(testID)
	if err != nil {
		t.Fatal(err)
	}
	o := &debate.Outcome{DebateID: testID, Verdict: debate.Deadlock, Action: debate.ActionEscalate, Closed: "2026-01-02T03:04:05.000Z"}
	if err := WritePage(v, tr, o, "wiki/consensus/spec-idempotency-keys.md"); err != nil {
		t.Fatal(err)
	}
	// The page records the chain at the verdict; sealing appends the seal
	// event after it.
	l.Seal(context.Background(), o, "wiki/consensus/spec-idempotency-keys.md")
	l.Close()
	page, err := v.ReadPage(PagePath(testID))
	if err != nil {
		t.Fatal(err)
	}
	m := page.Meta
	rep := *tr.Report // the chain at the verdict
	if m["type"] != "debate" || m["layer"] != "spec" || m["verdict"] != "DEADLOCK" || m["topic"] != "Idempotency keys" ||
		m["record"] != "[[spec-idempotency-keys]]" || m[PageHeadKey] != rep.Head || m["date"] == nil {
		t.Fatalf("frontmatter %v", m)
	}
	if ps, _ := m["participants"].([]any); len(ps) != 2 || ps[0] != "Critic" {
		t.Fatalf("participants %v", m["participants"])
	}
	if !strings.Contains(string(page.Body), "[[spec-idempotency-keys]]") {
		t.Errorf("the body does not link the record:\n%s", page.Body)
	}
	if pc := CheckPage(v, testID, &rep); pc.Status != PageMatches {
		t.Fatalf("check %+v", pc)
	}

	// A transcript rewritten whole, as a valid chain with a new seal: the
	// chain verifies, the vault page tells.
	rewriteWhole(t, s, dir, testID, "position 5", "position X")
	rep, _ = s.Verify(testID)
	if !rep.Intact {
		t.Fatalf("the rewritten chain should verify: %+v", rep)
	}
	pc := CheckPage(v, testID, &rep)
	if pc.Status != PageDiffers || !strings.Contains(pc.Problem, "records head") {
		t.Fatalf("check after a rewrite %+v", pc)
	}
	// The same check on the page a caller already read.
	if read := CheckReadPage(page, testID, &rep); *read != *pc {
		t.Fatalf("CheckReadPage %+v, CheckPage %+v", read, pc)
	}
	view := readView(t, s, testID)
	view.Integrity.Page = pc
	if !view.Integrity.Tampered() || view.Integrity.Summary() != "vault page differs" {
		t.Fatalf("integrity %+v", view.Integrity)
	}
	var text bytes.Buffer
	RenderText(&text, view)
	if !strings.HasPrefix(text.String(), "!! VAULT PAGE DIFFERS: the vault page wiki/debates/") {
		t.Errorf("text:\n%s", text.String())
	}

	if pc := CheckPage(v, "20260101-spec-other-abcdef", &rep); pc.Status != PageMissing {
		t.Errorf("no page: %+v", pc)
	}
	os.WriteFile(filepath.Join(dir, "vault", "wiki", "debates", "20260101-spec-hand-abcdef.md"), []byte("---\ntype: debate\n---\nwritten by hand\n"), 0o600)
	if pc := CheckPage(v, "20260101-spec-hand-abcdef", &rep); pc.Status != PageNoHead {
		t.Errorf("a page without a head: %+v", pc)
	}

	// No page for a tampered transcript.
	tamper(t, dir, testID, "position 3", "position Y")
	tr, _ = s.Read(testID)
	var te *TamperError
	if err := WritePage(v, tr, o, ""); !asTamper(err, &te) || te.Line != 3 {
		t.Errorf("WritePage of a tampered transcript: %v", err)
	}
}

// rewriteWhole re-encodes debate id's transcript with old replaced by new
// as a valid chain, and rewrites verdict.json to match: what someone who
// knows the format could do.
func rewriteWhole(t testing.TB, s *Store, dir, id, old, new string) {
	t.Helper()
	events, err := s.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	prev := Genesis(id)
	for i := range events {
		e := events[i]
		e.Data = bytes.ReplaceAll(e.Data, []byte(old), []byte(new))
		line, hash, err := encodeLine(prev, &e)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
		prev = hash
	}
	os.WriteFile(filepath.Join(dir, "debates", id, TranscriptFile), buf.Bytes(), 0o600)
	v, _ := s.Verdict(id)
	v.Head = prev
	data, _ := json.MarshalIndent(v, "", "  ")
	os.WriteFile(filepath.Join(dir, "debates", id, VerdictFile), data, 0o600)
}

func asTamper(err error, te **TamperError) bool {
	t, ok := err.(*TamperError)
	*te = t
	return ok
}

func TestFilter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	sum := Summary{Summary: debate.Summary{DebateID: "20260308-plan-rate-limits-abcdef", Topic: "Rate limits for the API", Layer: debate.LayerPlan, Verdict: debate.Deadlock}, State: StateClosed, Created: "2026-03-08T09:00:00.000Z"}
	since := func(s string) time.Time {
		t.Helper()
		v, err := ParseSince(s, now)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for name, tc := range map[string]struct {
		f    Filter
		want bool
	}{
		"empty":                  {Filter{}, true},
		"layer":                  {Filter{Layer: debate.LayerPlan}, true},
		"other layer":            {Filter{Layer: debate.LayerSpec}, false},
		"verdict":                {Filter{Verdict: debate.Deadlock}, true},
		"other verdict":          {Filter{Verdict: debate.ConsensusReached}, false},
		"state":                  {Filter{State: StateRunning}, false},
		"since a date":           {Filter{Since: since("2026-03-08")}, true},
		"since later date":       {Filter{Since: since("2026-03-09")}, false},
		"since 3d":               {Filter{Since: since("3d")}, true},
		"since 24h":              {Filter{Since: since("24h")}, false},
		"since RFC 3339":         {Filter{Since: since("2026-03-08T08:59:00Z")}, true},
		"text, any case":         {Filter{Text: "RATE api"}, true},
		"text in the id":         {Filter{Text: "abcdef"}, true},
		"text, one word missing": {Filter{Text: "rate quota"}, false},
	} {
		if got := tc.f.Match(&sum); got != tc.want {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	for _, bad := range []string{"yesterday", "-3d", "3x", ""} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) accepted", bad)
		}
	}
}

func TestFindAndProgressOfAnUnsealedDebate(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	writeDebate(t, s, testID, 8, true).Close()
	other := "20260102-plan-another-topic-bcdefg"
	l := writeDebate(t, s, other, 10, false)
	defer l.Close()
	// Both sessions are spec debates on one topic: the text finds the id.
	got, err := s.Find(Filter{Layer: debate.LayerSpec, Text: "another"})
	if err != nil || len(got) != 1 || got[0].DebateID != other {
		t.Fatalf("find: %+v %v", got, err)
	}
	if got, _ := s.Find(Filter{Layer: debate.LayerPlan}); len(got) != 0 {
		t.Fatalf("find plan: %+v", got)
	}
	got, _ = s.Find(Filter{State: StateRunning})
	if len(got) != 1 || got[0].DebateID != other || got[0].Rounds != 2 || got[0].Tokens != 400 {
		t.Fatalf("running: %+v", got)
	}
}

func TestARenderingIsNotAnArgument(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	bare := debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker}
	l.Append(ctx, debate.EventTurn, 1, debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Text: debate.RenderTurn(&bare)}, Agent: "Critic"})
	l.Append(ctx, debate.EventTurn, 2, debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleDefender, Position: "p", Text: "a real argument"}, Agent: "Proposer"})
	v := readView(t, s, testID)
	if got := v.Rounds[0].Entries[0].Turn.Text; got != "" {
		t.Errorf("the rendering sent for a turn without argument is shown as its argument: %q", got)
	}
	if got := v.Rounds[0].Entries[1].Turn.Text; got != "a real argument" {
		t.Errorf("argument %q", got)
	}
}

func TestAPageTooLargeLeavesTheArgumentsOut(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	v, err := vault.Create(filepath.Join(dir, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	long := strings.Repeat("A very long argument. ", 20000) // 440 kB each
	for i := 1; i <= 3; i++ {
		l.Append(ctx, debate.EventTurn, int64(i), debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: i, Role: debate.RoleAttacker, Position: fmt.Sprintf("p%d", i), Text: long}, Agent: "Critic"})
	}
	o := &debate.Outcome{DebateID: testID, Verdict: debate.Timeout, Action: debate.ActionEscalate}
	l.Append(ctx, debate.EventVerdict, 4, o)
	tr, err := s.Read(testID)
	if err != nil {
		t.Fatal(err)
	}
	if err := WritePage(v, tr, o, ""); err != nil {
		t.Fatalf("a long debate gets no page: %v", err)
	}
	page, err := v.ReadPage(PagePath(testID))
	if err != nil {
		t.Fatal(err)
	}
	if body := string(page.Body); !strings.Contains(body, fmt.Sprintf("The argument (%d characters) is left out of this page", len(strings.TrimSpace(long)))) || strings.Count(body, "### Critic") != 3 || page.Meta[PageHeadKey] == nil {
		t.Errorf("page of %d bytes:\n%.2000s", len(page.Body), body)
	}
}

func TestRejectionsForfeitsAndResumesAreShown(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	l.Append(ctx, debate.EventRejected, 1, debate.RejectedEvent{Round: 1, Role: debate.RoleAttacker, Agent: "Critic", Reason: "round 2, expected 1"})
	l.Append(ctx, debate.EventForfeit, 2, debate.ForfeitEvent{Round: 1, Role: debate.RoleAttacker, Agent: "Critic", Reason: debate.ForfeitBadReply, Detail: "a second bad reply"})
	l.Append(ctx, debate.EventResume, 3, debate.ResumeEvent{Coordinator: "Coordinator-abcdef", ElapsedMs: 2500})
	l.Append(ctx, debate.EventTurn, 4, debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleDefender, Position: "Hold", Tokens: 7}, Agent: "Proposer", TokensEstimated: true, OverBudget: true})
	l.Append(ctx, debate.EventForfeit, 5, debate.ForfeitEvent{Round: 2, Role: debate.RoleAttacker, Agent: "Critic", Reason: debate.ForfeitDeadline})
	o := &debate.Outcome{DebateID: testID, Verdict: debate.Timeout, Action: debate.ActionEscalate, Rule: debate.RuleWallClock, Reason: "Critic missed its deadline", DefenderPosition: "Hold", Rounds: 2, Tokens: 7}
	l.Append(ctx, debate.EventVerdict, 6, o)
	v := readView(t, s, testID)
	if len(v.Rounds) != 2 || len(v.Rounds[0].Entries) != 4 || v.Rounds[0].Entries[0].Rejected == nil || v.Rounds[0].Entries[1].Forfeit == nil ||
		v.Rounds[0].Entries[2].Resume == nil || v.Rounds[1].Entries[0].Forfeit == nil || v.Verdict == nil || v.Verdict.Verdict != debate.Timeout {
		t.Fatalf("view %+v", v)
	}
	var text, html bytes.Buffer
	RenderText(&text, v)
	RenderHTML(&html, v, HTMLOptions{})
	for _, want := range []string{"! Reply of Critic (attacker, round 1) rejected: round 2, expected 1 · line 2", "✗ Critic (attacker) forfeited: bad_reply (a second bad reply) · line 3",
		"↻ The coordinator was resumed at 2.5 s of active time · line 4", "7 tokens (estimated), over budget", "✗ Critic (attacker) forfeited: deadline · line 6",
		"══ Verdict: TIMEOUT → escalate (wall_clock)", "   Critic missed its deadline"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{`<p class="event rejected" id="line-2">`, `<p class="event forfeit" id="line-3">`, `<p class="event resume" id="line-4">`,
		`<span class="tokens over">7 tokens (estimated), over budget</span>`, `<section class="verdict verdict-TIMEOUT" id="verdict">`} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	md := string(RenderMarkdownView(v))
	for _, want := range []string{"> [!warning] Reply of Critic (attacker, round 1) rejected: round 2, expected 1", "### Critic (attacker) — forfeited\n\nbad_reply: a second bad reply", "_The coordinator was resumed at 2.5 s of active time._"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

// "transcripts verify" of a running debate caught in the middle of a write
// says what Read says: verified so far, not tampered; once the debate is
// interrupted, the torn line is reported.
func TestVerifyOfARunningDebateMidWrite(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	l := writeDebate(t, s, testID, 6, false) // held open: running
	defer l.Close()
	f, err := os.OpenFile(filepath.Join(dir, "debates", testID, TranscriptFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"prev":"half a line being writ`)
	f.Close()
	rep, err := s.Verify(testID)
	if err != nil || !rep.Intact || rep.Sealed || rep.Events != 6 {
		t.Fatalf("verify of a running debate mid-write: %+v %v", rep, err)
	}
	l.Close()
	rep, err = s.Verify(testID)
	if err != nil || rep.Intact || rep.BadLine != 7 {
		t.Fatalf("verify of an interrupted debate with a torn line: %+v %v", rep, err)
	}
}

// A transcript (or session.json) edited to carry terminal escape sequences
// in the fields an agent does not write — names, roles, reasons, statuses,
// the layer — does not drive the terminal of whoever shows it.
func TestTamperedFieldsCannotDriveTheTerminal(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	l := writeDebate(t, s, testID, 8, false)
	ctx := context.Background()
	l.Append(ctx, debate.EventRejected, 9, debate.RejectedEvent{RequestID: "r", Round: 2, Role: debate.RoleAttacker, Agent: "Critic", Reason: "bad"})
	l.Append(ctx, debate.EventForfeit, 10, debate.ForfeitEvent{RequestID: "r", Round: 2, Role: debate.RoleAttacker, Agent: "Critic", Reason: debate.ForfeitBadReply})
	l.Close()
	const esc = `\u001b]0;pwned\u0007\u001b[2J`
	p := filepath.Join(dir, "debates", testID, TranscriptFile)
	data, _ := os.ReadFile(p)
	data = bytes.ReplaceAll(data, []byte(`"agent":"Critic"`), []byte(`"agent":"Critic`+esc+`"`))
	data = bytes.ReplaceAll(data, []byte(`"role":"attacker"`), []byte(`"role":"attacker`+esc+`"`))
	data = bytes.ReplaceAll(data, []byte(`"reason":"bad_reply"`), []byte(`"reason":"bad_reply`+esc+`"`))
	os.WriteFile(p, data, 0o600)
	sp := filepath.Join(dir, "debates", testID, SessionFile)
	sess, _ := os.ReadFile(sp)
	sess = bytes.Replace(sess, []byte(`"layer": "spec"`), []byte(`"layer": "spec`+esc+`"`), 1)
	sess = bytes.Replace(sess, []byte(`"name": "Proposer"`), []byte(`"name": "Proposer`+esc+`"`), 1)
	os.WriteFile(sp, sess, 0o600)
	v := readView(t, s, testID)
	if v.Integrity.Intact {
		t.Fatal("the tampered transcript verifies")
	}
	var text bytes.Buffer
	if err := RenderText(&text, v); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("text passes control characters to the terminal: %q", out)
	}
	if !strings.Contains(out, "Critic") || !strings.Contains(out, "Proposer") {
		t.Fatalf("text lost the names: %q", out)
	}
}

// A debate whose turns alone (positions, counters, a hundred long evidence
// references each) pass the vault's page limit even without the
// arguments still gets a page: a hostile agent must not keep a debate
// from ever being filed (resume would fail the same way for ever).
func TestAPageTooLargeEvenWithoutArguments(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	v, err := vault.Create(filepath.Join(dir, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	var refs []string
	var checks []debate.EvidenceCheck
	for i := 0; i < debate.MaxEvidenceRefs; i++ {
		ref := fmt.Sprintf("%04d-%s.go:1", i, strings.Repeat("x", 3990))
		refs = append(refs, ref)
		checks = append(checks, debate.EvidenceCheck{Ref: ref, Kind: "line", Status: debate.EvidenceMissing, Detail: "no such file in the workspace"})
	}
	long := strings.Repeat("y", debate.MaxPositionLen)
	for i := 1; i <= 4; i++ {
		l.Append(ctx, debate.EventTurn, int64(i), debate.TurnRecord{
			Turn:  debate.Turn{DebateID: testID, Round: i, Role: debate.RoleAttacker, Position: long, CounterTo: long, EvidenceRefs: refs, ConfidenceChange: -1, Text: "arg"},
			Agent: "Critic", Evidence: checks,
		})
	}
	o := &debate.Outcome{DebateID: testID, Verdict: debate.Timeout, Action: debate.ActionEscalate, Rule: debate.RuleWallClock, Reason: "the wall clock passed"}
	l.Append(ctx, debate.EventVerdict, 5, o)
	tr, err := s.Read(testID)
	if err != nil {
		t.Fatal(err)
	}
	if err := WritePage(v, tr, o, "wiki/consensus/spec-x.md"); err != nil {
		t.Fatalf("the debate gets no page: %v", err)
	}
	page, err := v.ReadPage(PagePath(testID))
	if err != nil {
		t.Fatal(err)
	}
	body := string(page.Body)
	if !strings.Contains(body, "## Verdict: TIMEOUT") || !strings.Contains(body, "parley transcripts show "+testID) ||
		!strings.Contains(body, "[[spec-x]]") || page.Meta[PageHeadKey] == nil {
		t.Errorf("page of %d bytes:\n%.3000s", len(page.Body), body)
	}
}

// A coordinator that stopped before the verdict (Ctrl-C, an error) shows
// as a line of its own, before the resume that took over, with the active
// time it had spent; a clock checkpoint is not shown. What the stop's
// detail says is escaped in every form.
func TestAStopIsShownAndACheckpointIsNot(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	sess := testSession(testID)
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	l.Append(ctx, debate.EventTurn, 4, debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleDefender, Position: "Hold", Tokens: 7}, Agent: "Proposer"})
	l.Append(ctx, debate.EventClock, 5000, debate.ClockEvent{Reason: debate.ClockCheckpoint})
	l.Append(ctx, debate.EventClock, 6000, debate.ClockEvent{Reason: debate.ClockStopped, Detail: "disk <full> [[x]] #tag"})
	l.Append(ctx, debate.EventResume, 6000, debate.ResumeEvent{Coordinator: "Coordinator-abcdef", ElapsedMs: 6000})
	v := readView(t, s, testID)
	if len(v.Rounds) != 1 || len(v.Rounds[0].Entries) != 3 || v.Rounds[0].Entries[1].Stopped == nil || v.Rounds[0].Entries[1].Line != 4 ||
		v.Rounds[0].Entries[2].Resume == nil {
		t.Fatalf("view %+v", v)
	}
	var text, html bytes.Buffer
	RenderText(&text, v)
	RenderHTML(&html, v, HTMLOptions{})
	if want := "■ The coordinator stopped at 6.0 s of active time: disk <full> [[x]] #tag · line 4"; !strings.Contains(text.String(), want) || strings.Contains(text.String(), "checkpoint") {
		t.Errorf("text lacks %q or shows the checkpoint:\n%s", want, text.String())
	}
	if want := `<p class="event stopped" id="line-4"><span class="icon">■</span> The coordinator stopped at 6.0 s of active time: disk &lt;full&gt; [[x]] #tag`; !strings.Contains(html.String(), want) {
		t.Errorf("HTML lacks %q:\n%s", want, html.String())
	}
	md := string(RenderMarkdownView(v))
	if strings.Contains(md, "[[x]]") || strings.Contains(md, " #tag") || !strings.Contains(md, "_The coordinator stopped at 6.0 s of active time: disk") {
		t.Errorf("Markdown does not show the stop, escaped:\n%s", md)
	}
}

// A debate that ended in its first round, with a budget of one round,
// says "1 round" in its HTML and its text, not "1 rounds".
func TestHTMLCountsOneRound(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	sess := testSession(testID)
	sess.Budget.MaxRounds = 1
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Append(ctx, debate.EventOpen, 0, sess)
	l.Append(ctx, debate.EventTurn, 4, debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleDefender, Position: "Hold", Tokens: 7}, Agent: "Proposer"})
	o := &debate.Outcome{DebateID: testID, Verdict: debate.BudgetExhausted, Action: debate.ActionEscalate, Reason: "max rounds", Rounds: 1, Tokens: 7}
	if _, err := l.Append(ctx, debate.EventVerdict, 5, o); err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := RenderHTML(&html, readView(t, s, testID), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	if strings.Contains(h, "1 rounds") || !strings.Contains(h, "· 1 round ·") || !strings.Contains(h, "<dd>1 round ·") {
		t.Errorf("HTML does not count one round as one:\n%s", h)
	}
	// Nor in "transcripts show", which said "Budget: 1 rounds, …" and
	// "1 rounds, 7 tokens, …".
	var text bytes.Buffer
	if err := RenderText(&text, readView(t, s, testID)); err != nil {
		t.Fatal(err)
	}
	if out := text.String(); strings.Contains(out, "1 rounds") || !strings.Contains(out, "Budget:       1 round, ") || !strings.Contains(out, "   1 round, 7 tokens, ") {
		t.Errorf("text does not count one round as one:\n%s", out)
	}
}

// The text of a debate one of whose files does not verify points at the
// verify command the caller gave (with its --root), as the text of a
// broken chain does: pasted, the bare command looks in the default root.
func TestTextOfABadFileNamesTheCallersVerifyCommand(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	writeDebate(t, s, testID, 6, true).Close()
	v := readView(t, s, testID)
	v.Integrity.Files = []FileCheck{{File: "debates/" + testID + "/verdict.json", Status: FileDiffers, Problem: "edited"}}
	v.VerifyCommand = "parley --root /srv/r transcripts verify " + testID
	var text bytes.Buffer
	if err := RenderText(&text, v); err != nil {
		t.Fatal(err)
	}
	if out := text.String(); !strings.Contains(out, "!! See: parley --root /srv/r transcripts verify "+testID+"\n") {
		t.Errorf("text:\n%s", out)
	}
}

// The text of a debate with nothing recorded yet (its coordinator died
// before its first event) names no head: it said "0 events, not sealed
// yet, head " with nothing after it.
func TestTextOfANothingRecordedDebateNamesNoHead(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	l, err := s.Create(context.Background(), testSession(testID))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	var text bytes.Buffer
	if err := RenderText(&text, readView(t, s, testID)); err != nil {
		t.Fatal(err)
	}
	if out := text.String(); !strings.Contains(out, "Integrity:    intact so far, nothing recorded yet, not sealed yet\n") || strings.Contains(out, "head \n") {
		t.Errorf("text:\n%s", out)
	}
}

// IntegrityOf, what a listing, a badge and resume read of a debate, is the
// integrity its view shows, on an intact, an unsealed and a tampered
// debate alike: they read NewView(t).Integrity, and laid out every round
// of every debate listed for it.
func TestIntegrityOfIsTheViewsIntegrity(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	const sealed, unsealed, tampered = testID, "20260102-spec-unsealed-bcdefg", "20260103-spec-tampered-cdefgh"
	writeDebate(t, s, sealed, 8, true).Close()
	writeDebate(t, s, unsealed, 8, false).Close()
	writeDebate(t, s, tampered, 8, true).Close()
	tamper(t, dir, tampered, "position 5", "position X")
	if err := os.Remove(filepath.Join(dir, Dir, tampered, SessionFile)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{sealed, unsealed, tampered} {
		tr, err := s.Audit(context.Background(), id, Witnesses{})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		got, want := IntegrityOf(tr), NewView(tr).Integrity
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: IntegrityOf %+v; the view's %+v", id, got, want)
		}
		if id == tampered && (!got.Tampered() || got.BadLine != 5 || FirstBad(got.Files) == nil) {
			t.Errorf("%s: %+v; want tampered at line 5, session.json missing", id, got)
		}
	}
}

// A count of one is said in the singular wherever a debate is shown: a
// debate that has recorded one event and then one turn, and one tampered
// at its second line, read "1 events", "1 turns" and "1 lines verify".
func TestCountsOfOneAreSingular(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	ctx := context.Background()
	l, sess := created(t, s, testID)
	render := func(want ...string) {
		t.Helper()
		v := readView(t, s, testID)
		var text, html bytes.Buffer
		if err := RenderText(&text, v); err != nil {
			t.Fatal(err)
		}
		if err := RenderHTML(&html, v, HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(text.String()+html.String(), w) {
				t.Errorf("no %q in\n%s\n%s", w, text.String(), html.String())
			}
		}
		for _, bad := range []string{"1 events", "1 turns", "1 tokens", "1 lines", "1 rounds"} {
			if strings.Contains(text.String(), bad) || strings.Contains(html.String(), bad) {
				t.Errorf("%q shown", bad)
			}
		}
	}
	if _, err := l.Append(ctx, debate.EventOpen, 0, sess); err != nil {
		t.Fatal(err)
	}
	render("intact so far, 1 event, not sealed yet", "1 event · not sealed yet", "0 turns, 0 tokens so far")
	if _, err := l.Append(ctx, debate.EventTurn, 1000, debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Position: "p", Tokens: 1}, Agent: "Critic"}); err != nil {
		t.Fatal(err)
	}
	render("No verdict yet (running): 1 turn, 1 token so far.", "1 turn, 1 token so far.")
	l.Close()
	tamper(t, dir, testID, `"position":"p"`, `"position":"q"`)
	render("TAMPERED at line 2 (1 line verifies before it)")
}

// The HTML of a debate ("transcripts show --format html") shows no
// control character or bidirectional override an agent or a topic holds:
// each becomes U+FFFD, as on a terminal, so that no word shows in another
// order than it was recorded in. Line ends stay. So does its Markdown
// ("--format md"), as its vault page does.
func TestHTMLShowsNoBidiOverrideOrControl(t *testing.T) {
	t.Parallel()
	s := hostileDebate(t, "Keys \u202eton od\u202c expire", debate.TurnRecord{
		Turn:  debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Position: "Keys \u2066never\u2069 expire", CounterTo: "x", Text: "They \u202eton\x00 do.\r\nSecond line."},
		Agent: "Critic"})
	var b bytes.Buffer
	if err := RenderHTML(&b, readView(t, s, testID), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	if i := strings.IndexFunc(h, func(r rune) bool { return termsafe.Unsafe(r) && !strings.ContainsRune("\n\t\r", r) }); i >= 0 {
		t.Errorf("the HTML holds %U: …%s…", []rune(h[i:])[0], h[max(0, i-40):min(len(h), i+40)])
	}
	for _, want := range []string{"Keys \uFFFDton od\uFFFD expire", "Keys \uFFFDnever\uFFFD expire", "They \uFFFDton\uFFFD do.\r\nSecond line."} {
		if !strings.Contains(h, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
	md := string(RenderMarkdownView(readView(t, s, testID)))
	if i := strings.IndexFunc(md, func(r rune) bool { return termsafe.Unsafe(r) && !strings.ContainsRune("\n\t", r) }); i >= 0 {
		t.Errorf("the Markdown holds %U: …%s…", []rune(md[i:])[0], md[max(0, i-40):min(len(md), i+40)])
	}
	if !strings.Contains(md, "Keys \uFFFDnever\uFFFD expire") {
		t.Errorf("the Markdown lacks the position:\n%s", md)
	}
}

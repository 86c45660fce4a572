package consensus

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

func TestSupersession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	a := outcome("20261130-spec-idempotency-aaaaaa", "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false)
	pa := e.file(t, a)
	// The same question, written differently: same slug, same question.
	b := outcome("20261201-spec-idempotency-bbbbbb", "idempotency KEY design?", debate.LayerSpec, debate.ConsensusReached, false)
	b.FinalPosition = "Derive the key from the request body hash"
	pb := e.file(t, b)
	if pa != "wiki/consensus/spec-idempotency-key-design.md" || pb != "wiki/consensus/spec-idempotency-key-design-2.md" {
		t.Fatalf("paths %q %q", pa, pb)
	}
	fa, _ := frontmatterOf(t, e.read(t, pa))
	fb, _ := frontmatterOf(t, e.read(t, pb))
	if fa["status"] != "superseded" || fa["superseded_by"] != "[[spec-idempotency-key-design-2]]" || fa["supersedes"] != nil {
		t.Errorf("older record: status %v superseded_by %v supersedes %v", fa["status"], fa["superseded_by"], fa["supersedes"])
	}
	if fa["updated"] == fa["created"] {
		t.Error("older record's updated did not move")
	}
	if fb["status"] != "active" || fb["supersedes"] != "[[spec-idempotency-key-design]]" || fb["superseded_by"] != nil {
		t.Errorf("newer record: status %v supersedes %v superseded_by %v", fb["status"], fb["supersedes"], fb["superseded_by"])
	}
	// The older record keeps its body and its other keys.
	if !strings.Contains(e.read(t, pa), "> "+defPos) || fa["debate_id"] != a.DebateID || fa["final_position"] != defPos {
		t.Errorf("older record lost content:\n%s", e.read(t, pa))
	}
	// Both links resolve.
	for _, l := range []string{"spec-idempotency-key-design", "spec-idempotency-key-design-2"} {
		if _, err := e.v.Resolve(l); err != nil {
			t.Error(err)
		}
	}

	// check answers from the newer record.
	res, err := e.s.Check(ctx, debate.LayerSpec, "Idempotency key design", "derive the key from the request body hash.")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != CheckConsistent || res.Record.Name != "spec-idempotency-key-design-2" {
		t.Errorf("check: %v %+v", res.Status, res.Record)
	}
	res, _ = e.s.Check(ctx, debate.LayerSpec, "Idempotency key design", defPos)
	if res.Status != CheckUnclear || res.Record.Name != "spec-idempotency-key-design-2" {
		t.Errorf("the superseded position, which shares little with the new one: %v", res.Status)
	}
	if len(res.Related) == 0 || res.Related[0].Record.Name != "spec-idempotency-key-design" {
		t.Errorf("the superseded record is not the first related one: %+v", res.Related)
	}

	// Filing either debate again rewrites its own record: no -3.
	for _, o := range []*debate.Outcome{a, b} {
		p, err := e.s.File(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{a.DebateID: pa, b.DebateID: pb}[o.DebateID]; p != want {
			t.Errorf("re-filing %s gave %s, want %s", o.DebateID, p, want)
		}
	}
	recs, err := e.s.Records(ctx, Filter{})
	if err != nil || len(recs) != 2 {
		t.Fatalf("records after re-filing: %d %v", len(recs), err)
	}
	fa, _ = frontmatterOf(t, e.read(t, pa))
	if fa["status"] != "superseded" || fa["superseded_by"] != "[[spec-idempotency-key-design-2]]" || fa["created"] != "2026-11-30T09:01:00.000Z" {
		t.Errorf("re-filed older record: %v %v %v", fa["status"], fa["superseded_by"], fa["created"])
	}

	// A third debate supersedes the second; nothing is deleted.
	c := outcome("20261202-spec-idempotency-cccccc", "Idempotency key design", debate.LayerSpec, debate.Deadlock, false)
	pc := e.file(t, c)
	if pc != "wiki/consensus/spec-idempotency-key-design-3.md" {
		t.Fatalf("third path %q", pc)
	}
	fb, _ = frontmatterOf(t, e.read(t, pb))
	if fb["status"] != "superseded" || fb["superseded_by"] != "[[spec-idempotency-key-design-3]]" || fb["supersedes"] != "[[spec-idempotency-key-design]]" {
		t.Errorf("middle record: %v", fb)
	}
	res, _ = e.s.Check(ctx, debate.LayerSpec, "Idempotency key design", defPos)
	if res.Status != CheckOpen || res.Record.Name != "spec-idempotency-key-design-3" {
		t.Errorf("after a deadlock the question is open: %v %v", res.Status, res.Record)
	}
	for _, st := range []Status{StatusActive, StatusSuperseded} {
		recs, _ := e.s.Records(ctx, Filter{Status: st})
		if want := map[Status]int{StatusActive: 1, StatusSuperseded: 2}[st]; len(recs) != want {
			t.Errorf("%s: %d records", st, len(recs))
		}
	}
	index := e.read(t, "wiki/consensus/"+IndexName)
	for _, row := range []string{
		"[[spec-idempotency-key-design-3\\|Idempotency key design]] | DEADLOCK | active |",
		"[[spec-idempotency-key-design-2\\|idempotency KEY design?]] | CONSENSUS_REACHED | superseded |",
		"[[spec-idempotency-key-design\\|Idempotency key design]] | CONSENSUS_REACHED | superseded |",
	} {
		if !strings.Contains(index, row) {
			t.Errorf("index lacks %q", row)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome("20261130-spec-idempotency-aaaaaa", "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	e.file(t, outcome("20261130-plan-rollout-aaaaaa", "Rollout plan for the idempotency keys", debate.LayerPlan, debate.Deadlock, false))
	e.file(t, outcome("20261130-verify-task-aaaaaa", "Task 42 closure", debate.LayerVerify, debate.Timeout, false))
	e.file(t, outcome("20261130-spec-expiry-aaaaaa", "Key expiry", debate.LayerSpec, debate.BudgetExhausted, true))
	e.file(t, outcome("20261130-spec-storage-aaaaaa", "Key storage", debate.LayerSpec, debate.BudgetExhausted, false))

	for _, tc := range []struct {
		name          string
		layer         debate.Layer
		topic, pos    string
		want          CheckStatus
		record        string
		relatedPrefix string
	}{
		{"same position", debate.LayerSpec, "Idempotency key design", defPos, CheckConsistent, "spec-idempotency-key-design", ""},
		{"case, spacing, punctuation", debate.LayerSpec, "idempotency  key design!", "  USE a client-supplied idempotency-key header,\n stored for 24   hours!!", CheckConsistent, "spec-idempotency-key-design", ""},
		{"a position about other things", debate.LayerSpec, "Idempotency key design", attPos, CheckUnclear, "spec-idempotency-key-design", ""},
		{"another number", debate.LayerSpec, "Idempotency key design", "Use a client-supplied Idempotency-Key header, stored for 48 hours", CheckConflict, "spec-idempotency-key-design", ""},
		{"reworded topic and position", debate.LayerSpec, "How should idempotency keys be designed?", "Idempotency-Key headers supplied by the client are kept for a day", CheckConsistent, "spec-idempotency-key-design", ""},
		{"deadlock is open", debate.LayerPlan, "Rollout plan for the idempotency keys", "ship it", CheckOpen, "plan-rollout-plan-for-the-idempotency-keys", ""},
		{"timeout is open", debate.LayerVerify, "Task 42 closure", "it holds", CheckOpen, "verify-task-42-closure", ""},
		{"budget agreed binds", debate.LayerSpec, "Key expiry", "keys expire after 24 hours", CheckConflict, "spec-key-expiry", ""},
		{"budget agreed, same", debate.LayerSpec, "Key expiry", "Keys expire after one hour.", CheckConsistent, "spec-key-expiry", ""},
		{"budget without agreement is open", debate.LayerSpec, "Key storage", "anything", CheckOpen, "spec-key-storage", ""},
		{"other layer: none", debate.LayerVerify, "Idempotency key design", defPos, CheckNone, "", "spec-idempotency-key-design"},
		{"unknown topic: none, related listed", debate.LayerSpec, "Idempotency key rotation", "rotate the keys daily", CheckNone, "", ""},
	} {
		res, err := e.s.Check(ctx, tc.layer, tc.topic, tc.pos)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Status != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, res.Status, tc.want)
		}
		if got := ""; res.Record != nil {
			got = res.Record.Name
			if got != tc.record {
				t.Errorf("%s: record %s, want %s", tc.name, got, tc.record)
			}
		} else if tc.record != "" {
			t.Errorf("%s: no record, want %s", tc.name, tc.record)
		}
		if len(res.Related) == 0 && tc.want != CheckOpen {
			t.Errorf("%s: no related records", tc.name)
		}
		for i, h := range res.Related {
			if res.Record != nil && h.Record.Name == res.Record.Name {
				t.Errorf("%s: the record itself is listed as related", tc.name)
			}
			if i > 0 && h.Score > res.Related[i-1].Score {
				t.Errorf("%s: related not ranked", tc.name)
			}
		}
		if tc.relatedPrefix != "" && res.Related[0].Record.Name != tc.relatedPrefix {
			t.Errorf("%s: first related %s, want %s", tc.name, res.Related[0].Record.Name, tc.relatedPrefix)
		}
	}
	// The unknown topic finds the records about idempotency keys first.
	res, _ := e.s.Check(ctx, debate.LayerSpec, "Idempotency key rotation", "rotate the keys daily")
	top := res.Related[0].Record.Name
	if top != "spec-idempotency-key-design" && top != "plan-rollout-plan-for-the-idempotency-keys" {
		t.Errorf("unknown topic: first related %s", top)
	}
	if _, err := e.s.Check(ctx, debate.LayerSpec, "Idempotency key design", " ... "); !errors.Is(err, ErrEmptyQuestion) {
		t.Errorf("empty position: %v", err)
	}
	if _, err := e.s.Check(ctx, "review", "x", "y"); !errors.Is(err, debate.ErrUnknownLayer) {
		t.Errorf("bad layer: %v", err)
	}
}

func TestSearchAndFilters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome("20261130-spec-idempotency-aaaaaa", "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	e.file(t, outcome("20261130-plan-rollout-aaaaaa", "Database migration rollout", debate.LayerPlan, debate.Deadlock, false))
	o := outcome("20261130-verify-cache-aaaaaa", "Cache invalidation", debate.LayerVerify, debate.ConsensusReached, false)
	o.FinalPosition = "Invalidate the café cache on every write"
	o.Reason = "The attacker accepted write-through invalidation."
	e.file(t, o)

	for _, tc := range []struct {
		q     string
		f     Filter
		first string
		n     int
	}{
		{"idempotency", Filter{}, "spec-idempotency-key-design", 2}, // the deadlock's positions mention the key too
		{"migration rollout", Filter{}, "plan-database-migration-rollout", 1},
		{"cafe write-through", Filter{}, "verify-cache-invalidation", 1},      // accents folded, rationale indexed
		{"invalidates caches", Filter{}, "verify-cache-invalidation", 1},      // plural folded
		{"request body hash", Filter{}, "plan-database-migration-rollout", 1}, // the deadlock's attacker position; the rounds table is not indexed
		{"request body hash", Filter{Layer: debate.LayerPlan}, "plan-database-migration-rollout", 1},
		{"request body hash", Filter{Verdict: debate.Deadlock}, "plan-database-migration-rollout", 1},
		{"idempotency", Filter{Status: StatusSuperseded}, "", 0},
		{"the of and", Filter{}, "", 0},
	} {
		hits, err := e.s.Search(ctx, tc.q, tc.f, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != tc.n {
			t.Errorf("%q %+v: %d hits %v", tc.q, tc.f, len(hits), hits)
			continue
		}
		if tc.first != "" && hits[0].Record.Name != tc.first {
			t.Errorf("%q: first %s, want %s", tc.q, hits[0].Record.Name, tc.first)
		}
	}
	// A limit far above the number of records (a client's choice) is every
	// hit, not an allocation of that many slots.
	for _, limit := range []int{1 << 40, math.MaxInt} {
		hits, err := e.s.Search(ctx, "idempotency", Filter{}, limit)
		if err != nil || len(hits) != 2 {
			t.Errorf("limit %d: %d hits, %v", limit, len(hits), err)
		}
	}
}

// TestSearchTiesByStanding: records that score the same (a question
// debated again to the same answer) come active first, then newest first,
// whatever their names.
func TestSearchTiesByStanding(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	for _, id := range []string{"20261130-spec-idempotency-aaaaaa", "20261201-spec-idempotency-bbbbbb", "20261202-spec-idempotency-cccccc"} {
		e.file(t, outcome(id, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	}
	for _, tc := range []struct {
		f    Filter
		want []string
	}{
		{Filter{}, []string{"spec-idempotency-key-design-3", "spec-idempotency-key-design-2", "spec-idempotency-key-design"}},
		{Filter{Status: StatusSuperseded}, []string{"spec-idempotency-key-design-2", "spec-idempotency-key-design"}},
	} {
		hits, err := e.s.Search(ctx, "idempotency key", tc.f, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			if h.Score != hits[0].Score {
				t.Fatalf("%+v: scores differ (%v and %v): the test needs a tie", tc.f, hits[0].Score, h.Score)
			}
			got = append(got, h.Record.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
	}
}

// TestCheckQuestionBackedByItsPosition: a question worded far from the
// record's topic is found when its position says what the record's final
// position says, and not when it is about another object.
func TestCheckQuestionBackedByItsPosition(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fileRule(t, debate.LayerVerify, "20261130-verify-disk-aaaaaa", "CI runner disk alerting", "Page the build team when a build agent's disk is more than 90% full for 15 minutes.")
	e.fileRule(t, debate.LayerVerify, "20261130-verify-lag-aaaaaa", "Replica lag alert", "Page the database team when a read replica lags more than 30 seconds behind.")
	checkFound(t, e, debate.LayerVerify, []foundCase{
		{"reworded question, same rule", "How full may a build agent's disk get before someone is paged?",
			"If a build agent's disk stays over 90 percent full for fifteen minutes, the build team gets paged.", CheckConsistent, "verify-ci-runner-disk-alerting"},
		{"reworded question, other number", "How full may a build agent's disk get before someone is paged?",
			"If a build agent's disk stays over 95 percent full for fifteen minutes, the build team gets paged.", CheckConflict, "verify-ci-runner-disk-alerting"},
		{"another object in the same place", "How full may a build agent's memory get before someone is paged?",
			"If a build agent's memory stays over 90 percent full for fifteen minutes, the build team gets paged.", CheckNone, ""},
		{"a question about another record", "How far may a read replica lag before someone is paged?",
			"If a read replica is more than half a minute behind, the database team gets paged.", CheckConsistent, "verify-replica-lag-alert"},
	})
}

// TestCheckFindsRewordedQuestions: a question asked in other words (a
// question, a ticket reference, shorthand, non-native English) is found in
// its layer, with its score reported; another object or endpoint named in
// the question, or another layer, is none, with the record among the
// related ones and the score it reached.
func TestCheckFindsRewordedQuestions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	file := func(id, topic, position string) { e.fileRule(t, debate.LayerSpec, id, topic, position) }
	file("20261130-spec-thumbs-aaaaaa", "Image format of product thumbnails", "Product thumbnails are served as WebP at quality 80, with a JPEG fallback for browsers without WebP.")
	file("20261130-spec-search-aaaaaa", "Rate limit of the /search endpoint", "The /search endpoint allows 120 requests per minute per API key, with bursts of up to 20.")
	file("20261130-spec-tablet-aaaaaa", "Screen lock on shared tablets", "Shared tablets lock after 3 minutes without touch input, and unlocking needs a PIN.")
	file("20261130-spec-backup-aaaaaa", "Nightly backups of the reporting database", "The reporting database is backed up every night at 02:00 UTC and kept for 35 days.")
	const (
		thumbs = "spec-image-format-of-product-thumbnails"
		search = "spec-rate-limit-of-the-search-endpoint"
		tablet = "spec-screen-lock-on-shared-tablets"
		backup = "spec-nightly-backups-of-the-reporting-database"
	)
	for _, tc := range []struct {
		name, topic, pos string
		layer            debate.Layer
		want             CheckStatus
		record           string // "" for none
		related          string // for none: a record listed under related, with its topic score
	}{
		{"question form", "Which format do we serve product thumbnails in?",
			"WebP at quality 80; browsers that cannot show WebP get JPEG.", debate.LayerSpec, CheckConsistent, thumbs, ""},
		{"ticket reference and shorthand", "IMG-204: thumbnail encoding for products?",
			"product thumbnails: WebP at quality 80, JPEG fallback for browsers without WebP", debate.LayerSpec, CheckConsistent, thumbs, ""},
		{"markdown", "**Thumbnails** — what *format*?",
			"Product thumbnails are WebP (quality 80), with JPEG as the fallback for browsers without WebP.", debate.LayerSpec, CheckConsistent, thumbs, ""},
		{"question in other words, numbers as words", "How many calls a minute may one API key make to /search?",
			"120 per minute for each API key, and bursts of up to twenty.", debate.LayerSpec, CheckConsistent, search, ""},
		{"question in other words, another number", "How many calls a minute may one API key make to /search?",
			"Sixty per minute for each API key, bursts of up to twenty.", debate.LayerSpec, CheckConflict, search, ""},
		{"non-native English", "after how many minute the shared tablet is locking itself?",
			"When nobody touch the shared tablet for three minutes it lock, and for unlock you need the PIN.", debate.LayerSpec, CheckConsistent, tablet, ""},
		{"the question's words only in its position", "When do we back it up, and for how long is it kept?",
			"Every night at 02:00 UTC the reporting database is backed up; copies are kept for 35 days.", debate.LayerSpec, CheckConsistent, backup, ""},
		{"another object, said again in the position", "Which format do we serve hero images in?",
			"Hero images are served as WebP at quality 80, with a JPEG fallback for browsers without WebP.", debate.LayerSpec, CheckNone, "", thumbs},
		{"another endpoint", "How many calls a minute may one API key make to /products?",
			"The /products endpoint allows 120 requests per minute per API key, with bursts of up to 20.", debate.LayerSpec, CheckNone, "", search},
		{"another device", "When do admin laptops lock their screen?",
			"Admin laptops lock after 3 minutes without input, and unlocking needs a PIN.", debate.LayerSpec, CheckNone, "", tablet},
		{"another database", "Nightly backups of the billing database",
			"The billing database is backed up every night at 02:00 UTC and kept for 35 days.", debate.LayerSpec, CheckNone, "", backup},
		{"another layer", "Which format do we serve product thumbnails in?",
			"Product thumbnails are served as WebP at quality 80, with a JPEG fallback for browsers without WebP.", debate.LayerPlan, CheckNone, "", ""},
		{"only stop words in the topic", "what is it that we do?",
			"Product thumbnails are served as WebP at quality 80, with a JPEG fallback for browsers without WebP.", debate.LayerSpec, CheckNone, "", ""},
	} {
		res, ok := checkAnswers(t, e, tc.name, tc.layer, tc.topic, tc.pos, tc.want, tc.record)
		if !ok {
			continue
		}
		got := tc.record
		for _, h := range res.Related {
			if h.Record.Name == got || h.TopicScore >= TopicThreshold && h.TopicScore > res.TopicScore {
				t.Errorf("%s: related %s with topic score %.2f (matched %q)", tc.name, h.Record.Name, h.TopicScore, got)
			}
		}
		if tc.related != "" && !slices.ContainsFunc(res.Related, func(h Hit) bool { return h.Record.Name == tc.related && h.TopicScore > 0 }) {
			t.Errorf("%s: %s not among the related records with its topic score: %+v", tc.name, tc.related, res.Related)
		}
	}
}

// TestQuestionText: a ticket reference at the start or the end of a
// question is not part of it; names that look like one (algorithms,
// standards, versions) are, and so is anything that would leave nothing.
func TestQuestionText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"A11Y-77: min contrast for text?", "min contrast for text?"},
		{"[HR-88] offboarding", "offboarding"},
		{"(OPS-9) disk alerts", "disk alerts"},
		{"LIB-42 ebook loan period?", "ebook loan period?"},
		{"BOOK-1201 — seat hold time", "seat hold time"},
		{"seat hold time [BOOK-1201]", "seat hold time"},
		{"OPS-9 disk alerts", "OPS-9 disk alerts"}, // one digit, a space: could be a name
		{"AES-256 for backups", "AES-256 for backups"},
		{"SHA-256: which library?", "SHA-256: which library?"},
		{"HTTP-2 between services", "HTTP-2 between services"},
		{"A11Y-77:", "A11Y-77:"},
		{"", ""},
		{"   ", "   "},
		{"Ünïcode-12: topic", "Ünïcode-12: topic"},
		{"**A11Y-77**: contrast", "**A11Y-77**: contrast"},
		{"mid-sentence OPS-12: stays", "mid-sentence OPS-12: stays"},
	} {
		if got := strings.TrimSpace(questionText(tc.in)); got != strings.TrimSpace(tc.want) {
			t.Errorf("questionText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Linear on a huge topic.
	huge := "OPS-12: " + strings.Repeat("disk alerts ", 50000)
	if got := questionText(huge); !strings.HasPrefix(strings.TrimSpace(got), "disk alerts") {
		t.Errorf("huge topic: %q...", got[:40])
	}
}

// TestPositionScoreHostile: the cover of a question by a record stays
// within 0 and 1 and finds nothing in empty, stop-word, huge, unicode or
// markdown text.
func TestPositionScoreHostile(t *testing.T) {
	t.Parallel()
	texts := []string{"", "the of and a", "what is it that we do?", strings.Repeat("retention of audit logs ", 20000),
		"Κωδικός πρόσβασης 12 χαρακτήρες", "**bold** _x_ `code` [[link]] #tag > quote", "🙂🙂🙂 ✓ ≥ 4.5:1", "\x00\xff\xfe"}
	rec, pos := analyze("Retention of audit logs"), analyze("Audit logs are kept for 400 days, then deleted.")
	for _, q := range texts {
		for _, qp := range texts {
			c := coverOf(analyze(q), analyze(qp), rec, pos)
			sc := positionScore(c, contentScore(analyze(qp), pos))
			if math.IsNaN(sc) || sc < 0 || sc > 1 || c.q < 0 || c.q > 1 || c.r < 0 || c.r > 1 {
				t.Errorf("coverOf(%.20q, %.20q) = %+v, score %v", q, qp, c, sc)
			}
			if strings.TrimSpace(q) != "" && !strings.Contains(q, "audit") && sc > 0 {
				t.Errorf("%.20q with %.20q names nothing of the record, scored %.2f", q, qp, sc)
			}
		}
	}
}

// TestCheckHostileQuestions: questions no one should write still get an
// answer, never a record they name nothing of.
func TestCheckHostileQuestions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	o := outcome("20261130-spec-thumbs-aaaaaa", "Image format of product thumbnails", debate.LayerSpec, debate.ConsensusReached, false)
	pos := "Product thumbnails are served as WebP at quality 80, with a JPEG fallback for browsers without WebP."
	o.FinalPosition, o.FinalPositionHash = pos, debate.PositionHash(pos)
	e.file(t, o)
	for _, topic := range []string{
		strings.Repeat("thumbnail format ", 20000),
		"OPS-12:",
		"[[spec-image-format-of-product-thumbnails]]",
		"# Heading\n\n- [ ] `code` **bold** <b>html</b> ---",
		"Формат миниатюр товаров",
		"缩略图格式",
		"\u202e\u200bthumbnail\u0000 format",
		"the of and to what which",
	} {
		res, err := e.s.Check(ctx, debate.LayerSpec, topic, pos)
		if err != nil {
			t.Fatalf("%.30q: %v", topic, err)
		}
		if res.Record != nil && !strings.Contains(strings.ToLower(topic), "thumbnail") {
			t.Errorf("%.30q matched %s (topic score %.2f) without naming it", topic, res.Record.Name, res.TopicScore)
		}
		for _, h := range res.Related {
			if h.TopicScore < 0 || h.TopicScore >= TopicThreshold {
				t.Errorf("%.30q: related %s with topic score %.2f", topic, h.Record.Name, h.TopicScore)
			}
		}
	}
	// Hostile positions under a topic that names nothing of the record:
	// its evidence never finds it, and a topic that names it gets an
	// answer within bounds.
	for _, p := range []string{
		strings.Repeat("WebP JPEG quality 80 thumbnails ", 5000),
		"WebP-80 JPEG-2000 Q80 q=80 80% 80x80",
		"[[spec-image-format-of-product-thumbnails]] #webp <b>JPEG</b> ---",
		"Миниатюры товаров в WebP 80, JPEG для старых браузеров",
		"\u202e\u200bWebP\u0000 80 JPEG",
	} {
		for _, topic := range []string{"hero banners", "OPS-12: banners?", "product thumbnails"} {
			res, err := e.s.Check(ctx, debate.LayerSpec, topic, p)
			if err != nil {
				t.Fatalf("%.30q: %v", p, err)
			}
			if res.Record != nil && !strings.Contains(topic, "thumbnail") {
				t.Errorf("%q with %.30q matched %s (topic score %.2f)", topic, p, res.Record.Name, res.TopicScore)
			}
			if res.TopicScore < 0 || res.TopicScore > 1 {
				t.Errorf("%q with %.30q: topic score %.2f", topic, p, res.TopicScore)
			}
		}
	}
}

// TestCheckFindsQuestionByItsEvidence: a question whose topic shares too
// little with a record's is found by the rare terms its position shares
// with it (names, identifiers, numbers with units) when that record
// stands clearly above every other one of the layer; never for another
// object said in the question's topic and position, names without one in
// common, two records that the evidence fits equally, or another layer.
func TestCheckFindsQuestionByItsEvidence(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	file := func(id, topic string, l debate.Layer, position string) { e.fileRule(t, l, id, topic, position) }
	file("20261130-spec-kiln-aaaaaa", "Firing schedule for stoneware glazes", debate.LayerSpec,
		"Stoneware glazes are fired to cone 10 in reduction, holding 1285 °C for 20 minutes before cooling.")
	file("20261130-spec-sauna-aaaaaa", "Opening hours of the hotel sauna", debate.LayerSpec,
		"The sauna opens at 07:00 and closes at 22:00; on Sundays it closes at 20:00.")
	file("20261130-spec-ferment-aaaaaa", "Sourdough starter feeding", debate.LayerSpec,
		"Feed the starter twice a day with equal weights of rye flour and water at 26 °C.")
	file("20261130-spec-cheddar-aaaaaa", "Aging of farmhouse cheddar", debate.LayerSpec,
		"Farmhouse cheddar ages for 12 months in the cave at 10 °C and 85% humidity.")
	file("20261130-spec-gouda-aaaaaa", "Aging of farmhouse gouda", debate.LayerSpec,
		"Farmhouse gouda ages for 12 months in the cave at 10 °C and 85% humidity.")
	file("20261130-plan-kiln-aaaaaa", "Kiln maintenance", debate.LayerPlan,
		"Kiln elements are replaced after 200 firings to cone 10 in reduction.")
	const (
		kiln  = "spec-firing-schedule-for-stoneware-glazes"
		sauna = "spec-opening-hours-of-the-hotel-sauna"
	)
	for _, tc := range []struct {
		name, topic, pos string
		layer            debate.Layer
		want             CheckStatus
		record           string
	}{
		{"asked in other words, same rule", "how hot do we take the glaze kiln, and for how long?",
			"Cone 10, reduction atmosphere, a 20 minute hold at 1285 °C, then it cools.", debate.LayerSpec, CheckConsistent, kiln},
		{"a conflict written from scratch", "POT-31 reduction hold",
			"Hold at 1285 °C for 45 minutes at cone 10 in reduction.", debate.LayerSpec, CheckConflict, kiln},
		{"chat voice, other numbers", "when can guests use the sauna?",
			"the sauna is open 06:00 to 23:00 every day, sundays too", debate.LayerSpec, CheckConflict, sauna},
		{"another object said in topic and position", "Firing schedule for porcelain glazes",
			"Porcelain glazes are fired to cone 10 in reduction, holding 1285 °C for 20 minutes.", debate.LayerSpec, CheckNone, ""},
		{"names without one in common", "which flour goes in the levain?",
			"Feed the levain with Manitoba flour from Caputo and water at 26 °C.", debate.LayerSpec, CheckNone, ""},
		{"two records the evidence fits equally", "cave aging",
			"It ages for 12 months in the cave at 10 °C and 85% humidity.", debate.LayerSpec, CheckNone, ""},
		{"another layer", "how hot do we take the glaze kiln, and for how long?",
			"Cone 10, reduction atmosphere, a 20 minute hold at 1285 °C, then it cools.", debate.LayerVerify, CheckNone, ""},
		{"a topic of stop words", "what is it that we do?",
			"Stoneware glazes are fired to cone 10 in reduction, holding 1285 °C for 20 minutes before cooling.", debate.LayerSpec, CheckNone, ""},
	} {
		checkAnswers(t, e, tc.name, tc.layer, tc.topic, tc.pos, tc.want, tc.record)
	}
}

// checkAnswers asks e's store the question and reports (as an error named
// name) an answer other than want on the record named record ("" for
// none), or a match whose topic score is off the scale. ok is whether the
// answer was the one wanted.
func checkAnswers(t *testing.T, e *env, name string, l debate.Layer, topic, pos string, want CheckStatus, record string) (res *CheckResult, ok bool) {
	t.Helper()
	res, err := e.s.Check(context.Background(), l, topic, pos)
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	if res.Record != nil {
		got = res.Record.Name
	}
	if res.Status != want || got != record {
		t.Errorf("%s: %s on %q (topic score %.2f, %v), want %s on %q", name, res.Status, got, res.TopicScore, res.Comparison.Differences, want, record)
		return res, false
	}
	if got != "" && (res.TopicScore < TopicThreshold || res.TopicScore > 1) {
		t.Errorf("%s: matched with topic score %.2f", name, res.TopicScore)
	}
	return res, true
}

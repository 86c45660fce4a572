package consensus

import (
	"context"
	"errors"
	"math"
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

// TestCheckQuestionBackedByItsPosition: a question worded far from the
// record's topic is found when its position says what the record's final
// position says, and not when it is about another object.
func TestCheckQuestionBackedByItsPosition(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	file := func(id, topic, position string) {
		o := outcome(id, topic, debate.LayerVerify, debate.ConsensusReached, false)
		o.FinalPosition, o.FinalPositionHash = position, debate.PositionHash(position)
		e.file(t, o)
	}
	file("20261130-verify-disk-aaaaaa", "CI runner disk alerting", "Page the build team when a build agent's disk is more than 90% full for 15 minutes.")
	file("20261130-verify-lag-aaaaaa", "Replica lag alert", "Page the database team when a read replica lags more than 30 seconds behind.")
	for _, tc := range []struct {
		name, topic, pos string
		want             CheckStatus
		record           string
	}{
		{"reworded question, same rule", "How full may a build agent's disk get before someone is paged?",
			"If a build agent's disk stays over 90 percent full for fifteen minutes, the build team gets paged.", CheckConsistent, "verify-ci-runner-disk-alerting"},
		{"reworded question, other number", "How full may a build agent's disk get before someone is paged?",
			"If a build agent's disk stays over 95 percent full for fifteen minutes, the build team gets paged.", CheckConflict, "verify-ci-runner-disk-alerting"},
		{"another object in the same place", "How full may a build agent's memory get before someone is paged?",
			"If a build agent's memory stays over 90 percent full for fifteen minutes, the build team gets paged.", CheckNone, ""},
		{"a question about another record", "How far may a read replica lag before someone is paged?",
			"If a read replica is more than half a minute behind, the database team gets paged.", CheckConsistent, "verify-replica-lag-alert"},
	} {
		res, err := e.s.Check(ctx, debate.LayerVerify, tc.topic, tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Record != nil {
			got = res.Record.Name
		}
		if res.Status != tc.want || got != tc.record {
			t.Errorf("%s: %s on %q (topic score %.2f, %v), want %s on %q", tc.name, res.Status, got, res.TopicScore, res.Comparison.Differences, tc.want, tc.record)
		}
	}
}

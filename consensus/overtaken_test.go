package consensus

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// startedAt is outcome's debate of position, started at created.
func startedAt(id, created, position string) *debate.Outcome {
	o := outcome(id, "Cache TTL", debate.LayerSpec, debate.ConsensusReached, false)
	o.Session.Created = created
	o.FinalPosition, o.FinalPositionHash = position, debate.PositionHash(position)
	return o
}

// TestALateVerdictDoesNotReplaceANewerDebate: a debate that started
// before the question's current record's debate (resumed after that one
// was filed) does not replace it: its record is filed superseded by the
// current one, which stays active and untouched, and the next debate of
// the question supersedes the current record, not the late one. Without
// a known start on both sides, filing order decides, as before.
func TestALateVerdictDoesNotReplaceANewerDebate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	const (
		early = "2026-11-30T08:00:00.000Z"
		later = "2026-11-30T08:05:00.000Z"
		last  = "2026-11-30T09:30:00.000Z"
	)
	newer := e.file(t, startedAt("20261130-spec-cache-ttl-bbbbbb", later, "Cache entries live 10 minutes"))
	before := e.read(t, newer)

	res, err := e.s.fileAll(ctx, []*debate.Outcome{startedAt("20261130-spec-cache-ttl-aaaaaa", early, "Cache entries live 5 minutes")})
	if err != nil {
		t.Fatal(err)
	}
	late := res[0]
	if late.Path != Folder+"/spec-cache-ttl-2.md" || late.OvertakenBy != "spec-cache-ttl" {
		t.Fatalf("late filing %+v, want spec-cache-ttl-2 overtaken by spec-cache-ttl", late)
	}
	if got := e.read(t, newer); got != before {
		t.Errorf("the current record was rewritten by a late filing:\n%s", got)
	}
	page := e.read(t, late.Path)
	for _, want := range []string{"status: \"superseded\"", "superseded_by: \"[[spec-cache-ttl]]\"", "overtaken_by: \"[[spec-cache-ttl]]\"",
		"supersedes:\n", "debate_started: \"" + early + "\"", "[[spec-cache-ttl]] answers the question"} {
		if !strings.Contains(page, want) {
			t.Errorf("late record lacks %q:\n%s", want, page)
		}
	}
	check := func(when, position, record string) {
		t.Helper()
		r, err := e.s.Check(ctx, debate.LayerSpec, "Cache TTL", position)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != CheckConsistent || r.Record == nil || r.Record.Name != record {
			t.Errorf("%s: check %s on %v, want consistent on %s", when, r.Status, r.Record, record)
		}
	}
	check("after the late filing", "Cache entries live 10 minutes", "spec-cache-ttl")
	if u, err := e.s.Unsuperseded(ctx); err != nil || len(u) != 0 {
		t.Errorf("unsuperseded %v %v", u, err)
	}

	// The next debate supersedes the current record.
	next := e.file(t, startedAt("20261130-spec-cache-ttl-cccccc", last, "Cache entries live 15 minutes"))
	if p := e.read(t, next); !strings.Contains(p, "supersedes: \"[[spec-cache-ttl]]\"") || strings.Contains(p, "overtaken_by") {
		t.Errorf("next record:\n%s", p)
	}
	check("after the next filing", "Cache entries live 15 minutes", "spec-cache-ttl-3")

	// A current record that does not say when its debate started: filing
	// order decides.
	f := newEnv(t)
	old := startedAt("20261130-spec-cache-ttl-dddddd", later, "Cache entries live 10 minutes")
	old.Session.Created = ""
	f.file(t, old)
	p := f.file(t, startedAt("20261130-spec-cache-ttl-eeeeee", early, "Cache entries live 5 minutes"))
	if page := f.read(t, p); !strings.Contains(page, "status: \"active\"") || !strings.Contains(page, "supersedes: \"[[spec-cache-ttl]]\"") {
		t.Errorf("unknown start: the later filing should supersede:\n%s", page)
	}
}

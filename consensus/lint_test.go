package consensus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// A plan edited during its debate: the critic cites its risks (lines
// 2-3), the proposer rewrites those lines with mitigations and cites them
// again, and the record is filed on the plan as it then stands. The
// record's evidence_lines held the hash the critic's turn saw, so vault
// lint called the record stale at once ("lines 2-3 changed since the
// record was filed") though nothing had changed since. The latest check
// of a ref is what the record keeps; lines cut by the latest check are
// not kept at all.
func TestEvidenceLinesHoldTheLatestCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ws := t.TempDir()
	before := "# Risks\n- collation changes order\n- ids may gap\n- tail\n"
	after := "# Risks\n- collation: pinned to the old order\n- ids: sequences cached 1\n"
	hash := func(text string, from, to int) string {
		t.Helper()
		h, err := debate.HashLines(strings.NewReader(text), from, to)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	risks := func(text string) debate.EvidenceCheck {
		return debate.EvidenceCheck{Ref: "plan.md:2-3", Kind: "range", Status: debate.EvidenceOK, Hash: hash(text, 2, 3)}
	}
	tail := debate.EvidenceCheck{Ref: "plan.md:4", Kind: "line", Status: debate.EvidenceOK, Hash: hash(before, 4, 4)}
	tailGone := debate.EvidenceCheck{Ref: "plan.md:4", Kind: "line", Status: debate.EvidenceOutOfRange, Detail: "the file has 3 lines"}

	o := outcome("20261130-plan-migration-risks-abcdef", "Migration risks", debate.LayerPlan, debate.ConsensusReached, false)
	o.Turns[0].Evidence = []debate.EvidenceCheck{risks(before), tail}
	o.Turns[1].Evidence = []debate.EvidenceCheck{risks(after), tailGone}
	e.file(t, o)
	if err := os.WriteFile(filepath.Join(ws, "plan.md"), []byte(after), 0o600); err != nil {
		t.Fatal(err)
	}
	stale, err := e.s.Stale(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) != 0 {
		t.Errorf("a record filed on the plan as it stands is stale: %+v", stale)
	}
	recs, err := e.s.Records(context.Background(), Filter{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %v %v", recs, err)
	}
	if got := recs[0].EvidenceLines; len(got) != 1 || got[0] != hash(after, 2, 3)+" plan.md:2-3" {
		t.Errorf("evidence_lines %q", got)
	}
	// Changed after filing, it is stale.
	if err := os.WriteFile(filepath.Join(ws, "plan.md"), []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	if stale, err := e.s.Stale(context.Background(), ws); err != nil || len(stale) != 1 || stale[0].Ref != "plan.md:2-3" {
		t.Errorf("after an edit: %+v %v", stale, err)
	}
}

// A runbook the critic found missing and the proposer then wrote: the
// record listed each ref once with the first check's result, so the
// proposer's citation of the file it had written read "missing", and a
// plan shortened after a citation hid that the later citation found no
// lines. Each result is listed with the turns that found it.
func TestEvidenceReferencesListEachResult(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := outcome("20261130-plan-rollback-runbook-abcdef", "Rollback runbook", debate.LayerPlan, debate.ConsensusReached, false)
	gone := debate.EvidenceCheck{Ref: "docs/rollback.md", Kind: "path", Status: debate.EvidenceMissing, Detail: "no such file in the workspace"}
	written := debate.EvidenceCheck{Ref: "docs/rollback.md", Kind: "path", Status: debate.EvidenceOK}
	lines := debate.EvidenceCheck{Ref: "plan.md:9", Kind: "line", Status: debate.EvidenceOK, Hash: strings.Repeat("a", 64)}
	cut := debate.EvidenceCheck{Ref: "plan.md:9", Kind: "line", Status: debate.EvidenceOutOfRange, Detail: "the file has 8 lines"}
	o.Turns[0].Evidence = []debate.EvidenceCheck{gone, lines}
	o.Turns[1].Evidence = []debate.EvidenceCheck{written}
	o.Turns[2].Evidence = []debate.EvidenceCheck{gone, cut}
	body := e.read(t, e.file(t, o))
	want := "- ` docs/rollback.md ` — missing: no such file in the workspace (path; cited by GoldFalcon, round 1; GoldFalcon, round 2)\n" +
		"- ` docs/rollback.md ` — ok (path; cited by SwiftRaven, round 1)\n" +
		"- ` plan.md:9 ` — ok (line; cited by GoldFalcon, round 1)\n" +
		"- ` plan.md:9 ` — out\\_of\\_range: the file has 8 lines (line; cited by GoldFalcon, round 2)\n"
	if !strings.Contains(body, want) {
		t.Errorf("evidence references: want\n%s\nin\n%s", want, body)
	}
}

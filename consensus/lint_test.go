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

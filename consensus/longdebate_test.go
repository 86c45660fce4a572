package consensus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// A debate that cited more line references than a frontmatter holds, or
// ran more rounds than a page lists, is still filed: its record keeps what
// fits and says what it left out, and points at the transcript for the
// rest. Before, its filing failed "too large", and so did every resume of
// it: the debate could never close.
func TestALongDebateIsFiled(t *testing.T) {
	t.Parallel()
	hash := strings.Repeat("ab", 32)
	long := strings.Repeat("a position that takes the whole of its cell ", 4)

	manyRefs := outcome("20261130-spec-refs-aaaaaa", "Evidence of a long spec review", debate.LayerSpec, debate.BudgetExhausted, false)
	for i := range manyRefs.Turns {
		for k := range 300 {
			ref := fmt.Sprintf("docs/specs/the-long-spec.md:%d", i*1000+k+1)
			manyRefs.Turns[i].Evidence = append(manyRefs.Turns[i].Evidence, debate.EvidenceCheck{Ref: ref, Kind: "line", Status: debate.EvidenceOK, Hash: hash})
		}
	}

	manyRounds := func(id string, v debate.Verdict) *debate.Outcome {
		o := outcome(id, "Rounds of "+id, debate.LayerPlan, v, false)
		o.Turns = nil
		for r := 1; r <= 4000; r++ {
			o.Turns = append(o.Turns,
				turn(r, debate.RoleAttacker, "GoldFalcon", fmt.Sprintf("%d %s", r, long), defPos, -1),
				turn(r, debate.RoleDefender, "SwiftRaven", defPos, "", 0))
		}
		o.Rounds = 4000
		return o
	}

	e := newEnv(t)
	refsPath := ""
	for _, tc := range []struct {
		o    *debate.Outcome
		says string
	}{
		{manyRefs, "line reference(s) for staleness; the other"},
		{manyRounds("20261130-plan-rounds-bbbbbb", debate.Deadlock), "3960 round(s) not listed here: the transcript [[20261130-plan-rounds-bbbbbb]] has every turn"},
		{manyRounds("20261130-plan-rounds-cccccc", debate.Timeout), "3960 round(s) not listed here: the transcript [[20261130-plan-rounds-cccccc]] has every turn"},
	} {
		p, err := e.s.File(t.Context(), tc.o)
		if err != nil {
			t.Fatalf("%s: %v", tc.o.DebateID, err)
		}
		if tc.o == manyRefs {
			refsPath = p
		}
		page := e.read(t, p)
		if len(page) > vault.MaxPageBytes || !strings.Contains(page, tc.says) {
			t.Errorf("%s: a record of %d bytes; want at most %d, saying %q", tc.o.DebateID, len(page), vault.MaxPageBytes, tc.says)
		}
	}

	// The line references kept are the first cited, each with its hash,
	// and the body counts the others.
	page := e.read(t, refsPath)
	kept := strings.Count(page, `"`+hash+` docs/`)
	if cited := len(manyRefs.Turns) * 300; kept == 0 || !strings.Contains(page, fmt.Sprintf("checks the first %d line reference(s) for staleness; the other %d are not tracked", kept, cited-kept)) {
		t.Errorf("%d of %d line references kept, and the body does not say so", kept, cited)
	}
	if !strings.Contains(page, `"`+hash+` docs/specs/the-long-spec.md:1"`) || strings.Contains(page, `"`+hash+` docs/specs/the-long-spec.md:5300"`) {
		t.Errorf("evidence_lines: want the first refs cited, not the last:\n%s", page[:min(len(page), 600)])
	}
}

package consensus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestFileBesideAMovedRecord: a record a person moved into a folder under
// the records folder (archive/, archive/2026/) or anywhere else in the
// vault (Archive/ at its top, wiki/old/) keeps its name; filing the
// question again takes the next free name, so that no [[link]] to the
// moved record becomes ambiguous. A Store opened afterwards (another
// process) knows the folder too. A record in Obsidian's .trash is gone.
func TestFileBesideAMovedRecord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sub string // relative to the records folder
		// forget drops what the index knows of the folders, as an index
		// built before it noted them.
		forget bool
		want   string
	}{
		{"archive", false, "spec-idempotency-key-design-2.md"},
		{"archive/2026", false, "spec-idempotency-key-design-2.md"},
		{"archive", true, "spec-idempotency-key-design-2.md"},
		{"../../Archive", false, "spec-idempotency-key-design-2.md"},
		{"../old/2025", true, "spec-idempotency-key-design-2.md"},
		{"../../.trash", false, "spec-idempotency-key-design.md"},
	} {
		sub := tc.sub
		t.Run(fmt.Sprintf("%s forget=%v", sub, tc.forget), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			first := e.file(t, outcome("20261130-spec-idempotency-aaaaaa", "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
			if first != Folder+"/spec-idempotency-key-design.md" {
				t.Fatalf("filed %s", first)
			}
			dir := filepath.Join(e.vaultDir, filepath.FromSlash(Folder))
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(sub)), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(dir, "spec-idempotency-key-design.md"), filepath.Join(dir, filepath.FromSlash(sub), "spec-idempotency-key-design.md")); err != nil {
				t.Fatal(err)
			}
			s := e.open(t)
			if tc.forget {
				if _, err := s.Records(context.Background(), Filter{}); err != nil {
					t.Fatal(err)
				}
				if _, err := s.idx.db.Exec(`DELETE FROM meta WHERE k = 'folders'`); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.File(context.Background(), outcome("20261201-spec-idempotency-bbbbbb", "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
			if err != nil {
				t.Fatal(err)
			}
			if want := Folder + "/" + tc.want; got != want {
				t.Errorf("filed %s beside %s/spec-idempotency-key-design.md, want %s", got, sub, want)
			}
			// A question never filed still gets its own name.
			if p, err := s.File(context.Background(), outcome("20261201-plan-rollout-cccccc", "Database migration rollout", debate.LayerPlan, debate.ConsensusReached, false)); err != nil || p != Folder+"/plan-database-migration-rollout.md" {
				t.Errorf("another question: %s %v", p, err)
			}
		})
	}
}

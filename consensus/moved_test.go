package consensus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestFileBesideARenamedRecord: a record a person renamed by hand (a mv,
// which updates no link) keeps its debate's page linking the name it was
// filed under; a later filing of its question must not take that name,
// or the old debate's page would lead to the new record. Each case
// renames the question's newest record and files the question again.
func TestFileBesideARenamedRecord(t *testing.T) {
	t.Parallel()
	const topic = "Idempotency key design"
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		before []string // files of the question filed before the rename
		note   bool     // a note that is not a record holds spec-…-2.md
		want   string
	}{
		{"the first record", []string{"spec-idempotency-key-design.md"}, false, "spec-idempotency-key-design-2.md"},
		{"the second record", []string{"spec-idempotency-key-design.md", "spec-idempotency-key-design-2.md"}, false, "spec-idempotency-key-design-3.md"},
		{"a record that took a later name", []string{"spec-idempotency-key-design.md", "spec-idempotency-key-design-3.md"}, true, "spec-idempotency-key-design-4.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			dir := filepath.Join(e.vaultDir, filepath.FromSlash(Folder))
			if tc.note {
				e.page(t, Folder+"/spec-idempotency-key-design-2.md", "# A note of mine, not a record\n")
			}
			for i, want := range tc.before {
				got := e.file(t, outcome(fmt.Sprintf("2026112%d-spec-idempotency-aaaaa%c", i, 'a'+i), topic, debate.LayerSpec, debate.ConsensusReached, false))
				if got != Folder+"/"+want {
					t.Fatalf("filed %s, want %s/%s", got, Folder, want)
				}
			}
			last := tc.before[len(tc.before)-1]
			if err := os.Rename(filepath.Join(dir, last), filepath.Join(dir, "Idempotency decision.md")); err != nil {
				t.Fatal(err)
			}
			s := e.open(t)
			got, err := s.File(ctx, outcome("20261201-spec-idempotency-bbbbbb", topic, debate.LayerSpec, debate.ConsensusReached, false))
			if err != nil {
				t.Fatal(err)
			}
			if want := Folder + "/" + tc.want; got != want {
				t.Errorf("filed %s after %s was renamed, want %s (the renamed record's debate page links [[%s]])", got, last, want, strings.TrimSuffix(last, ".md"))
			}
			r, _, err := s.Record(ctx, got)
			if err != nil {
				t.Fatal(err)
			}
			if r.Supersedes != "Idempotency decision" {
				t.Errorf("the new record supersedes %q, want the renamed record", r.Supersedes)
			}
		})
	}
}

package consensus

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// loaderOf is an OutcomeLoader over outcomes held in memory.
type loaderOf map[string]*debate.Outcome

func (l loaderOf) LoadOutcome(_ context.Context, id string) (*debate.Outcome, error) {
	if o, ok := l[id]; ok {
		return o, nil
	}
	return nil, os.ErrNotExist
}

// TestFileFromSaysWhatItDid: filing a debate again says whether its
// record was written now (it had none, or its page was gone) or found
// filed and left as it is, so that "consensus file" never claims to have
// filed what was already there.
func TestFileFromSaysWhatItDid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	const id = "20261130-spec-refile-aaaaaa"
	src := loaderOf{id: outcome(id, "Refile", debate.LayerSpec, debate.ConsensusReached, false)}
	steps := []struct {
		name   string
		before func()
		want   FileStatus
	}{
		{"first filing", func() {}, FiledNew},
		{"again, record in place", func() {}, FiledAlready},
		{"again, page removed", func() {
			if err := os.Remove(filepath.Join(e.vaultDir, "wiki", "consensus", "spec-refile.md")); err != nil {
				t.Fatal(err)
			}
		}, FiledNew},
		{"again, page back", func() {}, FiledAlready},
	}
	for _, st := range steps {
		st.before()
		got, err := e.s.FileFrom(ctx, src, id)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got.Status != st.want || got.Path != Folder+"/spec-refile.md" {
			t.Errorf("%s: %+v, want %s of %s/spec-refile.md", st.name, got, st.want, Folder)
		}
	}
}

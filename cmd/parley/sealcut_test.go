package main

import (
	"fmt"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// TestACutSealLineLeavesTheVaultFilesUnchecked: with the transcript's seal
// line deleted, or cut part-way, the vault page and the record can no
// longer be checked by their content (the seal event held their hashes),
// and verify says so and why, instead of calling them intact, "checked by
// their head only (sealed before body hashes were kept)", as if the debate
// were an old one; verdict.json, whose end is past the break, is not
// called intact either.
func TestACutSealLineLeavesTheVaultFilesUnchecked(t *testing.T) {
	t.Parallel()
	d := newSealedDebate(t, nil)
	for name, cut := range map[string]func(e *tamperEnv){
		"seal line deleted": func(e *tamperEnv) { ls := e.lines(); e.setLines(ls[:len(ls)-1]) },
		"seal line cut part-way": func(e *tamperEnv) {
			ls := e.lines()
			last := ls[len(ls)-1]
			ls[len(ls)-1] = last[:len(last)/2]
			e.setLines(ls)
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newTamperEnv(t, d)
			seal := len(e.lines())
			cut(e)
			out, errs, code := dcli(t, e.root, "--json", "transcripts", "verify", d.id)
			if code != cmdutil.ExitBlocked {
				t.Fatalf("exit %d, want %d\n%s%s", code, cmdutil.ExitBlocked, out, errs)
			}
			var rep struct {
				Files []struct{ File, Status, Problem string }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, f := range rep.Files {
				if !strings.HasPrefix(f.File, "wiki/") && !strings.HasSuffix(f.File, "verdict.json") {
					continue
				}
				if f.Status != "unchecked" || strings.Contains(f.Problem, "sealed before") {
					t.Errorf("%s: %s, %q; want unchecked", f.File, f.Status, f.Problem)
				}
				if strings.HasPrefix(f.File, "wiki/") && !strings.Contains(f.Problem, fmt.Sprintf("lost with line %d", seal)) {
					t.Errorf("%s: %q; want it to name line %d, the seal event lost", f.File, f.Problem, seal)
				}
			}
		})
	}
}

package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The demo's escalation stage: its four sample records end in four JSON
// lines: the CONFIRMED and the H skipped, the L held, the M debated (the
// model gate says debate) and proceeding on the defender's claims.
func TestDemoEscalation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errs, code := runT(t, "", "--json", "demo", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []string
	for _, o := range lines(t, out) {
		if o["event"] == "escalation" {
			got = append(got, strings.TrimSpace(o["task_id"].(string)+" "+o["action"].(string)+" "+o["reason"].(string)+" "+o["verdict"].(string)))
		}
	}
	want := []string{"100123 skipped not_drift", "100124 hold low_priority", "100125 proceed consensus CONSENSUS_REACHED", "100126 skipped high_priority"}
	if !slices.Equal(got, want) {
		t.Fatalf("escalation lines %q", got)
	}
	// The human form prints escalate's JSON lines as they are.
	out, errs, code = runT(t, "", "demo", "--dir", filepath.Join(dir, "again"))
	if code != 0 || strings.Count(out, `{"task_id":"1001`) != 4 || !strings.Contains(out, "escalations.jsonl") {
		t.Fatalf("exit %d %s:\n%s", code, errs, out)
	}
}

// The demo makes a root of its own: given --root (or --vault) without
// --dir, it says so and runs nothing (exit 2), rather than running on a
// temporary root while the user looks for its debates under theirs.
func TestDemoRefusesRootWithoutDir(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "mine")
	for _, args := range [][]string{{"--root", root, "demo"}, {"--vault", filepath.Join(root, "vault"), "demo"}} {
		out, errs, code := runT(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errs, "parley demo --dir DIR") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, nothing run, one line pointing to --dir", args, code, out, errs)
		}
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused demo made %s: %v", root, err)
	}
}

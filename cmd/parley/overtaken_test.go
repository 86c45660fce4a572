package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAResumedOldDebateDoesNotReplaceANewerRecord: a debate interrupted
// before its verdict, resumed after a later debate of its question was
// filed, files its record superseded by that later record, says so, and
// leaves the later record the question's answer; its own record still
// verifies against its seal.
func TestAResumedOldDebateDoesNotReplaceANewerRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mustRun(t, root, "init")
	s := writeScripts(t, dir, map[string]string{
		"c":   concedingCritic,
		"old": `{"turns":[{"round":1,"position":"Keys live 24 hours","tokens":100}]}`,
		"new": `{"turns":[{"round":1,"position":"Keys live 48 hours","tokens":100}]}`,
	})
	// The old debate: opened an hour ago, its coordinator gone before
	// round 1.
	id := openedDebate(t, root, dir, time.Now().Add(-time.Hour), "Key lifetime", "Keys live 24 hours", s["c"], s["old"])

	// A newer debate of the question runs and is filed.
	if out, errs, code := dcli(t, root, "debate", "run", "--layer", "spec", "--topic", "Key lifetime", "--position", "Keys live 48 hours",
		"--workspace", dir, "--agent", "attacker=script:"+s["c"], "--agent", "defender=script:"+s["new"]); code != 0 {
		t.Fatalf("newer debate: exit %d\n%s%s", code, out, errs)
	}
	current := filepath.Join(root, "vault", "wiki", "consensus", "spec-key-lifetime.md")
	before, err := os.ReadFile(current)
	if err != nil {
		t.Fatal(err)
	}

	// The old debate resumes and ends: its record does not replace the
	// newer one, and resume says so.
	out, errs, code := dcli(t, root, "debate", "resume", id)
	if code != 0 || !strings.Contains(out, "wiki/consensus/spec-key-lifetime-2.md\n") ||
		!strings.Contains(errs, "[[spec-key-lifetime]] stays the question's record, and wiki/consensus/spec-key-lifetime-2.md is filed superseded by it") {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errs)
	}
	if after, _ := os.ReadFile(current); string(after) != string(before) {
		t.Errorf("the newer record was rewritten:\n%s", after)
	}
	out, _, code = dcli(t, root, "consensus", "check", "--layer", "spec", "--topic", "Key lifetime", "--position", "Keys live 48 hours")
	if code != 0 || !strings.HasPrefix(out, "consistent") || !strings.Contains(out, "spec-key-lifetime.md") {
		t.Errorf("check the newer position: exit %d\n%s", code, out)
	}
	out, _, _ = dcli(t, root, "consensus", "list", "--status", "superseded")
	if !strings.Contains(out, "spec-key-lifetime-2") || strings.Contains(out, "spec-key-lifetime ") {
		t.Errorf("superseded records:\n%s", out)
	}
	if out, errs, code := dcli(t, root, "transcripts", "verify", id); code != 0 {
		t.Errorf("verify the late debate: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := dcli(t, root, "vault", "lint"); code != 0 {
		t.Errorf("vault lint: exit %d\n%s%s", code, out, errs)
	}
}

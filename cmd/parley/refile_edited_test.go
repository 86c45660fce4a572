package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Filing again a debate whose record was edited by hand leaves the record
// as it is, and says how it differs from what the debate sealed and where
// to look, rather than reading as if all were in order.
func TestRefilingAnEditedRecordSaysItDiffers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mustRun(t, root, "init")
	s := writeScripts(t, dir, map[string]string{
		"c": concedingCritic,
		"d": `{"turns":[{"round":1,"position":"Keys live 24 hours","tokens":100}]}`,
	})
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Key lifetime", "--position", "Keys live 24 hours",
		"--workspace", dir, "--agent", "attacker=script:"+s["c"], "--agent", "defender=script:"+s["d"])
	if code != 0 {
		t.Fatalf("debate: exit %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var closed struct {
		DebateID string `json:"debate_id"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &closed); err != nil || closed.DebateID == "" {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	record := filepath.Join(root, "vault", "wiki", "consensus", "spec-key-lifetime.md")

	// In order: already filed, and nothing more.
	if out, errs, code := dcli(t, root, "consensus", "file", "--from-debate", closed.DebateID); code != 0 || errs != "" || !strings.HasPrefix(out, "already filed ") {
		t.Fatalf("re-filing an intact record: exit %d %q %q", code, out, errs)
	}

	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "Keys live 24 hours", "Keys live 48 hours", 1)
	if edited == string(data) {
		t.Fatal("the record does not hold the position")
	}
	if err := os.WriteFile(record, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code = dcli(t, root, "consensus", "file", "--from-debate", closed.DebateID)
	if code != 0 || !strings.HasPrefix(out, "already filed ") ||
		!strings.Contains(errs, "differs from what debate "+closed.DebateID+" filed and sealed") || !strings.Contains(errs, "Keys live 48 hours") ||
		!strings.Contains(errs, "transcripts verify "+closed.DebateID) {
		t.Errorf("re-filing an edited record: exit %d %q %q", code, out, errs)
	}
	if b, _ := os.ReadFile(record); string(b) != edited {
		t.Error("filing wrote over the edited record")
	}
}

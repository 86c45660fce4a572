package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
)

const (
	confidentCritique = `{"layer":"spec","question":"Idempotency keys","initial_answer":"Use UUIDv7 keys","critique":"The design stores every key with a unique index, which the load test at tests/load.go:40 exercised. The answer stands.","final_answer":"Use UUIDv7 keys","initial_confidence":0.95,"final_confidence":0.95,"evidence_refs":["tests/load.go:40"]}`
	hesitantCritique  = `{"layer":"spec","question":"Idempotency keys","initial_answer":"Use UUIDv7 keys","critique":"I think this might break under concurrent retries, but I'm not sure. Maybe the window is too short?","final_answer":"Probably hash the body instead","initial_confidence":0.9,"final_confidence":0.5}`
)

func TestDebateRunGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	critique := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := func(gate string) []string {
		return []string{"--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
			"--workspace", dir, "--gate", gate, "--agent", "attacker=script:" + s["critic"], "--agent", "defender=script:" + s["proposer"]}
	}

	// A confident, evidenced self-critique: the gate skips, no debate runs.
	out, errs, code := dcli(t, root, args(critique("confident.json", confidentCritique))...)
	if code != 0 {
		t.Fatalf("skip: exit %d: %s\n%s", code, errs, out)
	}
	objs := lines(t, out)
	if len(objs) != 1 || objs[0]["event"] != "gate" || objs[0]["decision"] != "skip" || objs[0]["cues"] == nil {
		t.Fatalf("skip output %v", objs)
	}
	skipped := objs[0]["debate_id"].(string)
	if _, err := os.Stat(filepath.Join(root, "debates", skipped)); !os.IsNotExist(err) {
		t.Errorf("a skipped debate left a directory: %v", err)
	}

	// A hesitant one: the gate says debate, and the debate runs to its verdict.
	out, errs, code = dcli(t, root, args(critique("hesitant.json", hesitantCritique))...)
	if code != 0 {
		t.Fatalf("debate: exit %d: %s\n%s", code, errs, out)
	}
	objs = lines(t, out)
	if objs[0]["event"] != "gate" || objs[0]["decision"] != "debate" || objs[len(objs)-1]["event"] != "verdict" {
		t.Fatalf("debate output: first %v, last %v", objs[0], objs[len(objs)-1])
	}
	if objs[0]["debate_id"] != objs[len(objs)-1]["debate_id"] {
		t.Errorf("the gate line names %v, the verdict %v", objs[0]["debate_id"], objs[len(objs)-1]["debate_id"])
	}

	// Both decisions are in gate.jsonl, with their cues and debate ids.
	f, err := os.Open(filepath.Join(root, gating.LogName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, bad, err := gating.ReadLog(f)
	if err != nil || bad != 0 || len(entries) != 2 {
		t.Fatalf("gate.jsonl: %d entries, %d bad, %v", len(entries), bad, err)
	}
	if entries[0].DebateID != skipped || entries[0].Outcome != gating.Skip || len(entries[0].Cues) == 0 {
		t.Errorf("skip entry %+v", entries[0])
	}
	if entries[1].DebateID != objs[0]["debate_id"] || !entries[1].Debate() {
		t.Errorf("debate entry %+v", entries[1])
	}

	// A malformed self-critique is an error before anything runs.
	_, errs, code = dcli(t, root, args(critique("bad.json", `{"critique":""}`))...)
	if code != cmdutil.ExitError || !strings.Contains(errs, "bad.json") || !strings.Contains(errs, "no critique") {
		t.Errorf("malformed critique: exit %d %q", code, errs)
	}
	// A missing one names the flag it came from.
	_, errs, code = dcli(t, root, args(filepath.Join(dir, "missing.json"))...)
	if code != cmdutil.ExitError || !strings.Contains(errs, "--gate") || !strings.Contains(errs, "missing.json") {
		t.Errorf("missing critique: exit %d %q", code, errs)
	}
}

package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/debate"
)

// A debate whose verdict.json was changed after filing keeps an intact
// hash chain, but "parley transcripts show" says it does not verify (exit
// 3): transcript_show and the debate's resource say so too, rather than
// showing the forged verdict as sound.
func TestTranscriptShowAuditsTheSeal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)
	e.scriptAgent(t, "Proposer", debate.RoleDefender, holdingDefender)
	s := session(t, "Idempotency keys", "Use UUIDv7 keys", "Critic", "Proposer")
	wait(t, e.runDebate(t, s))

	tr := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	if !tr.Intact || tr.Tampered || tr.Integrity != "verified" || tr.Problem != "" || strings.Contains(tr.Markdown, "TAMPERED") {
		t.Fatalf("an untouched debate: intact %v tampered %v integrity %q problem %q", tr.Intact, tr.Tampered, tr.Integrity, tr.Problem)
	}

	path := filepath.Join(e.root, "debates", s.ID, "verdict.json")
	b := readFile(t, path)
	forged := strings.ReplaceAll(b, "Use UUIDv7 keys with a 24h window", "Use UUIDv4 keys")
	if forged == b {
		t.Fatalf("verdict.json has no final position to change:\n%s", b)
	}
	if err := os.WriteFile(path, []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	tr = ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	if !tr.Tampered || !strings.Contains(tr.Problem, "verdict.json") || !strings.Contains(tr.Markdown, "TAMPERED") {
		t.Errorf("forged verdict.json: tampered %v integrity %q problem %q\n%s", tr.Tampered, tr.Integrity, tr.Problem, tr.Markdown[:min(len(tr.Markdown), 400)])
	}
	// One word for one audit: transcript_show's integrity is debate_status's
	// (and "debate list --json"'s), TAMPERED in capitals, not a badge of
	// its own.
	st := ok[StatusOutput](t, e.client, "debate_status", IDInput{ID: s.ID})
	if want := "TAMPERED: verdict.json differs"; tr.Integrity != want || st.Integrity != want {
		t.Errorf("forged verdict.json: transcript_show's integrity %q, debate_status's %q; want both %q", tr.Integrity, st.Integrity, want)
	}
	r, err := e.client.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: DebateURI(s.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Contents[0].Text; !strings.Contains(got, "TAMPERED") {
		t.Errorf("the debate's resource shows a forged verdict.json without a word:\n%s", got[:min(len(got), 400)])
	}

	// An edited line of the chain reads as the lists of debates read it.
	log := filepath.Join(e.root, "debates", s.ID, "transcript.jsonl")
	b = readFile(t, log)
	edited := strings.Replace(b, "Use UUIDv7 keys", "Use UUIDv4 keys", 1)
	if edited == b {
		t.Fatalf("the transcript has no position to change:\n%s", b)
	}
	if err := os.WriteFile(log, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	tr = ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	want := fmt.Sprintf("TAMPERED at line %d", tr.BadLine)
	if tr.BadLine == 0 || tr.Integrity != want {
		t.Errorf("an edited line: integrity %q (bad line %d), want %q", tr.Integrity, tr.BadLine, want)
	}
	// debate_status still says where the debate stands, with that
	// integrity, as it does for a forged verdict.json (it answered "it
	// cannot be resumed", which nobody asked).
	st = ok[StatusOutput](t, e.client, "debate_status", IDInput{ID: s.ID})
	if st.Integrity != want || st.DebateID != s.ID || st.State != "closed" {
		t.Errorf("an edited line: debate_status %+v, want closed with integrity %q", st, want)
	}
}

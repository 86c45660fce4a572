package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestUntrustedClientsLearnNothingOfTheWorkspace: over HTTP without
// --trusted, a transcript shown to a client says of each file reference
// only "ok" or "missing": no line count, and nothing that tells a path
// outside the workspace from one that does not exist.
func TestUntrustedClientsLearnNothingOfTheWorkspace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	s := session(t, "Idempotency keys", "Use UUIDv7 keys", "Critic", "Proposer")
	l, err := e.store.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	l.Append(ctx, debate.EventOpen, 0, s)
	l.Append(ctx, debate.EventTurn, 1, debate.TurnRecord{
		Turn:  debate.Turn{DebateID: s.ID, Round: 1, Role: debate.RoleAttacker, Position: "Keys leak", EvidenceRefs: []string{"notes.md:99", "../../etc/passwd", "src/main.go:3", "secret.txt"}},
		Agent: "Critic", RequestID: s.ID + ":r1:attacker1:a1", PositionHash: debate.PositionHash("Keys leak"),
		Evidence: []debate.EvidenceCheck{
			{Ref: "notes.md:99", Kind: "line", Status: debate.EvidenceOutOfRange, Detail: "the file has 1 lines"},
			{Ref: "../../etc/passwd", Kind: "path", Status: debate.EvidenceOutside, Detail: "not a relative path inside the workspace"},
			{Ref: "src/main.go:3", Kind: "line", Status: debate.EvidenceOK},
			{Ref: "secret.txt", Kind: "path", Status: debate.EvidenceMissing, Detail: "no such file"},
		},
	})
	l.Close()

	trusted := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	if !strings.Contains(trusted.Markdown, "the file has 1 lines") {
		t.Fatalf("a trusted client sees the details:\n%s", trusted.Markdown)
	}
	e.srv.cfg.Untrusted = true
	tr := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	for _, leak := range []string{"the file has", "1 lines", "out of range", "out_of_range", "outside", "inside the workspace", "no such file"} {
		if strings.Contains(tr.Markdown, leak) {
			t.Errorf("an untrusted client learns %q:\n%s", leak, tr.Markdown)
		}
	}
	if strings.Count(tr.Markdown, "missing") < 3 || !strings.Contains(tr.Markdown, "src/main.go:3") {
		t.Errorf("the redacted checks should read missing, missing, ok, missing:\n%s", tr.Markdown)
	}
	// The transcript a participant's turn_request carries is redacted the
	// same way.
	got := debate.RedactTurns([]debate.TurnRecord{{Evidence: []debate.EvidenceCheck{
		{Ref: "a.go:9", Kind: "line", Status: debate.EvidenceOutOfRange, Detail: "the file has 2 lines"},
		{Ref: "[[page]]", Kind: "wiki", Status: debate.EvidenceMissing, Detail: "no such page in the vault"},
	}}})[0].Evidence
	if got[0] != (debate.EvidenceCheck{Ref: "a.go:9", Kind: "line", Status: debate.EvidenceMissing}) || got[1].Detail != "" {
		t.Errorf("redacted %+v", got)
	}
}

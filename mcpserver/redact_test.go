package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/consensus/consensustest"
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
			{Ref: "notes.md:99", Kind: "line", Status: debate.EvidenceOutOfRange, Detail: "the file has 1 line"},
			{Ref: "../../etc/passwd", Kind: "path", Status: debate.EvidenceOutside, Detail: "not a relative path inside the workspace"},
			{Ref: "src/main.go:3", Kind: "line", Status: debate.EvidenceOK},
			{Ref: "secret.txt", Kind: "path", Status: debate.EvidenceMissing, Detail: "no such file"},
		},
	})
	l.Close()

	trusted := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	if !strings.Contains(trusted.Markdown, "the file has 1 line") {
		t.Fatalf("a trusted client sees the details:\n%s", trusted.Markdown)
	}
	e.srv.cfg.Untrusted = true
	tr := ok[TranscriptOutput](t, e.client, "transcript_show", IDInput{ID: s.ID})
	for _, leak := range []string{"the file has", "1 line", "out of range", "out_of_range", "outside", "inside the workspace", "no such file"} {
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

// A consensus record keeps the evidence checks of its debate (line counts,
// outside_root) and the hash of every cited line (which confirms a guess
// at its content). An untrusted client can start a debate among agents it
// plays and cite any file, so consensus_show, consensus_search and the
// record's resource show it none of that; a trusted client sees the file
// as it is.
func TestUntrustedClientsLearnNothingOfTheWorkspaceFromRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	lineHash := "e24c8274d50b6074851f94ad4534fe5930e4e058fe1f3df6ff897034a436156b" // sha256("password=hunter2\n")
	o := consensustest.Outcome("20261130-spec-leak-test-aaaaaa", "Leak test", debate.LayerSpec, debate.ConsensusReached, "Use UUIDv7 keys", "Keys leak", false)
	o.Turns[0].Evidence = []debate.EvidenceCheck{
		{Ref: "secret.txt:1", Kind: "line", Status: debate.EvidenceOK, Hash: lineHash},
		{Ref: "secret.txt:40", Kind: "line", Status: debate.EvidenceOutOfRange, Detail: "the file has 3 lines"},
		{Ref: "/etc/hostname:1", Kind: "line", Status: debate.EvidenceOutside, Detail: "not a relative path inside the workspace"},
	}
	if _, err := e.cs.File(ctx, o); err != nil {
		t.Fatal(err)
	}
	readRecord := func() string {
		t.Helper()
		r, err := e.client.ReadResource(ctx, &mcp.ReadResourceParams{URI: ConsensusURI("spec-leak-test")})
		if err != nil {
			t.Fatal(err)
		}
		return r.Contents[0].Text
	}
	trusted := ok[ShowOutput](t, e.client, "consensus_show", ShowInput{Name: "spec-leak-test"})
	if len(trusted.EvidenceLines) != 1 || !strings.Contains(trusted.Body, "the file has 3 lines") || !strings.Contains(readRecord(), lineHash) {
		t.Fatalf("a trusted client sees the record as filed: %v\n%s", trusted.EvidenceLines, trusted.Body)
	}

	e.srv.cfg.Untrusted = true
	show := ok[ShowOutput](t, e.client, "consensus_show", ShowInput{Name: "spec-leak-test"})
	search := ok[SearchOutput](t, e.client, "consensus_search", SearchInput{Query: "leak test"})
	if len(search.Results) != 1 {
		t.Fatalf("search: %+v", search)
	}
	res := readRecord()
	for what, text := range map[string]string{"consensus_show": show.Body, "the resource": res} {
		for _, leak := range []string{lineHash, "the file has", "out_of_range", "out\\_of\\_range", "outside", "inside the workspace"} {
			if strings.Contains(text, leak) {
				t.Errorf("%s tells an untrusted client %q:\n%s", what, leak, text)
			}
		}
		if !strings.Contains(text, "## Evidence References") || !strings.Contains(text, "## Rationale") || !strings.Contains(text, "Use UUIDv7 keys") {
			t.Errorf("%s lost more than its evidence checks:\n%s", what, text)
		}
	}
	if len(show.EvidenceLines) != 0 || len(search.Results[0].EvidenceLines) != 0 {
		t.Errorf("evidence_lines shown to an untrusted client: show %v, search %v", show.EvidenceLines, search.Results[0].EvidenceLines)
	}
	if !strings.Contains(res, `verdict: "CONSENSUS_REACHED"`) {
		t.Errorf("the resource lost its frontmatter:\n%s", res)
	}
}

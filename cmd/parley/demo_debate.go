package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// demoFiles are the demo debate's scripts and the spec they cite, shipped
// in the binary so that "go run ./cmd/parley demo" works from a fresh clone.
//
//go:embed demo/critic.json demo/proposer.json demo/spec.md
var demoFiles embed.FS

const (
	demoTopic    = "Idempotency key design"
	demoPosition = "Use a client-supplied Idempotency-Key header, claimed atomically"
)

// demoDebate is the demo's debate stage: a scripted critic and proposer,
// each a separate "parley agent run" process, debate the idempotency-key
// design under the spec layer's budget; the verdict is filed in the vault
// and the transcript's hash chain verified.
func (d *demo) demoDebate(ctx context.Context) (*debate.Outcome, error) {
	work := filepath.Join(d.root, "demo")
	if err := os.MkdirAll(work, 0o700); err != nil {
		return nil, err
	}
	for _, name := range []string{"critic.json", "proposer.json", "spec.md"} {
		data, err := demoFiles.ReadFile("demo/" + name)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o600); err != nil {
			return nil, err
		}
	}
	// Everything of the demo lives under its root.
	d.a.rootFlag, d.a.vaultFlag = d.root, filepath.Join(d.root, "vault")
	cfg, err := d.a.config()
	if err != nil {
		return nil, err
	}
	id := debate.NewID(time.Now(), debate.LayerSpec, demoTopic)
	s := &debate.DebateSession{
		ID: id, Topic: demoTopic, Layer: debate.LayerSpec, Position: demoPosition,
		Budget: cfg.Budget(debate.LayerSpec), Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
		Workspace: work,
		Participants: []debate.Participant{
			{Name: participantName(id, debate.RoleAttacker, 1), Role: debate.RoleAttacker, Agent: "script:" + filepath.Join(work, "critic.json")},
			{Name: participantName(id, debate.RoleDefender, 1), Role: debate.RoleDefender, Agent: "script:" + filepath.Join(work, "proposer.json")},
		},
	}
	d.event("debate", map[string]any{"debate_id": id, "topic": demoTopic, "position": demoPosition},
		"debate %s: the proposer defends %q; the critic attacks (agents start as separate processes)", id, demoPosition)
	o, err := d.a.execDebate(ctx, s, false)
	if err != nil {
		return nil, err
	}
	if err := d.a.printVerdict(o); err != nil && o.Verdict == debate.ConsensusReached {
		return nil, err
	}
	store, err := d.a.writeStore()
	if err != nil {
		return nil, err
	}
	defer store.Close()
	rep, err := store.Verify(id)
	if err != nil {
		return nil, err
	}
	if !rep.Intact {
		return nil, fmt.Errorf("the demo's transcript does not verify: line %d %s", rep.BadLine, rep.Problem)
	}
	d.event("verified", map[string]any{"debate_id": id, "events": rep.Events, "head": rep.Head},
		"transcript verified: %d events, hash chain intact, head %s…", rep.Events, rep.Head[:16])
	return o, nil
}

// reportDebate says where to look at the debate.
func (d *demo) reportDebate(o *debate.Outcome) {
	if d.a.json {
		return
	}
	dir := filepath.Join(d.root, "debates", o.DebateID)
	d.a.printf("  transcript    %s/transcript.jsonl   (hash-chained events; session.json, verdict.json beside it)\n", dir)
	if o.Record != "" {
		d.a.printf("  record        %s\n", filepath.Join(d.root, "vault", filepath.FromSlash(o.Record)))
	}
	d.a.printf("  readable      %s\n", filepath.Join(d.root, "vault", "wiki", "debates", o.DebateID+".md"))
	d.a.printf("  try           parley --root %s transcripts verify %s\n", d.root, o.DebateID)
	d.a.printf("                parley --root %s debate status %s\n", d.root, o.DebateID)
	d.a.printf("                parley --root %s consensus check --layer spec --topic %q --position 'Use server-generated keys'\n", d.root, demoTopic)
}

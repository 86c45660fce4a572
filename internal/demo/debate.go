package demo

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// files are the demo's scripts, the spec they cite and the escalation
// stage's telemetry, shipped in the binary so that "go run ./cmd/parley
// demo" works from a fresh clone.
//
//go:embed files/critic.json files/proposer.json files/spec.md
//go:embed files/escalate/telemetry.jsonl files/escalate/attacker.json files/escalate/defender.json files/escalate/retry.go.txt
var files embed.FS

const (
	// Topic and Position are what the demo's debate is about.
	Topic    = "Idempotency key design"
	Position = "Use a client-supplied Idempotency-Key header, claimed atomically"
)

// copyFiles writes the embedded files named (from → to, under files/sub)
// into dir.
func copyFiles(dir, sub string, names map[string]string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for from, to := range names {
		data, err := files.ReadFile(filepath.ToSlash(filepath.Join("files", sub, from)))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// debate is the debate stage: a scripted critic and proposer debate the
// idempotency-key design under the spec layer's budget; the verdict is
// filed in the vault and the transcript's hash chain verified.
func (r *run) debate(ctx context.Context) (*debate.Outcome, error) {
	work := filepath.Join(r.root, "demo")
	if err := copyFiles(work, "", map[string]string{"critic.json": "critic.json", "proposer.json": "proposer.json", "spec.md": "spec.md"}); err != nil {
		return nil, err
	}
	cfg, err := config.Load(r.root)
	if err != nil {
		return nil, err
	}
	id := debate.NewID(time.Now(), debate.LayerSpec, Topic)
	suffix := id[strings.LastIndexByte(id, '-')+1:]
	s := &debate.DebateSession{
		ID: id, Topic: Topic, Layer: debate.LayerSpec, Position: Position,
		Budget: cfg.Budget(debate.LayerSpec), Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
		Workspace: work,
		Participants: []debate.Participant{
			{Name: "Attacker1-" + suffix, Role: debate.RoleAttacker, Agent: "script:" + filepath.Join(work, "critic.json")},
			{Name: "Defender-" + suffix, Role: debate.RoleDefender, Agent: "script:" + filepath.Join(work, "proposer.json")},
		},
	}
	if err := r.event(Event{Kind: EventDebate, Data: map[string]any{"debate_id": id, "topic": Topic, "position": Position},
		Text: fmt.Sprintf("debate %s: the proposer defends %q; the critic attacks (agents start as separate processes)", id, Position)}); err != nil {
		return nil, err
	}
	o, err := r.svc.Debate(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := r.event(Event{Kind: EventVerdict, Outcome: o}); err != nil {
		return nil, err
	}
	store, err := transcripts.OpenStore(r.root, r.svc.Logger)
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
	if err := r.event(Event{Kind: EventVerified, Data: map[string]any{"debate_id": id, "events": rep.Events, "head": rep.Head},
		Text: fmt.Sprintf("transcript verified: %d events, hash chain intact, head %s…", rep.Events, rep.Head[:16])}); err != nil {
		return nil, err
	}
	return o, nil
}

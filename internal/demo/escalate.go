package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/config"
)

// escalate is the escalation stage: the sample telemetry (a CONFIRMED
// record and an L, an M and an H DRIFT) is escalated with the scripted
// agents named in the demo root's config.json; the M record is gated and
// debated, the others are decided by the cascade alone.
func (r *run) escalate(ctx context.Context) ([]Escalation, error) {
	work := filepath.Join(r.root, "demo", "escalate")
	if err := copyFiles(work, "escalate", map[string]string{
		"telemetry.jsonl": "telemetry.jsonl", "attacker.json": "attacker.json", "defender.json": "defender.json", "retry.go.txt": "retry.go",
	}); err != nil {
		return nil, err
	}
	cfg := map[string]any{"escalation": map[string]any{
		"defender": "script:demo/escalate/defender.json", "attacker": "script:demo/escalate/attacker.json", "workspace": "demo/escalate",
	}}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(r.root, config.FileName)
	if err := os.WriteFile(cfgPath, append(data, '\n'), 0o600); err != nil {
		return nil, err
	}
	telemetry := TelemetryPath(r.root)
	if err := r.event(Event{Kind: EventEscalate, Data: map[string]any{"telemetry": telemetry, "config": cfgPath},
		Text: fmt.Sprintf("escalate %s: a CONFIRMED record and an L, an M and an H DRIFT (agents from %s)", telemetry, cfgPath)}); err != nil {
		return nil, err
	}
	es, err := r.svc.Escalate(ctx, telemetry)
	if err != nil {
		return nil, err
	}
	for i := range es {
		if err := r.event(Event{Kind: EventEscalation, Escalation: &es[i]}); err != nil {
			return nil, err
		}
	}
	if len(es) != 4 {
		return nil, fmt.Errorf("the demo's escalation decided %d records, want 4", len(es))
	}
	return es, nil
}

// TelemetryPath is where a demo on root leaves its sample telemetry.
func TelemetryPath(root string) string {
	return filepath.Join(root, "demo", "escalate", "telemetry.jsonl")
}

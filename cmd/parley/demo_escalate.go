package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/escalation"
)

// demoEscalateFiles are the escalation stage's telemetry (a CONFIRMED
// record and an L, an M and an H DRIFT), its scripted agents, and the file
// the M record's claims rest on.
//
//go:embed demo/escalate/telemetry.jsonl demo/escalate/attacker.json demo/escalate/defender.json demo/escalate/retry.go.txt
var demoEscalateFiles embed.FS

// demoEscalate is the demo's escalation stage: the sample telemetry is
// escalated with the scripted agents named in the demo root's config.json;
// the M record is gated and debated (separate agent processes), the others
// are decided by the cascade alone. It ends in escalate's JSON lines.
func (d *demo) demoEscalate(ctx context.Context) ([]escalation.Decision, error) {
	work := filepath.Join(d.root, "demo", "escalate")
	if err := os.MkdirAll(work, 0o700); err != nil {
		return nil, err
	}
	for from, to := range map[string]string{
		"telemetry.jsonl": "telemetry.jsonl", "attacker.json": "attacker.json", "defender.json": "defender.json", "retry.go.txt": "retry.go",
	} {
		data, err := demoEscalateFiles.ReadFile("demo/escalate/" + from)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(work, to), data, 0o600); err != nil {
			return nil, err
		}
	}
	cfg := map[string]any{"escalation": map[string]any{
		"defender": "script:demo/escalate/defender.json", "attacker": "script:demo/escalate/attacker.json", "workspace": "demo/escalate",
	}}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(d.root, config.FileName), append(data, '\n'), 0o600); err != nil {
		return nil, err
	}
	telemetry := filepath.Join(work, "telemetry.jsonl")
	d.event("escalate", map[string]any{"telemetry": telemetry, "config": filepath.Join(d.root, config.FileName)},
		"escalate %s: a CONFIRMED record and an L, an M and an H DRIFT (agents from %s)", telemetry, filepath.Join(d.root, config.FileName))

	// escalate prints its JSON lines; the demo shows them as they are (or,
	// under --json, as "escalation" events).
	var out lineBuffer
	quiet := *d.a
	quiet.stdout, quiet.stderr = &out, &lineBuffer{}
	if err := quiet.escalate(ctx, app.EscalateOptions{Telemetry: telemetry}); err != nil {
		return nil, err
	}
	var ds []escalation.Decision
	for _, line := range out.lines() {
		var dec escalation.Decision
		if err := json.Unmarshal([]byte(line), &dec); err != nil {
			return nil, fmt.Errorf("escalate printed %q: %w", line, err)
		}
		ds = append(ds, dec)
		if d.a.json {
			_ = d.a.emit(struct {
				Event string `json:"event"`
				escalation.Decision
			}{"escalation", dec})
		} else {
			d.mu.Lock()
			d.a.printf("%s\n", line)
			d.mu.Unlock()
		}
	}
	if len(ds) != 4 {
		return nil, fmt.Errorf("the demo's escalation decided %d records, want 4", len(ds))
	}
	return ds, nil
}

// reportEscalate says where to look at the escalation.
func (d *demo) reportEscalate(ds []escalation.Decision) {
	if d.a.json {
		return
	}
	d.a.printf("  escalations   %s   (one line per record; a second run adds none)\n", filepath.Join(d.root, escalation.LedgerName))
	for _, dec := range ds {
		if dec.DebateID != "" {
			d.a.printf("  debated       task %s: %s → %s (%s), %s\n", dec.TaskID, dec.Verdict, dec.Action, dec.Reason, filepath.Join(d.root, "vault", filepath.FromSlash(dec.Record)))
		}
	}
	d.a.printf("  try           parley --root %s escalate --telemetry %s\n", d.root, filepath.Join(d.root, "demo", "escalate", "telemetry.jsonl"))
}

// lineBuffer collects output lines.
type lineBuffer struct{ b []byte }

func (l *lineBuffer) Write(p []byte) (int, error) { l.b = append(l.b, p...); return len(p), nil }

func (l *lineBuffer) lines() []string {
	var out []string
	start := 0
	for i, c := range l.b {
		if c == '\n' {
			if i > start {
				out = append(out, string(l.b[start:i]))
			}
			start = i + 1
		}
	}
	return out
}

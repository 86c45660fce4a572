package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/demo"
	"github.com/parleyhq/parley/registry"
)

// newDemoCmd is "parley demo" (demo.Run): the flow on a temporary root, in
// seconds, printed as it happens.
func newDemoCmd(a *app) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "demo [--dir DIR]",
		Short: "Run the whole flow on a temporary root, in seconds",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := demo.Root(dir)
			if errors.Is(err, demo.ErrDir) {
				return usagef("--dir %s: %v", dir, err)
			}
			if err != nil {
				return fmt.Errorf("--dir: %w", err)
			}
			// Everything of the demo lives under its root.
			a.rootFlag, a.vaultFlag = root, filepath.Join(root, "vault")
			svc := demo.Services{
				Debate: func(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error) {
					return a.execDebate(ctx, s, false)
				},
				Escalate: a.demoEscalate,
				Logger:   a.logger(),
			}
			res, err := demo.Run(cmd.Context(), root, svc, a.demoEvent)
			if err != nil {
				return err
			}
			a.demoReport(res)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the demo's root: used if new or empty, else a new demo-* directory is made in it (default: a new temporary directory, kept)")
	return cmd
}

// demoEvent prints one step: a JSON line under --json, else a timed line;
// the verdict as "debate run" prints it, an escalation as escalate's line.
func (a *app) demoEvent(e demo.Event) error {
	switch {
	case e.Kind == demo.EventVerdict:
		if err := a.printVerdict(e.Outcome); err != nil && e.Outcome.Verdict == debate.ConsensusReached {
			return err
		}
		return nil
	case e.Kind == demo.EventEscalation && a.json:
		return a.emit(struct {
			Event string `json:"event"`
			escalation.Decision
		}{e.Kind, e.Escalation.Decision})
	case e.Kind == demo.EventEscalation:
		a.printf("%s\n", e.Escalation.Line)
		return nil
	case a.json:
		obj := map[string]any{"event": e.Kind, "t_ms": float64(e.At.Microseconds()) / 1000}
		for k, v := range e.Data {
			obj[k] = v
		}
		return a.emit(obj)
	}
	a.printf("[%8.1f ms] %s\n", float64(e.At.Microseconds())/1000, e.Text)
	return nil
}

// demoReport says what happened and where to look.
func (a *app) demoReport(r *demo.Result) {
	o, root := r.Outcome, r.Root
	vault := filepath.Join(root, "vault")
	asker, answerer := r.Agents[0], r.Agents[1]
	if a.json {
		_ = a.emit(map[string]any{
			"event":        "done",
			"elapsed_ms":   r.Elapsed.Round(time.Millisecond).Milliseconds(),
			"root":         root,
			"acknowledged": []string{filepath.Join(root, inbox.InboxDir, asker, inbox.CurDir), filepath.Join(root, inbox.InboxDir, answerer, inbox.CurDir)},
			"debate_id":    o.DebateID,
			"verdict":      o.Verdict,
			"transcript":   filepath.Join(root, "debates", o.DebateID, "transcript.jsonl"),
			"record":       filepath.Join(vault, filepath.FromSlash(o.Record)),
		})
		return
	}
	a.printf("\n%d questions answered and a debate closed with %s in %s. Where to look:\n", r.Questions, o.Verdict, r.Elapsed.Round(time.Millisecond))
	a.printf("  transcript    %s/transcript.jsonl   (hash-chained events; session.json, verdict.json beside it)\n", filepath.Join(root, "debates", o.DebateID))
	if o.Record != "" {
		a.printf("  record        %s\n", filepath.Join(vault, filepath.FromSlash(o.Record)))
	}
	a.printf("  readable      %s\n", filepath.Join(vault, "wiki", "debates", o.DebateID+".md"))
	a.printf("  try           parley --root %s transcripts verify %s\n", root, o.DebateID)
	a.printf("                parley --root %s debate status %s\n", root, o.DebateID)
	a.printf("                parley --root %s consensus check --layer spec --topic %q --position 'Use server-generated keys'\n", root, demo.Topic)
	a.printf("  messages      %s/inbox/{%s,%s}/cur/   (acknowledged, one JSON file each)\n", root, asker, answerer)
	a.printf("  registrations %s/%s/            (removed as the agents stopped)\n", root, registry.Dir)
	a.printf("  try           parley --root %s agents show %s\n", root, answerer)
	a.printf("                parley --root %s send --from You --to %s 'hello'\n", root, answerer)
	a.printf("  escalations   %s   (one line per record; a second run adds none)\n", filepath.Join(root, escalation.LedgerName))
	for _, e := range r.Escalations {
		if d := e.Decision; d.DebateID != "" {
			a.printf("  debated       task %s: %s → %s (%s), %s\n", d.TaskID, d.Verdict, d.Action, d.Reason, filepath.Join(vault, filepath.FromSlash(d.Record)))
		}
	}
	a.printf("  try           parley --root %s escalate --telemetry %s\n", root, demo.TelemetryPath(root))
}

// demoEscalate escalates the demo's telemetry as "parley escalate" does
// and returns the lines it prints, decoded. (Until escalation returns its
// decisions as values, it runs escalate with its output captured.)
func (a *app) demoEscalate(ctx context.Context, telemetry string) ([]demo.Escalation, error) {
	var out, discard strings.Builder
	quiet := *a
	quiet.stdout, quiet.stderr = &out, &discard
	if err := quiet.escalate(ctx, telemetry, "", false, false, false); err != nil {
		return nil, err
	}
	var es []demo.Escalation
	for _, line := range strings.Split(out.String(), "\n") {
		if line == "" {
			continue
		}
		var d escalation.Decision
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			return nil, fmt.Errorf("escalate printed %q: %w", line, err)
		}
		es = append(es, demo.Escalation{Decision: d, Line: line})
	}
	return es, nil
}

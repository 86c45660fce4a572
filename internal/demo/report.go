package demo

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// JSON is the run's last JSON line ("done"): where its files are.
func (r *Result) JSON() map[string]any {
	o := r.Outcome
	return map[string]any{
		"event":        "done",
		"elapsed_ms":   r.Elapsed.Round(time.Millisecond).Milliseconds(),
		"root":         r.Root,
		"acknowledged": []string{filepath.Join(r.Root, inbox.InboxDir, r.Agents[0], inbox.CurDir), filepath.Join(r.Root, inbox.InboxDir, r.Agents[1], inbox.CurDir)},
		"debate_id":    o.DebateID,
		"verdict":      o.Verdict,
		"transcript":   filepath.Join(r.Root, "debates", o.DebateID, "transcript.jsonl"),
		"record":       filepath.Join(r.Root, "vault", filepath.FromSlash(o.Record)),
	}
}

// WriteText says what happened and where to look, with commands to paste,
// each worded by cmd (the parley command line that runs its arguments on
// the demo's root and vault, as the front end words every hint: with
// --vault too, since a PARLEY_VAULT in the user's shell would otherwise
// send a pasted command to another vault).
func (r *Result) WriteText(w io.Writer, cmd func(args ...string) string) error {
	o, root := r.Outcome, r.Root
	vault := filepath.Join(root, "vault")
	asker, answerer := r.Agents[0], r.Agents[1]
	var err error
	p := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	p("\n%d questions answered and a debate closed with %s in %s. Where to look:\n", r.Questions, o.Verdict, r.Elapsed.Round(time.Millisecond))
	p("  transcript    %s/transcript.jsonl   (hash-chained events; session.json, verdict.json beside it)\n", filepath.Join(root, "debates", o.DebateID))
	if o.Record != "" {
		p("  record        %s\n", filepath.Join(vault, filepath.FromSlash(o.Record)))
	}
	p("  readable      %s\n", filepath.Join(vault, "wiki", "debates", o.DebateID+".md"))
	p("  try           %s\n", cmd("transcripts", "verify", o.DebateID))
	p("                %s\n", cmd("debate", "status", o.DebateID))
	p("                %s\n", cmd("consensus", "check", "--layer", "spec", "--topic", Topic, "--position", "Use a server-generated Idempotency-Key, claimed atomically"))
	p("  messages      %s/inbox/{%s,%s}/cur/   (acknowledged, one JSON file each)\n", root, asker, answerer)
	p("  registrations %s/%s/            (removed as the agents stopped)\n", root, registry.Dir)
	p("  try           %s\n", cmd("agents", "show", answerer))
	p("                %s\n", cmd("send", "--from", "You", "--to", answerer, "hello"))
	p("  escalations   %s   (one line per record; a second run adds none)\n", filepath.Join(root, escalation.LedgerName))
	for _, e := range r.Escalations {
		if d := e.Decision; d.DebateID != "" {
			p("  debated       task %s: %s → %s (%s), %s\n", d.TaskID, d.Verdict, d.Action, d.Reason, filepath.Join(vault, filepath.FromSlash(d.Record)))
		}
	}
	p("  try           %s\n", cmd("escalate", "--telemetry", TelemetryPath(root)))
	return err
}

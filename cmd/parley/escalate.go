package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/escalation"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/textview"
)

func newEscalateCmd(a *factory) *cobra.Command {
	var o app.EscalateOptions
	cmd := &cobra.Command{
		Use:   "escalate --telemetry FILE [--follow] [--workspace DIR]",
		Short: "Decide proceed or hold for a verifier's DRIFT verdicts (one JSON line per record)",
		Long: "Reads mini-verifier telemetry (JSON Lines) and applies the cascade: only DRIFT is\n" +
			"escalated; L priority holds without a debate; M (or none) goes through the gate\n" +
			"and, if it says so, a verify-layer debate between config.json's escalation.defender\n" +
			"(the claims hold) and escalation.attacker (the verifier's reasons); H and BLOCKER\n" +
			"are skipped. proceed only when the debate reaches CONSENSUS_REACHED on the claims;\n" +
			"everything else is hold with its reason. Prints one JSON line per record decided,\n" +
			"also appended to <root>/escalations.jsonl; a record already there is not decided\n" +
			"again. Malformed lines are reported on stderr with their number and skipped.\n" +
			"--follow keeps reading lines appended to FILE until interrupted. FILE - reads\n" +
			"standard input, deciding each record as its line arrives, to its end.\n" +
			"--retry-unavailable decides again, in a new debate, the records held because\n" +
			"their agents could not be reached (reason \"unavailable\").\n\n" +
			"Each line of FILE is one JSON object with task_id (a string or an integer),\n" +
			"timestamp (RFC 3339) and verdict (CONFIRMED, DRIFT, HALLUCINATION, SKIP, …), all\n" +
			"required; and, optional: priority (L, M, H or BLOCKER; none counts as M),\n" +
			"confidence (0–1, or \"80%\"), reasons[] (the verifier's doubts, which the attacker\n" +
			"argues), claims[] (what the task claims, which the defender holds), evidence_paths[]\n" +
			"(files under the workspace), latency_ms, model_id, cost_usd, fallback_used. Other\n" +
			"fields are ignored. task_id and timestamp together identify a record.\n\n" +
			"--workspace (default: escalation.workspace of config.json, else the working\n" +
			"directory) is where evidence paths are checked; a relative escalation.workspace\n" +
			"is relative to the root, a relative --workspace to the working directory.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Telemetry == "" {
				return cmdutil.Usagef("--telemetry FILE is required: the mini-verifier's JSONL log, or - for standard input (see parley escalate --help)")
			}
			return a.escalate(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Telemetry, "telemetry", "", "the verifier's telemetry file (JSON Lines; - for standard input)")
	f.BoolVar(&o.Follow, "follow", false, "keep reading records appended to the file until interrupted")
	f.BoolVar(&o.RetryUnavailable, "retry-unavailable", false, "decide again the records held because their agents could not be reached")
	f.StringVar(&o.Workspace, "workspace", "", "the directory evidence paths are read and checked under (default: config's escalation.workspace, else .)")
	return cmd
}

// escalate runs the cascade over the telemetry file (once, or following
// it) through the service layer: one JSON line per decision on stdout,
// what was skipped and the counts on stderr.
func (a *factory) escalate(ctx context.Context, o app.EscalateOptions) error {
	ctx, stop := interrupt.On(ctx)
	defer stop()
	if o.Telemetry == "-" {
		o.Telemetry = "standard input"
		o.Records = a.StdinReader(ctx, "telemetry records")
	}
	notes := textview.EscalationNotes{W: a.Stderr, Telemetry: o.Telemetry}
	o.Decided = func(_ *escalation.Decision, line []byte) error {
		_, err := a.Stdout.Write(line)
		return err
	}
	o.Malformed, o.Incomplete, o.Already, o.Warn = notes.Malformed, notes.Incomplete, notes.Already, func(err error) { a.Warnf("%v", a.Fail(err, cmdutil.Wording{})) }
	if o.Follow {
		o.Ready = notes.Following
	}
	st, err := a.Service().Escalate(ctx, o)
	if err != nil && o.Follow && ctx.Err() != nil {
		notes.Interrupted(err)
		err = nil
	}
	var tampered *app.TamperedError
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, interrupt.ErrInterrupted):
		// Cut short while reading a stream (standard input, a pipe) that
		// had not sent its next line: every record read was decided.
		notes.Stats(st)
		return fmt.Errorf("%w while waiting for the next line of %s: no record was being decided", cmdutil.ErrInterrupted, o.Telemetry)
	case err != nil && ctx.Err() != nil:
		notes.Stats(st)
		return fmt.Errorf("%w; the next parley escalate takes the record up again", cmdutil.ErrInterrupted)
	case errors.Is(err, escalation.ErrNoAgents):
		return cmdutil.Usagef("%v: a record needs a debate; set escalation.defender and escalation.attacker in %s (see docs/escalation.md)", err, filepath.Join(a.RootDir(), config.FileName))
	case errors.As(err, &tampered):
		return fmt.Errorf("%w (%s shows what changed; the record is taken up again once the debate's files verify)", err, a.CmdLine("transcripts", "verify", tampered.ID))
	case errors.Is(err, app.ErrEscalateBusy):
		return fmt.Errorf("another parley escalate is running on %s (%s is locked): wait for it, or stop it", a.RootDir(), escalation.LedgerName)
	case err != nil:
		return a.Fail(err, cmdutil.Wording{})
	}
	notes.Stats(st)
	return nil
}

// Package debatecmd is "parley debate": run a budgeted debate to its
// verdict, start one in the background, follow, resume and list them.
//
// Each command is an options struct, a constructor NewCmdX(f, runF) and a
// run function, as in GitHub's gh (see cmdutil.Runner). It owns these
// commands' flags and output: the progress of a running debate and how its
// verdict is printed (Exec, PrintVerdict, which the demo shares). Building
// the session, running, supervising agents and filing are the service
// layer's (app). It imports no other command package.
package debatecmd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/textview"
)

// NewCmd is "parley debate run | start | status | watch | resume | list".
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "debate",
		Short: "Run budgeted debates between a defender and its attackers",
		Long: "A debate puts one defender's position to one or more attackers, round by round,\n" +
			"within a budget of rounds, tokens and seconds, and ends in one verdict:\n" +
			"CONSENSUS_REACHED (exit 0), DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT (exit 3), or\n" +
			"UNAVAILABLE (exit 3: an agent or its model endpoint could not be reached; not filed).\n" +
			"Every event is recorded in <root>/debates/<id>/transcript.jsonl, hash-chained.",
	}, NewCmdRun(f, nil), NewCmdStart(f, nil), NewCmdStatus(f, nil),
		NewCmdWatch(f, nil), NewCmdResume(f, nil), NewCmdList(f, nil))
}

// budgetFlags are the per-debate budget overrides as the flags hold them.
type budgetFlags struct {
	rounds, tokens, perRound, convergence int
	timeout                               time.Duration
}

func (b *budgetFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&b.rounds, "max-rounds", 0, "rounds at most (default: the layer's, from config.json)")
	fl.IntVar(&b.tokens, "max-tokens", 0, "tokens at most, all turns together")
	fl.IntVar(&b.perRound, "max-tokens-per-round", 0, "tokens each agent may spend per round (a turn over it is kept and flagged)")
	fl.Var((*timeoutValue)(&b.timeout), "timeout", "wall-clock budget of the debate, e.g. 90s or 2m")
	fl.IntVar(&b.convergence, "convergence-rounds", 0, "consecutive rounds a pattern must hold to end the debate")
}

// timeoutValue is --timeout: a duration as time.ParseDuration reads it.
// What it cannot read (no unit, or more than a duration holds) is refused
// with the range a debate's wall clock accepts, rather than Go's bare
// "invalid duration".
type timeoutValue time.Duration

func (v *timeoutValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("not a duration from 1ms to %v (a week), such as 90s, 2m or 1h30m", debate.MaxWallClock)
	}
	*v = timeoutValue(d)
	return nil
}

func (v *timeoutValue) String() string {
	if *v == 0 {
		return "0" // no default shown in the help
	}
	return time.Duration(*v).String()
}

func (v *timeoutValue) Type() string { return "duration" }

// override is the budget flags that were given.
func (b *budgetFlags) override(cmd *cobra.Command) debate.BudgetOverride {
	ms := b.timeout.Milliseconds()
	return debate.BudgetOverride{
		MaxRounds:         given(cmd, "max-rounds", &b.rounds),
		MaxTokens:         given(cmd, "max-tokens", &b.tokens),
		MaxTokensPerRound: given(cmd, "max-tokens-per-round", &b.perRound),
		MaxWallClockMs:    given(cmd, "timeout", &ms),
		ConvergenceRounds: given(cmd, "convergence-rounds", &b.convergence),
	}
}

// given is v when the flag name was given on the command line, else nil
// (an override that leaves the default).
func given[T any](cmd *cobra.Command, name string, v *T) *T {
	if cmd.Flags().Changed(name) {
		return v
	}
	return nil
}

// requestFlags fills r (and its budget, through b) from the flags "debate
// run" and "debate start" share.
func requestFlags(cmd *cobra.Command, r *app.DebateRequest, b *budgetFlags) {
	fl := cmd.Flags()
	fl.StringVar(&r.Layer, "layer", "", "spec, plan or verify (sets the default budget)")
	fl.StringVar(&r.Topic, "topic", "", "the question debated")
	fl.StringArrayVar(&r.Agents, "agent", nil, "ROLE=SPEC, once per participant in speaking order; SPEC is script:FILE, exec:COMMAND, openai:MODEL or @NAME")
	fl.StringVar(&r.Position, "position", "", "the defender's opening position (default: the topic)")
	fl.StringVar(&r.Scope, "scope", "", "what the debate covers, in a line")
	fl.StringArrayVar(&r.Context, "context", nil, "a file handed to every turn (repeatable; - reads standard input)")
	fl.StringVar(&r.Workspace, "workspace", ".", "the directory evidence paths are checked under")
	b.add(cmd)
}

// session is the session a request describes, built by the service layer.
// A budget flag that leaves a limit not positive, or a wall clock over its
// bound, is a usage error naming the flag.
func session(ctx context.Context, f *cmdutil.Factory, r app.DebateRequest) (*debate.DebateSession, error) {
	if slices.Contains(r.Context, app.StdinContext) {
		r.Stdin = f.StdinReader(ctx, "the context")
	}
	s, err := f.Service().NewSession(ctx, r)
	var be *debate.BudgetError
	if errors.As(err, &be) {
		switch flag := budgetFlag(be.Limit, r.Budget); flag {
		case "":
		case "--timeout":
			if be.Value > 0 {
				return nil, cmdutil.Usagef("--timeout %v: at most %v, a week (see parley debate run --help)", time.Duration(be.Value)*time.Millisecond, debate.MaxWallClock)
			}
			return nil, cmdutil.Usagef("--timeout: at least 1ms (see parley debate run --help)")
		default:
			return nil, cmdutil.Usagef("%s %d: must be positive (see parley debate run --help)", flag, be.Value)
		}
	}
	return s, f.Fail(err, cmdutil.Wording{Help: "parley debate run"})
}

// budgetFlag is the flag that set a budget limit (named as config.json
// names it), or "" when o leaves it to the defaults.
func budgetFlag(limit string, o debate.BudgetOverride) string {
	if !o.Sets(limit) {
		return ""
	}
	return map[string]string{
		"maxRounds": "--max-rounds", "maxTokens": "--max-tokens", "maxTokensPerRound": "--max-tokens-per-round",
		"maxWallClockMs": "--timeout", "convergenceRounds": "--convergence-rounds",
	}[limit]
}

// RunOptions are what "parley debate run" was asked for.
type RunOptions struct {
	f *cmdutil.Factory
	// Request is the debate; its Budget holds only the budget flags given.
	Request app.DebateRequest
	// GateFile is a self-critique (a file, or "-") the gate decides on
	// first; "": no gate. GateMode is the gate's mode.
	GateFile, GateMode string
}

// verdictExits says, in a command's short help, how a debate's verdict
// ends it; made from the exit codes themselves, so that it cannot say
// another.
func verdictExits() string {
	return fmt.Sprintf("(exit %d on CONSENSUS_REACHED, %d otherwise, UNAVAILABLE included)", cmdutil.ExitOK, cmdutil.ExitUnavailable)
}

// NewCmdRun is "parley debate run": a debate in this process, to its
// verdict.
func NewCmdRun(f *cmdutil.Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{f: f}
	run := cmdutil.Runner(opts, runF, runRun)
	var budget budgetFlags
	cmd := &cobra.Command{
		Use:   "run --layer L --topic T --agent ROLE=SPEC... [budget flags]",
		Short: "Run a debate to its verdict " + verdictExits(),
		Long: "Starts the agents it needs as separate processes (script:FILE, exec:COMMAND)\n" +
			"or uses running ones (@NAME), runs the debate, files the verdict in the vault\n" +
			"and prints it. Attackers speak in the order given, then the defender.\n" +
			"With --json: one JSON line per event, then a closing \"verdict\" line.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Request.Budget = budget.override(cmd)
			return run(cmd)
		},
	}
	requestFlags(cmd, &opts.Request, &budget)
	cmd.Flags().StringVar(&opts.GateFile, "gate", "", "a self-critique (FILE or -): run the gate first and debate only when it says so")
	cmd.Flags().StringVar(&opts.GateMode, "gate-mode", "model", "the gate's mode with --gate: model or rules")
	return cmd
}

func runRun(ctx context.Context, opts *RunOptions) error {
	f := opts.f
	if opts.GateFile == "-" && slices.Contains(opts.Request.Context, app.StdinContext) {
		return cmdutil.Usagef("--gate - and --context - both read standard input: give one of them as a file")
	}
	s, err := session(ctx, f, opts.Request)
	if err != nil {
		return err
	}
	if opts.GateFile != "" {
		skip, err := gateDebate(ctx, f, s, opts.GateFile, opts.GateMode)
		if err != nil || skip {
			return err
		}
	}
	return runDebate(ctx, f, s, false)
}

// StartOptions are what "parley debate start" was asked for.
type StartOptions struct {
	f       *cmdutil.Factory
	Request app.DebateRequest
}

// NewCmdStart is "parley debate start": a debate in a detached process.
func NewCmdStart(f *cmdutil.Factory, runF func(*StartOptions) error) *cobra.Command {
	opts := &StartOptions{f: f}
	run := cmdutil.Runner(opts, runF, startRun)
	var budget budgetFlags
	cmd := &cobra.Command{
		Use:   "start --layer L --topic T --agent ROLE=SPEC... [budget flags]",
		Short: "Start a debate in the background and print its id",
		Long: "Like \"debate run\", but the debate runs in a detached process (its output in\n" +
			"<root>/debates/<id>/logs/coordinator.log). Follow it with \"parley debate watch ID\".",
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Request.Budget = budget.override(cmd)
			return run(cmd)
		},
	}
	requestFlags(cmd, &opts.Request, &budget)
	return cmd
}

func startRun(ctx context.Context, opts *StartOptions) error {
	f := opts.f
	s, err := session(ctx, f, opts.Request)
	if err != nil {
		return err
	}
	pid, err := f.Service().StartDebate(ctx, s)
	if err != nil {
		return debateError(f, err, s.ID)
	}
	if f.JSON {
		return f.Emit(map[string]any{"event": "started", "debate_id": s.ID, "pid": pid})
	}
	_ = textview.DebateStarted(f.Stdout, f.Stderr, s.ID, pid, f.CmdLine("debate", "watch", s.ID))
	return nil
}

// debateError turns the service layer's errors about debate id into one
// line that says what to do (app.ExplainDebate), with the commands it
// suggests as this one was run.
func debateError(f *cmdutil.Factory, err error, id string) error {
	return f.Fail(f.Service().ExplainDebate(err, id), cmdutil.Wording{})
}

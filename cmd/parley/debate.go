package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
)

// newDebateCmd is "parley debate run | start | status | watch | resume | list".
func newDebateCmd(a *factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "debate",
		Short: "Run budgeted debates between a defender and its attackers",
		Long: "A debate puts one defender's position to one or more attackers, round by round,\n" +
			"within a budget of rounds, tokens and seconds, and ends in one verdict:\n" +
			"CONSENSUS_REACHED (exit 0), DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT (exit 3), or\n" +
			"UNAVAILABLE (exit 3: an agent or its model endpoint could not be reached; not filed).\n" +
			"Every event is recorded in <root>/debates/<id>/transcript.jsonl, hash-chained.",
	}, newDebateRunCmd(a), newDebateStartCmd(a), newDebateStatusCmd(a),
		newDebateWatchCmd(a), newDebateResumeCmd(a), newDebateListCmd(a))
}

// budgetFlags are the per-debate budget overrides (SPEC §5.2).
type budgetFlags struct {
	rounds, tokens, perRound, convergence int
	timeout                               time.Duration
}

func (f *budgetFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&f.rounds, "max-rounds", 0, "rounds at most (default: the layer's, from config.json)")
	fl.IntVar(&f.tokens, "max-tokens", 0, "tokens at most, all turns together")
	fl.IntVar(&f.perRound, "max-tokens-per-round", 0, "tokens each agent may spend per round (a turn over it is kept and flagged)")
	fl.DurationVar(&f.timeout, "timeout", 0, "wall-clock budget of the debate, e.g. 90s or 2m")
	fl.IntVar(&f.convergence, "convergence-rounds", 0, "consecutive rounds a pattern must hold to end the debate")
}

// override is the budget flags that were given.
func (f *budgetFlags) override(cmd *cobra.Command) debate.BudgetOverride {
	ms := f.timeout.Milliseconds()
	return debate.BudgetOverride{
		MaxRounds:         given(cmd, "max-rounds", &f.rounds),
		MaxTokens:         given(cmd, "max-tokens", &f.tokens),
		MaxTokensPerRound: given(cmd, "max-tokens-per-round", &f.perRound),
		MaxWallClockMs:    given(cmd, "timeout", &ms),
		ConvergenceRounds: given(cmd, "convergence-rounds", &f.convergence),
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

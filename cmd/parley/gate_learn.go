package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/textview"
)

// newGateLabelCmd is "parley gate label FILE|-" and "parley gate label
// --decision ID --debate|--skip".
func newGateLabelCmd(a *factory) *cobra.Command {
	var (
		decision      string
		debate_, skip bool
	)
	cmd := &cobra.Command{
		Use:   "label [FILE | -] | --decision ID --debate|--skip",
		Short: "Add labelled self-critiques, or label a logged gate decision, for 'parley gate learn'",
		Long: "label appends to <root>/gate/labels.jsonl, which 'parley gate learn' trains on.\n\n" +
			"With FILE (or - for standard input) it reads JSON Lines, one labelled self-critique\n" +
			"a line: the self-critique's JSON fields, or {\"layer\",\"text\"} with the text as you\n" +
			"would give it to 'parley gate', plus \"label\": \"debate\" or \"skip\". Every line is\n" +
			"checked before any is added; a bad line adds nothing and names its line number.\n\n" +
			"With --decision ID it labels a decision logged in <root>/gate.jsonl (each has a\n" +
			"short id, printed by 'parley gate'; a unique prefix is enough).",
		Args: cmdutil.MaxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if decision != "" {
				if len(args) > 0 {
					return cmdutil.Usagef("give a FILE or --decision, not both")
				}
				if debate_ == skip {
					return cmdutil.Usagef("--decision needs exactly one of --debate or --skip")
				}
				l, err := a.Service().LabelDecision(decision, debate_)
				if errors.Is(err, app.ErrUnlabellable) {
					return fmt.Errorf("decision %s was logged without its self-critique (by an older parley, or larger than %d KiB); label the self-critique with: %s", l.DecisionID, gating.MaxLoggedInput>>10, a.CmdLine("gate", "label", "FILE"))
				}
				if err != nil {
					return a.Fail(err, cmdutil.Wording{})
				}
				return a.show(l, func(w io.Writer) error { return textview.DecisionLabelled(w, l, a.CmdLine("gate", "learn")) })
			}
			if debate_ || skip {
				return cmdutil.Usagef("--debate and --skip go with --decision ID")
			}
			if len(args) == 0 {
				return cmdutil.Usagef("give a FILE of labelled self-critiques (- for standard input) or --decision ID")
			}
			var r io.Reader = a.Stdin
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			n, err := a.Service().AddLabels(r, args[0])
			if err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			return a.show(n, func(w io.Writer) error { return textview.Labelled(w, n, filepath.Join(a.RootDir(), gating.LabelsName)) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&decision, "decision", "", "the id of a decision in gate.jsonl to label")
	f.BoolVar(&debate_, "debate", false, "the decision's question deserved a debate")
	f.BoolVar(&skip, "skip", false, "the decision's question needed no debate")
	return cmd
}

// newGateLearnCmd is "parley gate learn [--force] [--reset]".
func newGateLearnCmd(a *factory) *cobra.Command {
	var force, reset bool
	var folds int
	cmd := &cobra.Command{
		Use:   "learn [--force] [--reset]",
		Short: "Train a model on the shipped corpus plus your labels; install it when it is not worse",
		Long: "learn trains on the shipped corpus plus <root>/gate/labels.jsonl (your labels\n" +
			"weigh 4 corpus examples each) and the outcome labels of debates the gate sent to\n" +
			"debate (2 each): the attacker won or the answer changed labels debate; every\n" +
			"attacker conceding in round 1 with the defender's position unchanged labels skip;\n" +
			"other verdicts give no label. It prints recall of debate and skip rate for the\n" +
			"current model and, cross-validated, for the new one, on the labels the current\n" +
			"model was not trained on (all of them for the embedded model), and installs\n" +
			"the new one as <root>/gate/model.json only when neither figure is worse (--force\n" +
			"installs it anyway). 'parley gate' then decides with it and names it by its hash.\n" +
			"--reset removes <root>/gate/model.json: the embedded model decides again.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if reset {
				if force {
					return cmdutil.Usagef("--reset and --force do not go together")
				}
				removed, path, err := a.Service().ResetGate()
				if err != nil {
					return err
				}
				return a.show(map[string]any{"reset": removed, "model": gating.EmbeddedName}, func(w io.Writer) error {
					return textview.GateReset(w, removed, path)
				})
			}
			res, err := a.Service().Learn(folds, force)
			if res != nil {
				for _, w := range res.Warnings {
					a.Warnf("%s", w)
				}
			}
			if errors.Is(err, app.ErrNoLabels) {
				return cmdutil.Usagef("no labels yet: add some with %s or %s", a.CmdLine("gate", "label", "FILE"), a.CmdLine("gate", "label", "--decision", "ID")+" --debate (or --skip)")
			}
			if err != nil {
				return err
			}
			return a.show(res, func(w io.Writer) error {
				return textview.Learned(w, res, textview.LearnCommands{Gate: a.CmdLine("gate"), Reset: a.CmdLine("gate", "learn", "--reset")})
			})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&force, "force", false, "install the new model even when it is worse on your labels")
	f.BoolVar(&reset, "reset", false, "remove the learnt model: the embedded model decides again")
	f.IntVar(&folds, "folds", 5, "cross-validation folds over your labels")
	return cmd
}

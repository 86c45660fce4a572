package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/gating"
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
		Example: "  parley gate label mine.jsonl\n" +
			"  echo '{\"layer\":\"verify\",\"text\":\"Fixed, TestX passes.\",\"label\":\"skip\"}' | parley gate label -\n" +
			"  parley gate label --decision 3f9a2c1e --debate",
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if decision != "" {
				if len(args) > 0 {
					return usagef("give a FILE or --decision, not both")
				}
				if debate_ == skip {
					return usagef("--decision needs exactly one of --debate or --skip")
				}
				e, label, err := a.service().LabelDecision(decision, debate_)
				if errors.Is(err, app.ErrUnlabellable) {
					return fmt.Errorf("decision %s was logged without its self-critique (by an older parley, or larger than %d KiB); label the self-critique with: %s", e.ID, gating.MaxLoggedInput>>10, a.cmdLine("gate", "label", "FILE"))
				}
				if err != nil {
					return appError(err)
				}
				if a.json {
					return a.emit(map[string]any{"labelled": 1, "decision_id": e.ID, "label": label, "gate_decided": e.Outcome})
				}
				a.printf("labelled decision %s as %s (the gate decided %s); %s trains on it\n", e.ID, label, e.Outcome, a.cmdLine("gate", "learn"))
				return nil
			}
			if debate_ || skip {
				return usagef("--debate and --skip go with --decision ID")
			}
			if len(args) == 0 {
				return usagef("give a FILE of labelled self-critiques (- for standard input) or --decision ID")
			}
			var r io.Reader = a.stdin
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			n, err := a.service().AddLabels(r, args[0])
			if err != nil {
				return appError(err)
			}
			if a.json {
				return a.emit(n)
			}
			a.printf("added %d label(s) (%d debate, %d skip) to %s\n", n.Labelled, n.Debate, n.Skip, filepath.Join(a.rootDir(), gating.LabelsName))
			return nil
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
		Example: "  parley gate learn\n  parley gate learn --force\n  parley gate learn --reset",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if reset {
				if force {
					return usagef("--reset and --force do not go together")
				}
				removed, path, err := a.service().ResetGate()
				switch {
				case err != nil:
					return err
				case !removed:
					a.printf("no learnt model in %s; the embedded model decides\n", path)
					return nil
				}
				if a.json {
					return a.emit(map[string]any{"reset": true, "model": gating.EmbeddedName})
				}
				a.printf("removed %s; the embedded model decides again\n", path)
				return nil
			}
			res, err := a.service().Learn(folds, force)
			if res != nil {
				for _, w := range res.Warnings {
					a.warnf("%s", w)
				}
			}
			if errors.Is(err, app.ErrNoLabels) {
				return usagef("no labels yet: add some with %s or %s", a.cmdLine("gate", "label", "FILE"), a.cmdLine("gate", "label", "--decision", "ID")+" --debate (or --skip)")
			}
			if err != nil {
				return err
			}
			path, install := res.Path, res.Installed
			if a.json {
				return a.emit(map[string]any{
					"labels": map[string]int{"user": res.User, "outcome": res.Outcomes}, "corpus": res.Corpus,
					"current":   map[string]any{"model": res.CurrentName, "score": res.Current},
					"new":       map[string]any{"model": res.NewName, "score": res.New, "cross_validated": true},
					"not_worse": res.NotWorse, "installed": install, "current_saw_all": res.CurrentSawAll,
				})
			}
			a.printf("trained on %d corpus examples, %d user label(s) and %d outcome label(s)\n", res.Corpus, res.User, res.Outcomes)
			if res.CurrentSawAll {
				a.printf("compared on all %d label(s); the current model was trained on them, so its figures are in-sample\n", res.Current.N)
			} else {
				a.printf("compared on the %d label(s) the current model was not trained on\n", res.Current.N)
			}
			a.printf("  current %s: recall of debate %.3f, skip rate %.3f\n", res.CurrentName, res.Current.Recall, res.Current.SkipRate)
			a.printf("  new     %s: recall of debate %.3f, skip rate %.3f (cross-validated)\n", res.NewName, res.New.Recall, res.New.SkipRate)
			switch {
			case res.NotWorse:
				a.printf("installed %s: %s decides with it (undo: %s)\n", path, a.cmdLine("gate"), a.cmdLine("gate", "learn", "--reset"))
			case force:
				a.printf("the new model is worse on your labels; installed it anyway (--force) as %s\n", path)
			default:
				a.printf("not installed: the new model is worse on your labels than the current one (install it anyway with --force)\n")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&force, "force", false, "install the new model even when it is worse on your labels")
	f.BoolVar(&reset, "reset", false, "remove the learnt model: the embedded model decides again")
	f.IntVar(&folds, "folds", 5, "cross-validation folds over your labels")
	return cmd
}

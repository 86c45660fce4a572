// Package gatecmd is "parley gate": decide whether a self-critique deserves
// a debate, and train, measure, label and learn the classifier that
// decides.
//
// Each command is an options struct, a constructor NewCmdX(f, runF) and a
// run function, as in GitHub's gh (see cmdutil.Runner). It owns these
// commands' flags and output; what the gate decides and how it learns is
// the service layer's (app, over package gating). It imports no other
// command package.
package gatecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/internal/userfile"
)

// GateOptions are what "parley gate" was asked for.
type GateOptions struct {
	f *cmdutil.Factory
	// Source is the self-critique's file, or "-" for standard input.
	Source string
	// Mode is "model" or "rules"; Model a model file instead of the
	// installed or embedded one.
	Mode, Model string
	// Layer overrides the input's layer.
	Layer string
	// ExitCode: a debate decision exits 3.
	ExitCode bool
	// near names the subcommands close to a source that is no file.
	near func(name string) []string
}

// NewCmd is "parley gate [FILE|-]": decide debate or skip for one
// self-critique, print why, and log the decision to gate.jsonl; its
// subcommands train, measure and teach the classifier.
func NewCmd(f *cmdutil.Factory, runF func(*GateOptions) error) *cobra.Command {
	opts := &GateOptions{f: f}
	run := cmdutil.Runner(opts, runF, gateRun)
	cmd := &cobra.Command{
		Use:   "gate [FILE | -]",
		Short: "Decide whether a self-critique deserves a debate (iMAD-style gate)",
		Long: "gate reads one self-critique from FILE or standard input: JSON, or any readable\n" +
			"text (sections such as \"Draft\", \"Self-check\", \"Reflection\", \"Revised answer\"\n" +
			"are recognised by meaning in headings, bold labels or Label: lines; confidences\n" +
			"as 0.8, 80%, high or 0.6 -> 0.9; text without sections is all critique). It\n" +
			"decides debate or skip, prints the score, the threshold, the model, what it\n" +
			"parsed and the cues that fired with the text that fired them, and appends the\n" +
			"decision, with a short id, to <root>/gate.jsonl. It decides with\n" +
			"<root>/gate/model.json when 'parley gate learn' installed one. With --exit-code\n" +
			"a debate exits 3.",
		Args: cmdutil.MaxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source = "-"
			if len(args) == 1 {
				opts.Source = args[0]
			}
			opts.near = func(name string) []string { return cmdutil.SuggestCommands(cmd, name) }
			return run(cmd)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Mode, "mode", "model", "model (the trained classifier) or rules (skip iff the stated confidence is at least 0.8 and no doubt cue fired)")
	fl.StringVar(&opts.Layer, "layer", "", "the question's layer (spec, plan, verify); overrides the input's")
	fl.StringVar(&opts.Model, "model", "", "a model file from 'parley gate train' instead of <root>/gate/model.json or the embedded one")
	fl.BoolVar(&opts.ExitCode, "exit-code", false, "exit 3 when the decision is debate")
	cmd.AddCommand(NewCmdTrain(f, nil), NewCmdEval(f, nil), NewCmdStats(f, nil), NewCmdLabel(f, nil), NewCmdLearn(f, nil))
	return cmd
}

func gateRun(ctx context.Context, opts *GateOptions) error {
	f := opts.f
	g, err := f.LoadGate(ctx, opts.Mode, opts.Model, "--mode")
	if err != nil {
		return err
	}
	sc, err := f.ReadCritique(ctx, "gate", opts.Source)
	if errors.Is(err, fs.ErrNotExist) && opts.near != nil {
		if s := opts.near(opts.Source); len(s) > 0 {
			return &cmdutil.Error{Msg: fmt.Sprintf("%v; did you mean %s?", err, suggest.OrList(s)), Err: err}
		}
	}
	if err != nil {
		return err
	}
	d, err := f.Service().Decide(g, app.GateInput{Critique: sc, Layer: opts.Layer, Source: opts.Source})
	if err != nil {
		return f.Fail(err, cmdutil.Wording{})
	}
	label := f.CmdLine("gate", "label", "--decision", d.ID)
	if err := f.Show(d, func(w io.Writer) error { return textview.GateDecision(w, d, label) }); err != nil {
		return err
	}
	if opts.ExitCode && d.Debate() {
		return cmdutil.BlockedError{}
	}
	return nil
}

// TrainOptions are what "parley gate train" was asked for.
type TrainOptions struct {
	f *cmdutil.Factory
	// Data is the labelled corpus ("": the shipped one); Out where the
	// model goes.
	Data, Out string
	Train     gating.TrainOptions
}

// NewCmdTrain is "parley gate train [--data FILE] --out FILE".
func NewCmdTrain(f *cmdutil.Factory, runF func(*TrainOptions) error) *cobra.Command {
	opts := &TrainOptions{f: f}
	run := cmdutil.Runner(opts, runF, trainRun)
	cmd := &cobra.Command{
		Use:   "train [--data FILE] --out FILE",
		Short: "Train the gate's classifier on a labeled corpus (default: the shipped one)",
		Long: "train fits the logistic regression deterministically and picks the threshold\n" +
			"whose cross-validated recall of debate reaches --target-recall on every voice\n" +
			"held out in turn (leave one voice out). Without --data it trains on the\n" +
			"hand-written corpus shipped in the binary, which reproduces the embedded\n" +
			"model byte for byte. --data is JSON Lines: self-critique fields (or\n" +
			"{\"layer\",\"text\"}, as 'parley gate label' takes them) plus \"label\"\n" +
			"(and optionally \"voice\": examples without one are cross-validated in folds).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Out == "" {
				return cmdutil.Usagef("gate train needs --out FILE (see parley gate train --help)")
			}
			if err := opts.Train.Check(); err != nil {
				return optionUsage(err)
			}
			return run(cmd)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Data, "data", "", "labeled corpus (JSONL: self-critique fields plus \"label\": \"debate\"|\"skip\"), - for standard input; default: the shipped corpus")
	fl.StringVar(&opts.Out, "out", "", "where to write the model (JSON)")
	fl.IntVar(&opts.Train.Folds, "folds", 5, "cross-validation folds for examples without a voice")
	fl.Float64Var(&opts.Train.TargetRecall, "target-recall", 0.95, "recall of debate the threshold must reach under cross-validation")
	fl.Float64Var(&opts.Train.L2, "l2", 4, "ridge penalty on standardised weights")
	return cmd
}

// optionUsage words a training option no model can be fitted with as
// the usage error of its flag.
func optionUsage(err error) error {
	var oe *gating.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	return cmdutil.Usagef("--%s %s: %s", strings.ReplaceAll(oe.Option, "_", "-"), oe.Value, oe.Want)
}

func trainRun(ctx context.Context, opts *TrainOptions) error {
	var (
		m   *app.Trained
		err error
	)
	if opts.Data == "-" {
		m, err = app.TrainGateFrom(opts.f.StdinReader(ctx, corpusInput), cmdutil.SourceName(opts.Data), opts.Out, opts.Train)
	} else {
		m, err = app.TrainGate(ctx, opts.Data, opts.Out, opts.Train)
	}
	if err != nil {
		return opts.f.Fail(err, cmdutil.Wording{})
	}
	return cmdutil.View(opts.f, m, textview.Trained)
}

// corpusInput is what "gate train" and "gate eval" read from standard
// input for --data -.
const corpusInput = "the labelled corpus (JSON Lines)"

// EvalOptions are what "parley gate eval" was asked for.
type EvalOptions struct {
	f                 *cmdutil.Factory
	Data, Mode, Model string
}

// NewCmdEval is "parley gate eval --data FILE".
func NewCmdEval(f *cmdutil.Factory, runF func(*EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{f: f}
	run := cmdutil.Runner(opts, runF, evalRun)
	cmd := &cobra.Command{
		Use:   "eval --data FILE|-",
		Short: "Measure the gate on a labeled corpus (precision and recall of debate)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Data == "" {
				return cmdutil.Usagef("gate eval needs --data FILE (see parley gate eval --help)")
			}
			return run(cmd)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Data, "data", "", "labeled corpus (JSONL), - for standard input")
	fl.StringVar(&opts.Mode, "mode", "model", "model or rules")
	fl.StringVar(&opts.Model, "model", "", "a model file from 'parley gate train' instead of <root>/gate/model.json or the embedded one")
	return cmd
}

func evalRun(ctx context.Context, opts *EvalOptions) error {
	g, err := opts.f.LoadGate(ctx, opts.Mode, opts.Model, "--mode")
	if err != nil {
		return err
	}
	var m gating.Metrics
	if opts.Data == "-" {
		m, err = app.EvalGateFrom(g, opts.f.StdinReader(ctx, corpusInput), cmdutil.SourceName(opts.Data))
	} else {
		m, err = app.EvalGate(ctx, g, opts.Data)
	}
	if err != nil {
		return opts.f.Fail(err, cmdutil.Wording{})
	}
	return cmdutil.View(opts.f, m, textview.Metrics)
}

// StatsOptions are what "parley gate stats" was asked for: nothing but
// the root.
type StatsOptions struct{ f *cmdutil.Factory }

// NewCmdStats is "parley gate stats": what gate.jsonl says.
func NewCmdStats(f *cmdutil.Factory, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{f: f}
	run := cmdutil.Runner(opts, runF, statsRun)
	return &cobra.Command{
		Use:   "stats",
		Short: "Summarise gate.jsonl: decisions, skip rate, tokens saved against always-debate",
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd) },
	}
}

func statsRun(_ context.Context, opts *StatsOptions) error {
	f := opts.f
	if !f.JSON && !f.HaveRoot() {
		// As the other commands that only read: a misspelt --root is
		// not a root with no decision yet. (--json prints the zeros.)
		return f.NoRootNote("no gate decisions: ")
	}
	s, warnings, err := f.Service().GateStats()
	if err != nil {
		return err
	}
	for _, w := range warnings {
		f.Warnf("%s", w)
	}
	return f.Show(s, func(w io.Writer) error {
		return textview.GateStats(w, s, strings.TrimSuffix(f.RootDir(), "/")+"/"+gating.LogName)
	})
}

// LabelOptions are what "parley gate label" was asked for: a file of
// labelled self-critiques, or a logged decision and its label.
type LabelOptions struct {
	f *cmdutil.Factory
	// File is the labelled self-critiques' file ("-": standard input);
	// "" when a decision is labelled.
	File string
	// Decision is the id (or a unique prefix) of a decision in
	// gate.jsonl; Debate its label (false: skip).
	Decision string
	Debate   bool
}

// NewCmdLabel is "parley gate label FILE|-" and "parley gate label
// --decision ID --debate|--skip".
func NewCmdLabel(f *cmdutil.Factory, runF func(*LabelOptions) error) *cobra.Command {
	opts := &LabelOptions{f: f}
	run := cmdutil.Runner(opts, runF, labelRun)
	var skip bool
	cmd := &cobra.Command{
		Use:   "label [FILE | -] | --decision ID --debate|--skip",
		Short: "Add labelled self-critiques, or label a logged gate decision, for 'parley gate learn'",
		Long: "label appends to <root>/gate/labels.jsonl, which 'parley gate learn' trains on.\n\n" +
			"With FILE (or - for standard input) it reads JSON Lines, one labelled self-critique\n" +
			"a line: the self-critique's JSON fields, or {\"layer\",\"text\"} with the text as you\n" +
			"would give it to 'parley gate', plus \"label\": \"debate\" or \"skip\" (a line of\n" +
			"another root's labels.jsonl is taken as it is). Every line is checked before\n" +
			"any is added; a bad line adds nothing and names its line number.\n\n" +
			"With --decision ID it labels a decision logged in <root>/gate.jsonl (each has a\n" +
			"short id, printed by 'parley gate'; a unique prefix is enough).",
		Args: cmdutil.MaxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case cmd.Flags().Changed("decision") && strings.TrimSpace(opts.Decision) == "":
				return cmdutil.Usagef("--decision needs the id of a logged decision ('parley gate' prints it)")
			case opts.Decision != "" && len(args) > 0:
				return cmdutil.Usagef("give a FILE or --decision, not both")
			case opts.Decision != "" && opts.Debate == skip:
				return cmdutil.Usagef("--decision needs exactly one of --debate or --skip")
			case opts.Decision == "" && (opts.Debate || skip):
				return cmdutil.Usagef("--debate and --skip go with --decision ID")
			case opts.Decision == "" && len(args) == 0:
				return cmdutil.Usagef("give a FILE of labelled self-critiques (- for standard input) or --decision ID")
			case len(args) == 1:
				opts.File = args[0]
			}
			return run(cmd)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Decision, "decision", "", "the id of a decision in gate.jsonl to label")
	fl.BoolVar(&opts.Debate, "debate", false, "the decision's question deserved a debate")
	fl.BoolVar(&skip, "skip", false, "the decision's question needed no debate")
	return cmd
}

func labelRun(ctx context.Context, opts *LabelOptions) error {
	f := opts.f
	if opts.Decision != "" {
		l, err := f.Service().LabelDecision(opts.Decision, opts.Debate)
		if errors.Is(err, app.ErrUnlabellable) {
			return fmt.Errorf(`decision %s was logged without its self-critique (by an older parley, or larger than %d KiB as JSON); label the self-critique itself: give %s a line {"text": "the self-critique", "label": "debate"} (or "skip")`, l.DecisionID, gating.MaxLoggedInput>>10, f.CmdLine("gate", "label", "-"))
		}
		if err != nil {
			return f.Fail(err, cmdutil.Wording{})
		}
		return f.Show(l, func(w io.Writer) error { return textview.DecisionLabelled(w, l, f.CmdLine("gate", "learn")) })
	}
	var r io.Reader
	if opts.File == "-" {
		r = f.StdinReader(ctx, "labelled self-critiques (JSON Lines)")
	} else {
		file, err := userfile.Open(ctx, opts.File)
		if err != nil {
			return cmdutil.FileError("gate label", err)
		}
		defer file.Close()
		r = file
	}
	n, err := f.Service().AddLabels(r, cmdutil.SourceName(opts.File))
	if err != nil {
		return f.Fail(err, cmdutil.Wording{})
	}
	return f.Show(n, func(w io.Writer) error { return textview.Labelled(w, n, filepath.Join(f.RootDir(), gating.LabelsName)) })
}

// LearnOptions are what "parley gate learn" was asked for.
type LearnOptions struct {
	f *cmdutil.Factory
	// Force installs the new model even when it is worse; Reset removes
	// the learnt model instead of learning.
	Force, Reset bool
	// Folds is the cross-validation's folds over the user's labels.
	Folds int
}

// NewCmdLearn is "parley gate learn [--force] [--reset]".
func NewCmdLearn(f *cmdutil.Factory, runF func(*LearnOptions) error) *cobra.Command {
	opts := &LearnOptions{f: f}
	run := cmdutil.Runner(opts, runF, learnRun)
	cmd := &cobra.Command{
		Use:   "learn [--force] [--reset]",
		Short: "Train a model on the shipped corpus plus your labels; install it when it is not worse",
		Long: "learn trains on the shipped corpus plus <root>/gate/labels.jsonl (your labels\n" +
			"weigh 4 corpus examples each) and the outcome labels of debates the gate sent to\n" +
			"debate (2 each): the attacker won or the answer changed labels debate; every\n" +
			"attacker conceding in round 1 with the defender's position unchanged labels\n" +
			"skip; other verdicts give no label. A self-critique labelled more than once\n" +
			"counts once, with its last label, and your label outranks a debate's. It prints\n" +
			"recall of debate and skip rate for the current model and, cross-validated, for\n" +
			"the new one, on the labels the current model was not trained on (all of them for\n" +
			"the embedded model), and installs the new one as <root>/gate/model.json only\n" +
			"when neither figure is worse (--force installs it anyway). 'parley gate' then\n" +
			"decides with it and names it by its hash. --reset removes\n" +
			"<root>/gate/model.json: the embedded model decides again (a directory there\n" +
			"is never removed: move it away or remove it yourself).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Reset && opts.Force {
				return cmdutil.Usagef("--reset and --force do not go together")
			}
			if err := (gating.LearnOptions{Folds: opts.Folds}).Check(); err != nil {
				return optionUsage(err)
			}
			return run(cmd)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Force, "force", false, "install the new model even when it is worse on your labels")
	fl.BoolVar(&opts.Reset, "reset", false, "remove the learnt model: the embedded model decides again")
	fl.IntVar(&opts.Folds, "folds", 5, "cross-validation folds over your labels")
	return cmd
}

func learnRun(ctx context.Context, opts *LearnOptions) error {
	f := opts.f
	if opts.Reset {
		removed, path, err := f.Service().ResetGate(ctx)
		if err != nil {
			return err
		}
		return f.Show(map[string]any{"reset": removed, "model": gating.EmbeddedName}, func(w io.Writer) error {
			return textview.GateReset(w, removed, path)
		})
	}
	res, err := f.Service().Learn(ctx, opts.Folds, opts.Force)
	if res != nil {
		for _, w := range res.Warnings {
			f.Warnf("%s", w)
		}
	}
	if errors.Is(err, app.ErrNoLabels) {
		return cmdutil.Usagef("no labels yet: add some with %s or %s", f.CmdLine("gate", "label", "FILE"), f.CmdLine("gate", "label", "--decision", "ID")+" --debate (or --skip)")
	}
	if err != nil {
		return f.Fail(err, cmdutil.Wording{})
	}
	return f.Show(res, func(w io.Writer) error {
		return textview.Learned(w, res, textview.LearnCommands{Gate: f.CmdLine("gate"), Reset: f.CmdLine("gate", "learn", "--reset")})
	})
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/internal/textview"
)

// newGateCmd is "parley gate [FILE|-]": decide debate or skip for one
// self-critique (SPEC §7), print why, and log the decision to gate.jsonl.
func newGateCmd(a *factory) *cobra.Command {
	var (
		mode, layer, model string
		exit               bool
	)
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
			g, err := a.gate(mode, model)
			if err != nil {
				return err
			}
			source := "-"
			if len(args) == 1 {
				source = args[0]
			}
			sc, err := a.readCritique(cmd.Context(), "gate", source)
			if errors.Is(err, fs.ErrNotExist) {
				if s := cmdutil.SuggestCommands(cmd, source); len(s) > 0 {
					return &cmdutil.Error{Msg: fmt.Sprintf("%v; did you mean %s?", err, suggest.OrList(s)), Err: err}
				}
			}
			if err != nil {
				return err
			}
			d, err := a.Service().Decide(g, app.GateInput{Critique: sc, Layer: layer, Source: source})
			if err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			if err := cmdutil.View(a.Factory, d, textview.GateDecision); err != nil {
				return err
			}
			if exit && d.Debate() {
				return cmdutil.BlockedError{}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&mode, "mode", "model", "model (the trained classifier) or rules (skip iff the stated confidence is at least 0.8 and no doubt cue fired)")
	f.StringVar(&layer, "layer", "", "the question's layer (spec, plan, verify); overrides the input's")
	f.StringVar(&model, "model", "", "a model file from 'parley gate train' instead of <root>/gate/model.json or the embedded one")
	f.BoolVar(&exit, "exit-code", false, "exit 3 when the decision is debate")
	cmd.AddCommand(newGateTrainCmd(a), newGateEvalCmd(a), newGateStatsCmd(a), newGateLabelCmd(a), newGateLearnCmd(a))
	return cmd
}

// gate is the gate for --mode and --model (app.LoadGate).
func (a *factory) gate(mode, modelFile string) (*gating.Gate, error) {
	g, err := a.Service().LoadGate(mode, modelFile)
	return g, a.Fail(err, cmdutil.Wording{Name: cmdutil.AppNames}) // "mode: …": debate run names the flag --gate-mode
}

// readCritique parses a self-critique (app.ReadCritique) from a file, or
// from standard input for "-"; what names the input in the error of a
// file that cannot be opened ("gate", "--gate").
func (a *factory) readCritique(ctx context.Context, what, source string) (gating.SelfCritique, error) {
	if source == "-" {
		b, err := a.ReadStdin(ctx, "the self-critique", gating.MaxInputBytes)
		if err != nil {
			return gating.SelfCritique{}, err
		}
		return app.ReadCritique(bytes.NewReader(b), source)
	}
	f, err := os.Open(source)
	if err != nil {
		return gating.SelfCritique{}, cmdutil.FileError(what, err)
	}
	defer f.Close()
	return app.ReadCritique(f, source)
}

// newGateTrainCmd is "parley gate train --data FILE --out FILE".
func newGateTrainCmd(a *factory) *cobra.Command {
	var (
		data, out string
		opts      gating.TrainOptions
	)
	cmd := &cobra.Command{
		Use:   "train [--data FILE] --out FILE",
		Short: "Train the gate's classifier on a labeled corpus (default: the shipped one)",
		Long: "train fits the logistic regression deterministically and picks the threshold\n" +
			"whose cross-validated recall of debate reaches --target-recall on every voice\n" +
			"held out in turn (leave one voice out). Without --data it trains on the\n" +
			"hand-written corpus shipped in the binary, which reproduces the embedded\n" +
			"model byte for byte. --data is JSON Lines: self-critique fields plus \"label\"\n" +
			"(and optionally \"voice\": examples without one are cross-validated in folds).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return cmdutil.Usagef("gate train needs --out FILE")
			}
			m, err := app.TrainGate(data, out, opts)
			if err != nil {
				return err
			}
			return cmdutil.View(a.Factory, m, textview.Trained)
		},
	}
	f := cmd.Flags()
	f.StringVar(&data, "data", "", "labeled corpus (JSONL: self-critique fields plus \"label\": \"debate\"|\"skip\"); default: the shipped corpus")
	f.StringVar(&out, "out", "", "where to write the model (JSON)")
	f.IntVar(&opts.Folds, "folds", 5, "cross-validation folds for examples without a voice")
	f.Float64Var(&opts.TargetRecall, "target-recall", 0.95, "recall of debate the threshold must reach under cross-validation")
	f.Float64Var(&opts.L2, "l2", 4, "ridge penalty on standardised weights")
	return cmd
}

// newGateEvalCmd is "parley gate eval --data FILE".
func newGateEvalCmd(a *factory) *cobra.Command {
	var data, mode, model string
	cmd := &cobra.Command{
		Use:   "eval --data FILE",
		Short: "Measure the gate on a labeled corpus (precision and recall of debate)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if data == "" {
				return cmdutil.Usagef("gate eval needs --data FILE")
			}
			g, err := a.gate(mode, model)
			if err != nil {
				return err
			}
			m, err := app.EvalGate(g, data)
			if err != nil {
				return err
			}
			return cmdutil.View(a.Factory, m, textview.Metrics)
		},
	}
	f := cmd.Flags()
	f.StringVar(&data, "data", "", "labeled corpus (JSONL)")
	f.StringVar(&mode, "mode", "model", "model or rules")
	f.StringVar(&model, "model", "", "a model file instead of the embedded one")
	return cmd
}

// newGateStatsCmd is "parley gate stats": what gate.jsonl says.
func newGateStatsCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Summarise gate.jsonl: decisions, skip rate, tokens saved against always-debate",
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, warnings, err := a.Service().GateStats()
			if err != nil {
				return err
			}
			for _, w := range warnings {
				a.Warnf("%s", w)
			}
			return a.show(s, func(w io.Writer) error {
				return textview.GateStats(w, s, strings.TrimSuffix(a.RootDir(), "/")+"/"+gating.LogName)
			})
		},
	}
}

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
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
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
		Example: "  parley gate critique.md\n  parley --json gate - < critique.json\n  parley gate --exit-code --layer verify critique.md",
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := a.gate(mode, model)
			if err != nil {
				return err
			}
			source := "-"
			if len(args) == 1 {
				source = args[0]
			}
			sc, err := a.readCritique(cmd.Context(), source)
			if errors.Is(err, fs.ErrNotExist) {
				if s := suggestCommands(cmd, source); len(s) > 0 {
					return &cliError{msg: fmt.Sprintf("%v; did you mean %s?", err, orList(s)), err: err}
				}
			}
			if err != nil {
				return err
			}
			d, err := a.service().Decide(g, app.GateInput{Critique: sc, Layer: layer, Source: source})
			if err != nil {
				return appError(err)
			}
			if a.json {
				if err := a.emit(d); err != nil {
					return err
				}
			} else {
				a.printf("id:       %s (label it later: parley gate label --decision %s --debate|--skip)\n", d.ID, d.ID)
				printDecision(a.stdout, d.Decision)
			}
			if exit && d.Debate() {
				return blockedError{}
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
	g, err := a.service().LoadGate(mode, modelFile)
	var ie *app.InputError
	if errors.As(err, &ie) {
		return nil, usageError{err} // "mode: …": debate run names the flag --gate-mode
	}
	return g, err
}

// readCritique parses a self-critique from a file, or from standard input
// for "-".
func (a *factory) readCritique(ctx context.Context, source string) (gating.SelfCritique, error) {
	var r io.Reader
	if source == "-" {
		b, err := a.readStdin(ctx, "the self-critique", gating.MaxInputBytes)
		if err != nil {
			return gating.SelfCritique{}, err
		}
		r = bytes.NewReader(b)
	} else {
		f, err := os.Open(source)
		if err != nil {
			return gating.SelfCritique{}, fileError("gate", err)
		}
		defer f.Close()
		r = f
	}
	sc, err := gating.Parse(r)
	if err != nil {
		return gating.SelfCritique{}, fmt.Errorf("%s: %w", source, err)
	}
	return sc, nil
}

// printDecision prints a decision for a person; a cue's text (the
// self-critique's words) is put on one line with its control characters
// replaced (oneLine), so that it cannot drive the terminal.
func printDecision(w io.Writer, d gating.Decision) {
	cmp := "≥"
	if d.Mode == gating.ModeRules {
		cmp = ">"
	}
	fmt.Fprintf(w, "decision: %s\n", d.Outcome)
	layer := string(d.Layer)
	if layer == "" {
		layer = "unknown"
	}
	fmt.Fprintf(w, "score:    %.3f (debate iff score %s threshold %.3f; mode %s, layer %s)\n", d.Score, cmp, d.Threshold, d.Mode, layer)
	if d.Model != "" {
		fmt.Fprintf(w, "model:    %s\n", d.Model)
	}
	if p := d.Parsed; p != nil {
		var parts []string
		for _, s := range p.Sections {
			if s.Line > 0 {
				parts = append(parts, fmt.Sprintf("%s (%s %q, line %d)", s.Section, s.How, oneLine(s.Label, 0), s.Line))
			} else {
				parts = append(parts, fmt.Sprintf("%s (%s)", s.Section, s.How))
			}
		}
		for _, c := range p.Confidences {
			parts = append(parts, fmt.Sprintf("%s confidence %g (%s)", c.Slot, c.Value, c.How))
		}
		if len(parts) == 0 {
			parts = append(parts, "no sections")
		}
		fmt.Fprintf(w, "parsed:   %s %s\n", p.Form, strings.Join(parts, "; "))
		for _, n := range p.Notes {
			fmt.Fprintf(w, "          %s\n", oneLine(n, 0))
		}
	}
	if len(d.Cues) == 0 {
		fmt.Fprintln(w, "cues:     none fired")
		return
	}
	fmt.Fprintln(w, "cues:")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if d.Mode == gating.ModeRules {
		fmt.Fprintln(tw, "  feature\tvalue\ttext")
		for _, c := range d.Cues {
			fmt.Fprintf(tw, "  %s\t%.3g\t%s\n", c.Feature, c.Value, oneLine(c.Text, 0))
		}
	} else {
		fmt.Fprintln(tw, "  feature\tvalue\tweight\ttext")
		for _, c := range d.Cues {
			fmt.Fprintf(tw, "  %s\t%.3g\t%+.3g\t%s\n", c.Feature, c.Value, c.Weight, oneLine(c.Text, 0))
		}
	}
	tw.Flush()
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
		Example: "  parley gate train --out model.json\n  parley gate train --data mine.jsonl --out model.json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usagef("gate train needs --out FILE")
			}
			m, err := app.TrainGate(data, out, opts)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(map[string]any{
					"out": out, "threshold": m.Threshold, "layer_thresholds": m.LayerThresholds, "training": m.Training,
				})
			}
			t := m.Training
			a.printf("trained on %d examples (%d debate, %d skip), cross-validated by holding out each of %d groups in turn (a voice each; folds for examples without one)\n", t.Examples, t.Debate, t.Skip, t.Folds)
			a.printf("threshold %.4f", m.Threshold)
			for _, l := range debate.Layers {
				if v, ok := m.LayerThresholds[l]; ok {
					a.printf(", %s %.4f", l, v)
				}
			}
			a.printf("\ncross-validated: recall of debate %.3f (target %.2f), skip rate on skip examples %.3f, AUC %.3f\n", t.CVRecall, t.TargetRecall, t.CVSkipRate, t.CVAUC)
			if t.CVHardNegativeSkipRate > 0 || t.CVHardPositiveRecall > 0 {
				a.printf("hard cases: hard negatives skipped %.3f, hard positives debated %.3f\n", t.CVHardNegativeSkipRate, t.CVHardPositiveRecall)
			}
			if len(t.Groups) > 0 {
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "  held out\tdebate\tskip\trecall\tskip rate")
				for _, g := range t.Groups {
					fmt.Fprintf(tw, "  %s\t%d\t%d\t%.3f\t%.3f\n", g.Group, g.Debate, g.Skip, g.Recall, g.SkipRate)
				}
				tw.Flush()
			}
			a.printf("wrote %s\n", out)
			return nil
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
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if data == "" {
				return usagef("gate eval needs --data FILE")
			}
			g, err := a.gate(mode, model)
			if err != nil {
				return err
			}
			m, err := app.EvalGate(g, data)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(m)
			}
			a.printf("%d examples, mode %s, threshold %.4f\n", m.N, m.Mode, m.Threshold)
			a.printf("accuracy  %.3f\nprecision %.3f  (of debate)\nrecall    %.3f  (of debate)\nf1        %.3f\nauc       %.3f\n", m.Accuracy, m.Precision, m.Recall, m.F1, m.AUC)
			a.printf("skip rate %.3f  (skip examples the gate skipped; %.3f of all examples skipped)\n", m.SkipRate, m.Skipped)
			a.printf("confusion tp %d  fp %d  tn %d  fn %d\n", m.TP, m.FP, m.TN, m.FN)
			return nil
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
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, warnings, err := a.service().GateStats()
			if err != nil {
				return err
			}
			for _, w := range warnings {
				a.warnf("%s", w)
			}
			if a.json {
				return a.emit(s)
			}
			if s.Decisions == 0 {
				a.printf("no gate decisions recorded in %s\n", strings.TrimSuffix(a.rootDir(), "/")+"/"+gating.LogName)
				return nil
			}
			a.printf("%d decision(s) (%s … %s): %d debate, %d skip, skip rate %.1f%%\n", s.Decisions, s.First, s.Last, s.Debate, s.Skip, 100*s.SkipRate)
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "  layer\tdecisions\tskip\tbudget\ttokens saved\tdebate precision (outcome-labelled)")
			for _, name := range []string{"spec", "plan", "verify", "unknown"} {
				if ls, ok := s.ByLayer[name]; ok {
					prec := "-"
					if ls.OutcomeLabelled > 0 {
						prec = fmt.Sprintf("%.2f (%d of %d worth it)", ls.Precision, ls.WorthIt, ls.OutcomeLabelled)
					}
					fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%s\n", name, ls.Decisions, ls.Skip, ls.Budget, ls.TokensSaved, prec)
				}
			}
			tw.Flush()
			a.printf("estimated tokens: always-debate %d, gated %d, saved %d (%.1f%%) at each layer's maxTokens budget\n",
				s.TokensAlwaysDebate, s.TokensGated, s.TokensSaved, 100*s.SavedShare)
			return nil
		},
	}
}

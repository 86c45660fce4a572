package textview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

// GateBeforeDebate writes the gate's decision before a debate ("debate run
// --gate"): the self-critique's source, the decision's id in gate.jsonl
// (logPath) and the decision (Decision); when it skips the debate, that
// no debate of topic runs.
func GateBeforeDebate(w io.Writer, source string, e gating.LogEntry, topic, logPath string) error {
	fmt.Fprintf(w, "gate (%s, decision %s): ", source, e.ID)
	if err := Decision(w, e.Decision); err != nil {
		return err
	}
	if !e.Decision.Debate() {
		_, err := fmt.Fprintf(w, "\nno debate: the gate skipped %q (recorded in %s)\n", topic, logPath)
		return err
	}
	_, err := fmt.Fprintf(w, "\n")
	return err
}

// GateDecision writes a decision of "parley gate": its id in gate.jsonl
// with label, the command that labels it (the caller's, with its --root;
// "" or a decision logged without its self-critique: no hint), then the
// decision (Decision).
func GateDecision(w io.Writer, d *app.GateDecision, label string) error {
	hint := ""
	if label != "" && d.Labellable {
		// Not "--debate|--skip": pasted, the shell ran the label with
		// --debate, then failed on the pipe into "--skip".
		hint = " (label it later: " + label + " --debate, or --skip)"
	}
	if _, err := fmt.Fprintf(w, "id:       %s%s\n", d.ID, hint); err != nil {
		return err
	}
	return Decision(w, d.Decision)
}

// Decision writes a decision for a person: the outcome, the score against
// the threshold, the model, what was parsed and the cues that fired. A
// cue's text (the self-critique's words) is put on one line with its
// control characters replaced, so that it cannot drive the terminal.
func Decision(w io.Writer, d gating.Decision) error {
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
				parts = append(parts, fmt.Sprintf("%s (%s %q, line %d)", s.Section, s.How, recLine(s.Label, 0), s.Line))
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
			fmt.Fprintf(w, "          %s\n", recLine(n, 0))
		}
	}
	if len(d.Cues) == 0 {
		_, err := fmt.Fprintln(w, "cues:     none fired")
		return err
	}
	fmt.Fprintln(w, "cues:")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if d.Mode == gating.ModeRules {
		fmt.Fprintln(tw, "  feature\tvalue\ttext")
		for _, c := range d.Cues {
			fmt.Fprintf(tw, "  %s\t%.3g\t%s\n", c.Feature, c.Value, recLine(c.Text, 0))
		}
	} else {
		fmt.Fprintln(tw, "  feature\tvalue\tweight\ttext")
		for _, c := range d.Cues {
			fmt.Fprintf(tw, "  %s\t%.3g\t%+.3g\t%s\n", c.Feature, c.Value, c.Weight, recLine(c.Text, 0))
		}
	}
	return tw.Flush()
}

// Trained writes what "gate train" did: the examples, the thresholds, the
// cross-validated figures (by group held out), and the file written.
func Trained(w io.Writer, m *app.Trained) error {
	t := m.Training
	fmt.Fprintf(w, "trained on %d examples (%d debate, %d skip), cross-validated by holding out each of %d groups in turn (a voice each; folds for examples without one)\n", t.Examples, t.Debate, t.Skip, t.Folds)
	fmt.Fprintf(w, "threshold %.4f", m.Threshold)
	for _, l := range debate.Layers {
		if v, ok := m.LayerThresholds[l]; ok {
			fmt.Fprintf(w, ", %s %.4f", l, v)
		}
	}
	fmt.Fprintf(w, "\ncross-validated: recall of debate %.3f (target %.2f), skip rate on skip examples %.3f, AUC %.3f\n", t.CVRecall, t.TargetRecall, t.CVSkipRate, t.CVAUC)
	if t.CVHardNegativeSkipRate > 0 || t.CVHardPositiveRecall > 0 {
		fmt.Fprintf(w, "hard cases: hard negatives skipped %.3f, hard positives debated %.3f\n", t.CVHardNegativeSkipRate, t.CVHardPositiveRecall)
	}
	if len(t.Groups) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  held out\tdebate\tskip\trecall\tskip rate")
		for _, g := range t.Groups {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%.3f\t%.3f\n", g.Group, g.Debate, g.Skip, g.Recall, g.SkipRate)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "wrote %s\n", m.Out)
	return err
}

// Metrics writes the gate measured on a labelled corpus.
func Metrics(w io.Writer, m gating.Metrics) error {
	// A figure the measurement left undefined (nil: no skip example, no
	// debate decided) shows as "-", not as a measured 0.
	fig := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f", *v)
	}
	debates, skips := m.TP+m.FN, m.TN+m.FP
	mode := string(m.Mode)
	if m.Mode == gating.ModeModel {
		mode += ", model " + m.Model
	}
	fmt.Fprintf(w, "%d %s (%d debate, %d skip), mode %s, threshold %.4f\n", m.N, Plural(m.N, "example", "examples"), debates, skips, mode, m.Threshold)
	fmt.Fprintf(w, "accuracy  %.3f\nprecision %s  (of debate)\nrecall    %s  (of debate)\nf1        %s\nauc       %s\n",
		m.Accuracy, fig(m.Precision), fig(m.Recall), fig(m.F1), fig(m.AUC))
	fmt.Fprintf(w, "skip rate %s  (skip examples the gate skipped; %.3f of all examples skipped)\n", fig(m.SkipRate), m.Skipped)
	_, err := fmt.Fprintf(w, "confusion tp %d  fp %d  tn %d  fn %d\n", m.TP, m.FP, m.TN, m.FN)
	return err
}

// GateStats writes what the decision log at logPath says: decisions, skip
// rate, and by layer the budget, the tokens saved and the precision of
// debate where outcomes labelled it.
func GateStats(w io.Writer, s gating.Stats, logPath string) error {
	if s.Decisions == 0 {
		_, err := fmt.Fprintf(w, "no gate decisions recorded in %s\n", logPath)
		return err
	}
	// Hand-edited lines may lack a time: the range is of those that have
	// one, and says how many do not.
	var span string
	switch {
	case s.First == "":
		span = "times unknown"
	case s.First == s.Last:
		span = s.First
	default:
		span = s.First + " … " + s.Last
	}
	if s.First != "" && s.Untimed > 0 {
		span += fmt.Sprintf("; %d without a time", s.Untimed)
	}
	fmt.Fprintf(w, "%d decision(s) (%s): %d debate, %d skip, skip rate %.1f%%\n", s.Decisions, span, s.Debate, s.Skip, 100*s.SkipRate)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
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
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "estimated tokens: always-debate %d, gated %d, saved %d (%.1f%%) at each layer's maxTokens budget\n",
		s.TokensAlwaysDebate, s.TokensGated, s.TokensSaved, 100*s.SavedShare)
	return err
}

// Labelled writes how many labelled self-critiques were added to file.
func Labelled(w io.Writer, n *app.Labelled, file string) error {
	replaced := ""
	if n.Replaced > 0 {
		replaced = fmt.Sprintf("; %d of them replace an earlier label of the same self-critique (%d with the other label), which counts once, with its last label", n.Replaced, n.Changed)
	}
	_, err := fmt.Fprintf(w, "added %d label(s) (%d debate, %d skip) to %s%s\n", n.Labelled, n.Debate, n.Skip, file, replaced)
	return err
}

// DecisionLabelled writes a logged decision labelled, and the command
// (learn) that trains on it.
func DecisionLabelled(w io.Writer, l *app.DecisionLabel, learn string) error {
	replaced := ""
	if l.Replaced != "" {
		replaced = "; it replaces your earlier label " + string(l.Replaced)
	}
	_, err := fmt.Fprintf(w, "labelled decision %s as %s (the gate decided %s%s); %s trains on it\n", l.DecisionID, l.Label, l.GateDecided, replaced, learn)
	return err
}

// GateReset writes what "gate learn --reset" did to the learnt model at
// path.
func GateReset(w io.Writer, removed bool, path string) error {
	if !removed {
		_, err := fmt.Fprintf(w, "no learnt model in %s; the embedded model decides\n", path)
		return err
	}
	_, err := fmt.Fprintf(w, "removed %s; the embedded model decides again\n", path)
	return err
}

// LearnCommands are the command lines Learned names.
type LearnCommands struct {
	Gate, Reset string // "parley gate", "parley gate learn --reset"
}

// Learned writes what "gate learn" did: the examples it trained on, both
// models' figures on the labels, and whether it installed the new one.
func Learned(w io.Writer, res *app.Learned, cmds LearnCommands) error {
	fmt.Fprintf(w, "trained on %d corpus examples, %d user label(s) and %d outcome label(s)\n", res.Corpus, res.User, res.Outcomes)
	if res.CurrentSawAll {
		fmt.Fprintf(w, "compared on all %d label(s); the current model was trained on them, so its figures are in-sample\n", res.Current.N)
	} else {
		fmt.Fprintf(w, "compared on the %d label(s) the current model was not trained on\n", res.Current.N)
	}
	fmt.Fprintf(w, "  current %s: recall of debate %.3f, skip rate %.3f\n", res.CurrentName, res.Current.Recall, res.Current.SkipRate)
	fmt.Fprintf(w, "  new     %s: recall of debate %.3f, skip rate %.3f (cross-validated)\n", res.NewName, res.New.Recall, res.New.SkipRate)
	var err error
	switch {
	case res.NotWorse:
		_, err = fmt.Fprintf(w, "installed %s: %s decides with it (undo: %s)\n", res.Path, cmds.Gate, cmds.Reset)
	case res.Installed:
		_, err = fmt.Fprintf(w, "the new model is worse on your labels; installed it anyway (--force) as %s\n", res.Path)
	default:
		_, err = fmt.Fprintf(w, "not installed: the new model is worse on your labels than the current one (install it anyway with --force)\n")
	}
	return err
}

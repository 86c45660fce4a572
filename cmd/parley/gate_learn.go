package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/regfile"
)

// readGateLog reads <root>/gate.jsonl; a missing root or file is no
// decision at all.
func (a *factory) readGateLog() ([]gating.LogEntry, int, error) {
	return readRootJSONL(a.rootDir(), gating.LogName, gating.ReadLog)
}

// readLabels reads <root>/gate/labels.jsonl.
func (a *factory) readLabels() ([]gating.Label, int, error) {
	return readRootJSONL(a.rootDir(), gating.LabelsName, gating.ReadLabels)
}

// readRootJSONL opens name under the root as a regular file (a named pipe
// must not block the command in open(2)) and reads it with read.
func readRootJSONL[T any](dir, name string, read func(io.Reader) ([]T, int, error)) ([]T, int, error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	f, _, err := regfile.Open(root.OpenFile, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, nil
	case errors.Is(err, regfile.ErrNotRegular):
		return nil, 0, fmt.Errorf("%w: remove it", err)
	case err != nil:
		return nil, 0, err
	}
	defer f.Close()
	return read(f)
}

// outcomeLabels derives the outcome labels of the logged debate decisions
// from the verdicts of their debates (see gating.OutcomeLabel).
func (a *factory) outcomeLabels(entries []gating.LogEntry) []gating.Label {
	has := false
	for _, e := range entries {
		if e.DebateID != "" && e.Outcome == gating.Debate {
			has = true
			break
		}
	}
	if !has {
		return nil
	}
	st, err := a.store()
	if err != nil {
		return nil
	}
	defer st.Close()
	return gating.OutcomeLabels(entries, func(id string) (*debate.Outcome, string, error) {
		v, err := st.Verdict(id)
		if err != nil {
			return nil, "", err
		}
		s, err := st.Session(id)
		if err != nil {
			return nil, "", err
		}
		return &v.Outcome, s.OpeningPosition(), nil
	})
}

// appendLabels appends labels to <root>/gate/labels.jsonl, creating the
// root (0700) if it is missing.
func (a *factory) appendLabels(labels []gating.Label) error {
	root, err := a.makeRoot()
	if err != nil {
		return err
	}
	defer root.Close()
	return gating.AppendLabels(root, labels)
}

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
			now := time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")
			if decision != "" {
				if len(args) > 0 {
					return usagef("give a FILE or --decision, not both")
				}
				if debate_ == skip {
					return usagef("--decision needs exactly one of --debate or --skip")
				}
				entries, _, err := a.readGateLog()
				if err != nil {
					return err
				}
				e, err := gating.FindDecision(entries, decision)
				if err != nil {
					return usageError{err}
				}
				if e.Input == nil {
					return fmt.Errorf("decision %s was logged without its self-critique (by an older parley, or larger than %d KiB); label the self-critique with: %s", e.ID, gating.MaxLoggedInput>>10, a.cmdLine("gate", "label", "FILE"))
				}
				label := gating.Skip
				if debate_ {
					label = gating.Debate
				}
				l := gating.Label{Time: now, Source: gating.SourceUser, Label: label, DecisionID: e.ID, DebateID: e.DebateID,
					Why: "the gate decided " + string(e.Outcome), Input: *e.Input}
				if err := a.appendLabels([]gating.Label{l}); err != nil {
					return err
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
			ex, err := gating.ReadLabelInput(r)
			if err != nil {
				return fmt.Errorf("%s: %w (nothing was added)", args[0], err)
			}
			if len(ex) == 0 {
				return usagef("%s holds no labelled self-critique", args[0])
			}
			labels := make([]gating.Label, len(ex))
			var counts [2]int
			for i, e := range ex {
				labels[i] = gating.Label{Time: now, Source: gating.SourceUser, Label: e.Label, Why: e.ID, Input: e.SelfCritique}
				if e.Label == gating.Debate {
					counts[0]++
				} else {
					counts[1]++
				}
			}
			if err := a.appendLabels(labels); err != nil {
				return err
			}
			if a.json {
				return a.emit(map[string]any{"labelled": len(labels), "debate": counts[0], "skip": counts[1]})
			}
			a.printf("added %d label(s) (%d debate, %d skip) to %s\n", len(labels), counts[0], counts[1], filepath.Join(a.rootDir(), gating.LabelsName))
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
			path := filepath.Join(a.rootDir(), gating.ModelName)
			if reset {
				if force {
					return usagef("--reset and --force do not go together")
				}
				err := os.Remove(path)
				switch {
				case errors.Is(err, fs.ErrNotExist):
					a.printf("no learnt model in %s; the embedded model decides\n", path)
					return nil
				case err != nil:
					return err
				}
				if a.json {
					return a.emit(map[string]any{"reset": true, "model": gating.EmbeddedName})
				}
				a.printf("removed %s; the embedded model decides again\n", path)
				return nil
			}
			user, bad, err := a.readLabels()
			if err != nil {
				return err
			}
			if bad > 0 {
				a.warnf("%d line(s) of %s could not be read and were skipped", bad, gating.LabelsName)
			}
			entries, _, err := a.readGateLog()
			if err != nil {
				return err
			}
			labels := append(user, a.outcomeLabels(entries)...)
			if len(labels) == 0 {
				return usagef("no labels yet: add some with %s or %s", a.cmdLine("gate", "label", "FILE"), a.cmdLine("gate", "label", "--decision", "ID")+" --debate (or --skip)")
			}
			corpus, err := gating.Corpus()
			if err != nil {
				return err
			}
			current, err := a.rootGate()
			if err != nil {
				return err
			}
			res, err := gating.Learn(corpus, labels, current, gating.LearnOptions{Folds: folds})
			if err != nil {
				return err
			}
			b, err := res.Model.Encode()
			if err != nil {
				return err
			}
			install := res.NotWorse || force
			name := gating.ModelFileName(b)
			if install {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					return err
				}
				if err := renameio.WriteFile(path, b, 0o600); err != nil {
					return fmt.Errorf("write model: %w", err)
				}
			}
			if a.json {
				return a.emit(map[string]any{
					"labels": map[string]int{"user": res.User, "outcome": res.Outcomes}, "corpus": res.Corpus,
					"current":   map[string]any{"model": current.Name(), "score": res.Current},
					"new":       map[string]any{"model": name, "score": res.New, "cross_validated": true},
					"not_worse": res.NotWorse, "installed": install, "current_saw_all": res.CurrentSawAll,
				})
			}
			a.printf("trained on %d corpus examples, %d user label(s) and %d outcome label(s)\n", res.Corpus, res.User, res.Outcomes)
			if res.CurrentSawAll {
				a.printf("compared on all %d label(s); the current model was trained on them, so its figures are in-sample\n", res.Current.N)
			} else {
				a.printf("compared on the %d label(s) the current model was not trained on\n", res.Current.N)
			}
			a.printf("  current %s: recall of debate %.3f, skip rate %.3f\n", current.Name(), res.Current.Recall, res.Current.SkipRate)
			a.printf("  new     %s: recall of debate %.3f, skip rate %.3f (cross-validated)\n", name, res.New.Recall, res.New.SkipRate)
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

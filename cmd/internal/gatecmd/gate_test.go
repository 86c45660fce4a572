package gatecmd

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// TestLabelTakesAFileOrADecision: "gate label" labels a file of
// self-critiques or one logged decision, never both, and a decision with
// exactly one of --debate and --skip; every other combination is a usage
// error before anything is read or written.
func TestLabelTakesAFileOrADecision(t *testing.T) {
	for _, c := range []struct {
		args     []string
		code     int
		file     string
		decision string
		debate   bool
	}{
		{args: []string{"labels.jsonl"}, code: cmdutil.ExitOK, file: "labels.jsonl"},
		{args: []string{"-"}, code: cmdutil.ExitOK, file: "-"},
		{args: []string{"--decision", "7f3a", "--debate"}, code: cmdutil.ExitOK, decision: "7f3a", debate: true},
		{args: []string{"--decision", "7f3a", "--skip"}, code: cmdutil.ExitOK, decision: "7f3a"},
		{args: []string{"--decision", "7f3a"}, code: cmdutil.ExitUsage},                       // no label
		{args: []string{"--decision", "7f3a", "--debate", "--skip"}, code: cmdutil.ExitUsage}, // both labels
		{args: []string{"labels.jsonl", "--decision", "7f3a", "--skip"}, code: cmdutil.ExitUsage},
		{args: []string{"--skip"}, code: cmdutil.ExitUsage}, // a label for nothing
		{args: []string{"labels.jsonl", "--debate"}, code: cmdutil.ExitUsage},
		{args: []string{}, code: cmdutil.ExitUsage},
		{args: []string{"a.jsonl", "b.jsonl"}, code: cmdutil.ExitUsage},
	} {
		var got *LabelOptions
		code := cmdtest.Exit(NewCmdLabel(cmdtest.Factory(), func(o *LabelOptions) error { got = o; return nil }), c.args...)
		switch {
		case code != c.code:
			t.Errorf("%q: exit %d, want %d", c.args, code, c.code)
		case c.code != cmdutil.ExitOK && got != nil:
			t.Errorf("%q: a usage error reached the run function", c.args)
		case c.code == cmdutil.ExitOK && (got == nil || got.File != c.file || got.Decision != c.decision || got.Debate != c.debate):
			t.Errorf("%q: options %+v, want file %q decision %q debate %v", c.args, got, c.file, c.decision, c.debate)
		}
	}
}

// TestGateCommandsOptions: the gate reads standard input when no file is
// named; train, eval and learn refuse what is missing or contradictory.
func TestGateCommandsOptions(t *testing.T) {
	var gate *GateOptions
	if code := cmdtest.Exit(NewCmd(cmdtest.Factory(), func(o *GateOptions) error { gate = o; return nil }), "--mode", "rules", "--exit-code"); code != cmdutil.ExitOK || gate == nil || gate.Source != "-" || gate.Mode != "rules" || !gate.ExitCode {
		t.Errorf("gate: exit %d, options %+v", code, gate)
	}
	if code := cmdtest.Exit(NewCmd(cmdtest.Factory(), func(o *GateOptions) error { gate = o; return nil }), "critique.md", "--layer", "plan"); code != cmdutil.ExitOK || gate.Source != "critique.md" || gate.Layer != "plan" || gate.Mode != "model" {
		t.Errorf("gate FILE: exit %d, options %+v", code, gate)
	}
	var train *TrainOptions
	if code := cmdtest.Exit(NewCmdTrain(cmdtest.Factory(), func(o *TrainOptions) error { train = o; return nil }), "--out", "m.json", "--folds", "3", "--target-recall", "0.9"); code != cmdutil.ExitOK || train == nil || train.Out != "m.json" || train.Train.Folds != 3 || train.Train.TargetRecall != 0.9 || train.Train.L2 != 4 {
		t.Errorf("train: exit %d, options %+v", code, train)
	}
	never := func(what string) func() error {
		return func() error { t.Errorf("%s reached the run function", what); return nil }
	}
	if code := cmdtest.Exit(NewCmdTrain(cmdtest.Factory(), func(*TrainOptions) error { return never("train without --out")() })); code != cmdutil.ExitUsage {
		t.Errorf("train without --out: exit %d", code)
	}
	// Training options no model can be fitted with, each named by its flag.
	for _, args := range [][]string{
		{"--folds", "1"}, {"--folds", "0"}, {"--folds", "-3"},
		{"--target-recall", "1.5"}, {"--target-recall", "0"}, {"--target-recall", "NaN"},
		{"--l2", "-1"}, {"--l2", "0"}, {"--l2", "+Inf"},
	} {
		code, errs := cmdtest.Run(NewCmdTrain(cmdtest.Factory(), func(*TrainOptions) error { return never("train " + args[0] + " " + args[1])() }), append([]string{"--out", "m.json"}, args...)...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, args[0]+" ") {
			t.Errorf("train %s %s: exit %d %q, want a usage error naming the flag", args[0], args[1], code, errs)
		}
	}
	for _, folds := range []string{"1", "0", "-2"} {
		if code := cmdtest.Exit(NewCmdLearn(cmdtest.Factory(), func(*LearnOptions) error { return never("learn --folds " + folds)() }), "--folds", folds); code != cmdutil.ExitUsage {
			t.Errorf("learn --folds %s: exit %d", folds, code)
		}
	}
	if code := cmdtest.Exit(NewCmdEval(cmdtest.Factory(), func(*EvalOptions) error { return never("eval without --data")() })); code != cmdutil.ExitUsage {
		t.Errorf("eval without --data: exit %d", code)
	}
	if code := cmdtest.Exit(NewCmdLearn(cmdtest.Factory(), func(*LearnOptions) error { return never("learn --reset --force")() }), "--reset", "--force"); code != cmdutil.ExitUsage {
		t.Errorf("learn --reset --force: exit %d", code)
	}
	var learn *LearnOptions
	if code := cmdtest.Exit(NewCmdLearn(cmdtest.Factory(), func(o *LearnOptions) error { learn = o; return nil }), "--reset"); code != cmdutil.ExitOK || learn == nil || !learn.Reset || learn.Folds != 5 {
		t.Errorf("learn --reset: exit %d, options %+v", code, learn)
	}
	if code := cmdtest.Exit(NewCmdStats(cmdtest.Factory(), func(*StatsOptions) error { return never("stats with an argument")() }), "extra"); code != cmdutil.ExitUsage {
		t.Errorf("stats with an argument: exit %d", code)
	}
}

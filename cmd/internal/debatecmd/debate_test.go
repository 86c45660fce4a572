package debatecmd

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// TestRunTakesOnlyTheBudgetGiven: a budget flag left out leaves the
// layer's default (nil in the request), one given overrides it, even when
// given as zero; agents and context files keep their order.
func TestRunTakesOnlyTheBudgetGiven(t *testing.T) {
	var got *RunOptions
	code := cmdtest.Exit(NewCmdRun(cmdtest.Factory(), func(o *RunOptions) error { got = o; return nil }),
		"--layer", "plan", "--topic", "Shard the ledger by tenant?",
		"--agent", "attacker=script:a.sh", "--agent", "defender=exec:./d", "--agent", "attacker=@carol",
		"--context", "b.md", "--context", "a.md",
		"--max-rounds", "0", "--timeout", "90s", "--gate", "-", "--gate-mode", "rules")
	if code != cmdutil.ExitOK || got == nil {
		t.Fatalf("exit %d", code)
	}
	r := got.Request
	if r.Layer != "plan" || r.Topic != "Shard the ledger by tenant?" || len(r.Agents) != 3 || r.Agents[2] != "attacker=@carol" || r.Context[0] != "b.md" || r.Workspace != "." {
		t.Errorf("request %+v", r)
	}
	b := r.Budget
	if b.MaxRounds == nil || *b.MaxRounds != 0 || b.MaxWallClockMs == nil || *b.MaxWallClockMs != 90000 {
		t.Errorf("given budget: rounds %v, wall clock %v", b.MaxRounds, b.MaxWallClockMs)
	}
	if b.MaxTokens != nil || b.MaxTokensPerRound != nil || b.ConvergenceRounds != nil {
		t.Errorf("budget not given yet set: %+v", b)
	}
	if got.GateFile != "-" || got.GateMode != "rules" {
		t.Errorf("gate %q mode %q", got.GateFile, got.GateMode)
	}

	var start *StartOptions
	if code := cmdtest.Exit(NewCmdStart(cmdtest.Factory(), func(o *StartOptions) error { start = o; return nil }), "--layer", "spec", "--topic", "t", "--max-tokens", "4000"); code != cmdutil.ExitOK || start == nil || start.Request.Budget.MaxTokens == nil || *start.Request.Budget.MaxTokens != 4000 || start.Request.Budget.MaxRounds != nil {
		t.Errorf("start: exit %d, options %+v", code, start)
	}
	if code := cmdtest.Exit(NewCmdStart(cmdtest.Factory(), func(*StartOptions) error { t.Error("start --gate reached the run function"); return nil }), "--gate", "-"); code != cmdutil.ExitUsage {
		t.Errorf("start --gate (run's flag only): exit %d", code)
	}
	if code := cmdtest.Exit(NewCmdRun(cmdtest.Factory(), func(*RunOptions) error { t.Error("a bad --timeout reached the run function"); return nil }), "--timeout", "ninety"); code != cmdutil.ExitUsage {
		t.Errorf("run --timeout ninety: exit %d", code)
	}
}

// TestCommandsOnOneDebateTakeOneID: status, watch and resume take the id
// (or a prefix) as typed; none or two is a usage error.
func TestCommandsOnOneDebateTakeOneID(t *testing.T) {
	for _, c := range []struct {
		name string
		new  func(func(*IDOptions) error) int
	}{
		{"status", func(r func(*IDOptions) error) int { return cmdtest.Exit(NewCmdStatus(cmdtest.Factory(), r), "2026120") }},
		{"watch", func(r func(*IDOptions) error) int { return cmdtest.Exit(NewCmdWatch(cmdtest.Factory(), r), "2026120") }},
		{"resume", func(r func(*IDOptions) error) int { return cmdtest.Exit(NewCmdResume(cmdtest.Factory(), r), "2026120") }},
	} {
		var got *IDOptions
		if code := c.new(func(o *IDOptions) error { got = o; return nil }); code != cmdutil.ExitOK || got == nil || got.ID != "2026120" {
			t.Errorf("%s: exit %d, options %+v", c.name, code, got)
		}
	}
	for _, args := range [][]string{{}, {"a", "b"}} {
		if code := cmdtest.Exit(NewCmdWatch(cmdtest.Factory(), func(*IDOptions) error { t.Error("reached"); return nil }), args...); code != cmdutil.ExitUsage {
			t.Errorf("watch %q: exit %d", args, code)
		}
	}
	if code := cmdtest.Exit(NewCmdList(cmdtest.Factory(), func(*ListOptions) error { t.Error("reached"); return nil }), "all"); code != cmdutil.ExitUsage {
		t.Errorf("list all: exit %d", code)
	}
}

// TestATimeoutItCannotReadSaysTheRange: a --timeout that is no duration
// (no unit, or more than a duration holds) is a usage error that says
// what range is accepted, for run and start alike, not Go's bare "invalid
// duration".
func TestATimeoutItCannotReadSaysTheRange(t *testing.T) {
	const want = "not a duration from 1ms to 168h0m0s (a week), such as 90s, 2m or 1h30m"
	for _, v := range []string{"10000000h", "90", "ninety", "-9999999999h"} {
		for name, cmd := range map[string]func() (int, string){
			"run": func() (int, string) {
				return cmdtest.Run(NewCmdRun(cmdtest.Factory(), func(*RunOptions) error { return nil }), "--timeout", v)
			},
			"start": func() (int, string) {
				return cmdtest.Run(NewCmdStart(cmdtest.Factory(), func(*StartOptions) error { return nil }), "--timeout", v)
			},
		} {
			code, errs := cmd()
			if code != cmdutil.ExitUsage || !strings.Contains(errs, want) || strings.Contains(errs, "invalid duration") {
				t.Errorf("%s --timeout %s: exit %d, %q", name, v, code, errs)
			}
		}
	}
}

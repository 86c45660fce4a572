package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
)

// Every refusal of an input reaches the user through fail: one line, the
// inputs named as this command line names them, and an exit code chosen
// by the error's Problem alone. The errors are the service layer's own,
// made by the calls that make them.
func TestFailChoosesTheExitByProblem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	svc := app.New(app.Options{Root: root})
	for _, id := range []string{"20261111-plan-queue-depth-aaaaaa", "20261111-plan-queue-drain-bbbbbb"} {
		if err := os.MkdirAll(filepath.Join(root, "debates", id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(r app.DebateRequest) error {
		_, err := svc.NewSession(context.Background(), r)
		return err
	}
	agents := []string{"attacker=@Rook", "defender=@Bishop"}
	_, ambiguous := svc.ResolveDebate("20261111-plan-queue-d")
	_, unknownDebate := svc.ResolveDebate("20261111-plan-sharding-cccccc")
	notADir := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notADir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		help string
		code int
		line string
	}{
		{"missing", refused(app.DebateRequest{Layer: "plan", Agents: agents}), "parley debate run", cmdutil.ExitUsage,
			"missing --topic (see parley debate run --help)"},
		{"invalid", refused(app.DebateRequest{Layer: "deploy", Topic: "Queue depth", Agents: agents}), "parley debate run", cmdutil.ExitUsage,
			`--layer: unknown layer: "deploy" (use spec, plan or verify)`},
		{"invalid entry", refused(app.DebateRequest{Layer: "plan", Topic: "Queue depth", Agents: []string{"attacker:@Rook", "defender=@Bishop"}}), "", cmdutil.ExitUsage,
			`--agent "attacker:@Rook": use ROLE=SPEC, e.g. attacker=script:critic.json`},
		{"a file", refused(app.DebateRequest{Layer: "plan", Topic: "Queue depth", Agents: agents, Workspace: notADir}), "parley debate run", cmdutil.ExitError,
			"--workspace: " + notADir + " is not a directory"},
		{"a critique", app.CritiqueError("draft.md", gating.ErrNoCritique), "", cmdutil.ExitError,
			"draft.md: " + gating.ErrNoCritique.Error()},
		{"unknown agent", app.UnknownAgent("Rook"), "", cmdutil.ExitError,
			`not_found: no agent "Rook" (no inbox, no registration); check the name with: parley --root ` + root + ` agents list; or create its inbox with: parley --root ` + root + ` agents add Rook`},
		{"unknown debate", unknownDebate, "", cmdutil.ExitError,
			"no debate 20261111-plan-sharding-cccccc under " + root + " (parley --root " + root + " debate list lists them)"},
		{"ambiguous", ambiguous, "", cmdutil.ExitError,
			`"20261111-plan-queue-d" is the start of 2 debates: 20261111-plan-queue-depth-aaaaaa, 20261111-plan-queue-drain-bbbbbb; give more of it`},
		{"interrupted", app.Explain(context.Canceled), "", cmdutil.ExitInterrupted, "interrupted"},
		{"tampered", svc.ExplainDebate(&app.TamperedError{ID: "20261111-plan-queue-depth-aaaaaa", Trouble: "verdict.json differs"}, "20261111-plan-queue-depth-aaaaaa"), "", cmdutil.ExitBlocked,
			"debate 20261111-plan-queue-depth-aaaaaa was tampered with, resume refuses to continue it: verdict.json differs (see parley --root " + root + " transcripts verify 20261111-plan-queue-depth-aaaaaa)"},
		{"not the service layer's", errors.New("disk on fire"), "", cmdutil.ExitError, "disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("the service layer refused nothing")
			}
			var stderr bytes.Buffer
			a := &factory{&cmdutil.Factory{RootFlag: root, Stdout: &bytes.Buffer{}, Stderr: &stderr}}
			code := cmdutil.ExitCode(a.Fail(tc.err, cmdutil.Wording{Help: tc.help}), &stderr)
			if want := "parley: " + tc.line + "\n"; code != tc.code || stderr.String() != want {
				t.Errorf("exit %d, %q; want exit %d, %q", code, stderr.String(), tc.code, want)
			}
		})
	}
}

// The refusals of the command line's inputs, end to end: the same line
// and exit code whichever command refuses them (a mistake in the command
// line exits 2; a file named that cannot be used, a name that names
// nothing or several things, 1).
func TestRefusedInputsEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mustCLI(t, root, "", "init")
	for _, id := range []string{"20261111-plan-queue-depth-aaaaaa", "20261111-plan-queue-drain-bbbbbb"} {
		if err := os.MkdirAll(filepath.Join(root, "debates", id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.txt", "")
	badLabels := write("labels.jsonl", `{"layer":"plan","text":"Drained the queue first."`)
	good := write("critique.md", "Self-check: I did not measure the queue depth under load; maybe the drain is too slow.\n")
	agents := []string{"--agent", "attacker=@Rook", "--agent", "defender=@Bishop"}
	debate := func(cmd string, extra ...string) []string {
		return append(append([]string{"debate", cmd, "--layer", "plan", "--topic", "Queue depth"}, agents...), extra...)
	}
	see := " (parley --root " + root + " debate list lists them)"
	for _, tc := range []struct {
		args []string
		code int
		line string
	}{
		{[]string{"debate", "run", "--topic", "Queue depth"}, cmdutil.ExitUsage, "missing --layer and --agent (see parley debate run --help)"},
		// A role missing or given twice: which --agent to add or drop.
		{[]string{"debate", "run", "--layer", "plan", "--topic", "Queue depth", "--agent", "attacker=@Rook"}, cmdutil.ExitUsage,
			"--agent: a debate needs exactly one defender, got 0; add one with --agent defender=SPEC"},
		{[]string{"debate", "start", "--layer", "plan", "--topic", "Queue depth", "--agent", "defender=@Bishop"}, cmdutil.ExitUsage,
			"--agent: a debate needs at least one attacker; add one with --agent attacker=SPEC"},
		{[]string{"debate", "run", "--layer", "plan", "--topic", "Queue depth", "--agent", "attacker=@Rook", "--agent", "defender=@Bishop", "--agent", "defender=@Knight"}, cmdutil.ExitUsage,
			"--agent: a debate needs exactly one defender, got 2; give --agent defender=SPEC once"},
		{[]string{"debate", "start", "--layer", "plan"}, cmdutil.ExitUsage, "missing --topic and --agent (see parley debate run --help)"},
		{append([]string{"debate", "start", "--layer", "kanban", "--topic", "Queue depth"}, agents...), cmdutil.ExitUsage, `--layer: unknown layer: "kanban" (use spec, plan or verify)`},
		{debate("run", "--context", dir), cmdutil.ExitError, "--context: " + dir + " is a directory: name a file"},
		{debate("start", "--context", filepath.Join(dir, "gone.md")), cmdutil.ExitError, "--context: open " + filepath.Join(dir, "gone.md") + ": no such file or directory"},
		{debate("run", "--max-rounds", "-2"), cmdutil.ExitUsage, "--max-rounds -2: must be positive (see parley debate run --help)"},
		{debate("start", "--max-tokens-per-round", "0"), cmdutil.ExitUsage, "--max-tokens-per-round 0: must be positive (see parley debate run --help)"},
		{debate("run", "--timeout", "500us"), cmdutil.ExitUsage, "--timeout: at least 1ms (see parley debate run --help)"},
		{debate("start", "--timeout", "200h"), cmdutil.ExitUsage, "--timeout 200h0m0s: at most 168h0m0s, a week (see parley debate run --help)"},
		{debate("run", "--gate", good, "--gate-mode", "coinflip"), cmdutil.ExitUsage, `--gate-mode: unknown gate mode "coinflip" (use model or rules)`},
		{debate("run", "--workspace", empty), cmdutil.ExitError, "--workspace: " + empty + " is not a directory"},
		{debate("run", "--gate", empty), cmdutil.ExitError, "--gate: " + empty + ": " + gating.ErrNoCritique.Error() + ": the input is empty"},
		{[]string{"debate", "status", "20261111-plan-sharding-cccccc"}, cmdutil.ExitError, "no debate 20261111-plan-sharding-cccccc under " + root + see},
		{[]string{"debate", "resume", "20261111-plan-queue-d"}, cmdutil.ExitError, `"20261111-plan-queue-d" is the start of 2 debates: 20261111-plan-queue-depth-aaaaaa, 20261111-plan-queue-drain-bbbbbb; give more of it`},
		{[]string{"consensus", "show", "plan-queue-depth"}, cmdutil.ExitError, `no such consensus record: "plan-queue-depth" (parley --root ` + root + ` consensus list lists them)`},
		{[]string{"consensus", "search", "queue", "--limit", "0"}, cmdutil.ExitUsage, "--limit: must be at least 1"},
		{[]string{"transcripts", "list", "--since", "whenever"}, cmdutil.ExitUsage, `--since "whenever": use a date (2026-01-31), an RFC 3339 time, or an age such as 36h or 7d`},
		{[]string{"gate", "--mode", "coinflip", good}, cmdutil.ExitUsage, `--mode: unknown gate mode "coinflip" (use model or rules)`},
		{[]string{"gate", "--layer", "kanban", good}, cmdutil.ExitUsage, `--layer: unknown layer: "kanban" (use spec, plan or verify)`},
		{[]string{"gate", empty}, cmdutil.ExitError, empty + ": " + gating.ErrNoCritique.Error() + ": the input is empty"},
		{[]string{"gate", "label", empty}, cmdutil.ExitError, empty + " holds no labelled self-critique"},
		{[]string{"gate", "label", "--decision", "beef", "--skip"}, cmdutil.ExitError, `no decision "beef" in gate.jsonl`},
		{[]string{"gate", filepath.Join(dir, "gone.txt")}, cmdutil.ExitError, "gate: open " + filepath.Join(dir, "gone.txt") + ": no such file or directory"},
		{debate("run", "--gate", filepath.Join(dir, "gone.txt")), cmdutil.ExitError, "--gate: open " + filepath.Join(dir, "gone.txt") + ": no such file or directory"},
		{[]string{"consensus", "show", ""}, cmdutil.ExitUsage, "NAME is empty: give a record's name, file name, [[wikilink]] or debate id"},
		{[]string{"consensus", "search", " "}, cmdutil.ExitUsage, "QUERY is empty: give the words to look for in the records"},
		{[]string{"escalate", "--telemetry", dir}, cmdutil.ExitError, "--telemetry: " + dir + " is a directory: name a file"},
		{[]string{"escalate", "--telemetry", empty, "--workspace", filepath.Join(dir, "gone")}, cmdutil.ExitError, "the escalation workspace: " + filepath.Join(dir, "gone") + " is not a directory"},
	} {
		t.Run(strings.Join(tc.args[:2], " "), func(t *testing.T) {
			_, errs, code := cli(t, root, "", tc.args...)
			if want := "parley: " + tc.line + "\n"; code != tc.code || errs != want {
				t.Errorf("%v: exit %d, %q; want exit %d, %q", tc.args, code, errs, tc.code, want)
			}
		})
	}
	// A malformed labels file is named with its line, and nothing is added.
	_, errs, code := cli(t, root, "", "gate", "label", badLabels)
	if code != cmdutil.ExitError || !strings.HasPrefix(errs, "parley: "+badLabels+": line 1: ") || !strings.HasSuffix(errs, " (nothing was added)\n") {
		t.Errorf("bad labels: exit %d, %q", code, errs)
	}
}

// TestStandardInputAndUsageWording: an input read from standard input is
// named "standard input" (the user may never have typed "-"), and every
// command's missing flags point at its --help.
func TestStandardInputAndUsageWording(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	mustCLI(t, root, "", "init")
	empty := "self-critique has no critique: the input is empty"
	for _, tc := range []struct {
		args []string
		code int
		line string
	}{
		{[]string{"gate"}, cmdutil.ExitError, "standard input: " + empty},
		{[]string{"gate", "-"}, cmdutil.ExitError, "standard input: " + empty},
		{[]string{"gate", "label", "-"}, cmdutil.ExitError, "standard input holds no labelled self-critique"},
		{[]string{"debate", "run", "--layer", "plan", "--topic", "x", "--agent", "attacker=@Rook", "--agent", "defender=@Bishop", "--gate", "-"}, cmdutil.ExitError, "--gate: standard input: " + empty},
		// What is missing, not every flag that is required.
		{[]string{"consensus", "check", "--layer", "plan"}, cmdutil.ExitUsage, "missing --topic and --position (see parley consensus check --help)"},
		{[]string{"consensus", "check", "--layer", "plan", "--topic", "Queue depth"}, cmdutil.ExitUsage, "missing --position (see parley consensus check --help)"},
		{[]string{"consensus", "check", "--position", "Drain first"}, cmdutil.ExitUsage, "missing --layer and --topic (see parley consensus check --help)"},
		{[]string{"consensus", "file"}, cmdutil.ExitUsage, "consensus file needs --from-debate ID (see parley consensus file --help)"},
		{[]string{"gate", "train"}, cmdutil.ExitUsage, "gate train needs --out FILE (see parley gate train --help)"},
		{[]string{"gate", "eval"}, cmdutil.ExitUsage, "gate eval needs --data FILE (see parley gate eval --help)"},
		{[]string{"escalate"}, cmdutil.ExitUsage, "--telemetry FILE is required: the mini-verifier's JSONL log, or - for standard input (see parley escalate --help)"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errs, code := cli(t, root, "", tc.args...)
			if want := "parley: " + tc.line + "\n"; code != tc.code || errs != want {
				t.Errorf("exit %d, %q; want exit %d, %q", code, errs, tc.code, want)
			}
		})
	}
}

// TestInputThatIsADirectory: every command that reads a file the user
// names says, in the same words, that a directory is no file, never the
// failing call ("read /tmp: is a directory").
func TestInputThatIsADirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mustCLI(t, root, "", "init")
	critique := filepath.Join(dir, "critique.md")
	if err := os.WriteFile(critique, []byte("I did not measure the queue depth under load.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := []string{"debate", "run", "--layer", "plan", "--topic", "Queue depth", "--agent", "attacker=@Rook", "--agent", "defender=@Bishop"}
	is := dir + " is a directory: name a file"
	for _, tc := range []struct {
		args []string
		line string
	}{
		{[]string{"gate", dir}, "gate: " + is},
		{[]string{"gate", "--model", dir, critique}, "--model: " + is},
		{[]string{"gate", "eval", "--data", dir}, "--data: " + is},
		{[]string{"gate", "eval", "--model", dir, "--data", critique}, "--model: " + is},
		{[]string{"gate", "train", "--data", dir, "--out", filepath.Join(dir, "model.json")}, "--data: " + is},
		{[]string{"gate", "label", dir}, "gate label: " + is},
		{append(run, "--context", dir), "--context: " + is},
		{append(run, "--gate", dir), "--gate: " + is},
		{[]string{"escalate", "--telemetry", dir}, "--telemetry: " + is},
		{[]string{"escalate", "--telemetry", dir, "--follow"}, "--telemetry: " + is},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errs, code := cli(t, root, "", tc.args...)
			if want := "parley: " + tc.line + "\n"; code != cmdutil.ExitError || errs != want {
				t.Errorf("exit %d, %q; want exit 1, %q", code, errs, want)
			}
		})
	}
}

// A --root that is a file (or under one) is refused by every command in
// the same words, saying what to give instead, before any command opens
// something under it and reports the failing call ("open the parley
// root: open notes.txt: not a directory").
func TestRootThatIsAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("not a root"), 0o600); err != nil {
		t.Fatal(err)
	}
	critique := filepath.Join(dir, "critique.md")
	if err := os.WriteFile(critique, []byte("I am not sure the cache is invalidated."), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{file, filepath.Join(file, "sub")} {
		for _, args := range [][]string{
			{"init"}, {"debate", "list"}, {"debate", "status", "x"}, {"transcripts", "list"}, {"transcripts", "show", "x"},
			{"gate", critique}, {"gate", "label", "--decision", "abc", "--skip"}, {"gate", "learn"}, {"agents", "list"},
		} {
			_, stderr, code := runT(t, "", append([]string{"--root", root}, args...)...)
			want := "parley: the root " + root + " is not a directory; give --root a directory (parley init creates one)\n"
			if code != cmdutil.ExitError || stderr != want {
				t.Errorf("--root %s %v: exit %d %q; want exit 1 %q", root, args, code, stderr, want)
			}
		}
		// The help still shows.
		if out, stderr, code := runT(t, "", "--root", root, "help", "init"); code != 0 || out == "" {
			t.Errorf("--root %s help init: exit %d %q", root, code, stderr)
		}
	}
}

// A --vault that is a file is refused before anything runs, in one set of
// words: no debate is run (and left interrupted) only to fail at filing.
func TestVaultThatIsAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if _, errs, code := runT(t, "", "--root", root, "init"); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("not a vault"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := writeScripts(t, dir, map[string]string{"a": concedingCritic, "d": holdingDefender})
	for _, args := range [][]string{
		{"init"}, {"consensus", "list"}, {"consensus", "check", "--layer", "spec", "--topic", "a", "--position", "b"}, {"vault", "lint"}, {"serve"},
		{"debate", "run", "--layer", "spec", "--topic", "Keys", "--agent", "attacker=script:" + s["a"], "--agent", "defender=script:" + s["d"]},
	} {
		_, stderr, code := runT(t, "", append([]string{"--root", root, "--vault", file}, args...)...)
		want := "parley: the vault " + file + " is not a directory; give --vault a directory (parley init creates one)\n"
		if code != cmdutil.ExitError || stderr != want {
			t.Errorf("--vault %s %v: exit %d %q; want exit 1 %q", file, args, code, stderr, want)
		}
	}
	if out, _, _ := runT(t, "", "--root", root, "--json", "debate", "list"); strings.TrimSpace(out) != "" {
		t.Errorf("a debate was left behind:\n%s", out)
	}
	// The root's own vault a file: no --vault was given to correct, and
	// init stops on it too; the fix is to move it away.
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "vault"), []byte("not a vault"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "parley: the vault " + filepath.Join(other, "vault") + " is not a directory: move it away, then parley --root " + other + " init makes the vault there (or give --vault a directory)\n"
	for _, args := range [][]string{{"init"}, {"consensus", "list"}} {
		if _, stderr, code := runT(t, "", append([]string{"--root", other}, args...)...); code != cmdutil.ExitError || stderr != want {
			t.Errorf("<root>/vault a file, %v: exit %d %q; want exit 1 %q", args, code, stderr, want)
		}
	}
}

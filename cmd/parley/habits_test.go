package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/registry"
)

// commandPaths lists every command the user can call, as argument lists
// without "parley": the subcommands, cobra's help and completion.
func commandPaths() [][]string {
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Hidden {
			return
		}
		out = append(out, path)
		for _, s := range c.Commands() {
			walk(s, append(append([]string{}, path...), s.Name()))
		}
	}
	root := &cobra.Command{Use: "parley"}
	for _, s := range commands(&factory{&cmdutil.Factory{}}) {
		root.AddCommand(s)
	}
	walk(root, nil)
	out = append(out, [][]string{{"help"}, {"completion"}, {"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"}, {"completion", "powershell"}}...)
	return out
}

// exampleArgs takes the parley command line out of one line of an
// Examples block: the words after "parley", up to a comment, a pipe, a
// redirection or a closing parenthesis, with shell quotes removed. ok is
// false for a line that runs no parley command.
func exampleArgs(line string) (args []string, ok bool) {
	i := strings.Index(line, "parley ")
	if i < 0 || strings.TrimSpace(line[:i]) != "" && !strings.HasSuffix(strings.TrimSpace(line[:i]), "|") &&
		!strings.HasSuffix(strings.TrimSpace(line[:i]), "<(") {
		return nil, false
	}
	var (
		cur   strings.Builder
		quote rune
		in    bool
	)
	flush := func() {
		if in {
			args = append(args, cur.String())
			cur.Reset()
			in = false
		}
	}
loop:
	for _, r := range line[i+len("parley "):] {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			flush()
		case r == '#' && !in, r == '|', r == '>', r == '<', r == ')':
			break loop
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	flush()
	return args, true
}

// Every command's help has an Examples block, and every example in it is
// a command line parley accepts: it names that command (or a command of
// its group) and only flags that exist, with values they take.
func TestEveryCommandHasExamples(t *testing.T) {
	t.Parallel()
	for _, path := range commandPaths() {
		name := strings.Join(append([]string{"parley"}, path...), " ")
		out, errs, code := runT(t, "", append(append([]string{}, path...), "--help")...)
		if code != 0 {
			t.Errorf("%s --help: exit %d: %s", name, code, errs)
			continue
		}
		_, block, ok := strings.Cut(out, "\nExamples:\n")
		if !ok {
			t.Errorf("%s --help has no Examples block:\n%s", name, out)
			continue
		}
		block, _, _ = strings.Cut(block, "\n\n")
		block = strings.ReplaceAll(block, "\\\n", " ")
		n := 0
		for _, line := range strings.Split(block, "\n") {
			args, ok := exampleArgs(line)
			if !ok {
				continue
			}
			n++
			if len(path) > 0 && path[0] == "completion" {
				continue // cobra's own, and it writes a script
			}
			hout, herrs, hcode := runT(t, "", append(args, "--help")...)
			if hcode != 0 {
				t.Errorf("%s: example %q is refused: exit %d: %s", name, line, hcode, herrs)
				continue
			}
			if !strings.Contains(hout, "Usage:\n  parley") {
				t.Errorf("%s: example %q shows no usage:\n%s", name, line, hout)
			}
		}
		if n == 0 {
			t.Errorf("%s: its Examples block runs no parley command:\n%s", name, block)
		}
		for _, bad := range []string{"SPEC §", "SPEC.md", "§", "seed", "the issue"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s --help cites %q, a document the user does not have:\n%s", name, bad, out)
			}
		}
	}
}

func TestExampleArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"  parley demo", []string{"demo"}},
		{"  parley send --from A --to B 'hello, world'   # a comment", []string{"send", "--from", "A", "--to", "B", "hello, world"}},
		{"  git diff | parley send --from A --to B -", []string{"send", "--from", "A", "--to", "B", "-"}},
		{"  parley completion bash > /etc/x", []string{"completion", "bash"}},
		{"  source <(parley completion zsh)", []string{"completion", "zsh"}},
		{`  parley debate run --topic "a b"`, []string{"debate", "run", "--topic", "a b"}},
		{"                 # exit 3 on a conflict", nil},
	} {
		got, _ := exampleArgs(tc.line)
		if strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
			t.Errorf("exampleArgs(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// A word that names no subcommand is an unknown command (exit 2), with the
// subcommands it is close to; a flag that does not exist is an unknown
// flag (exit 2), with the flags it is close to.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "none")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"debate", "rn"}, `unknown command "rn" for "parley debate"; did you mean 'parley debate run'?`},
		{[]string{"debat"}, `unknown command "debat" for "parley"; did you mean 'parley debate'?`},
		{[]string{"transcript", "list"}, `did you mean 'parley transcripts'?`},
		{[]string{"consensus", "chek"}, `did you mean 'parley consensus check'?`},
		{[]string{"consensus", "s"}, `unknown command "s" for "parley consensus" (see parley consensus --help)`},
		{[]string{"bench", "mesenger"}, `did you mean 'parley bench messenger'?`},
		{[]string{"agents", "lst"}, `did you mean 'parley agents list'?`},
		// A subcommand of a group named without its group, and another
		// word for a command.
		{[]string{"verify", "some-id"}, `unknown command "verify" for "parley"; did you mean 'parley transcripts verify'?`},
		{[]string{"lint"}, `unknown command "lint" for "parley"; did you mean 'parley vault lint' or 'parley init'?`},
		{[]string{"run"}, `did you mean 'parley agent run' or 'parley debate run'?`},
		{[]string{"web"}, `unknown command "web" for "parley"; did you mean 'parley serve'?`},
		// A subcommand typed under the group named one letter apart.
		{[]string{"agent", "list"}, `unknown command "list" for "parley agent"; did you mean 'parley agents list'?`},
		{[]string{"agent", "show", "Rook"}, `did you mean 'parley agents show'?`},
		{[]string{"agents", "run"}, `unknown command "run" for "parley agents"; did you mean 'parley agent run'?`},
		{[]string{"agents", "run", "--name", "Rook", "--role", "attacker"}, `unknown command "run" for "parley agents"; did you mean 'parley agent run'?`},
		{[]string{"gate", "critique.md", "--exit-cod"}, `unknown flag --exit-cod for "parley gate"; did you mean '--exit-code'?`},
		// Not help on stdout and exit 0, which "> ~/.bash_completion" or
		// "source <(…)" would take for the script.
		// A help topic that names no command, as the command itself.
		{[]string{"help", "debat"}, `unknown command "debat" for "parley"; did you mean 'parley debate'?`},
		{[]string{"help", "debate", "rn"}, `unknown command "rn" for "parley debate"; did you mean 'parley debate run'?`},
		{[]string{"completion", "bsh"}, `unknown command "bsh" for "parley completion"; did you mean 'parley completion bash'`},
		{[]string{"--rooot", "x", "debate", "list"}, `unknown flag --rooot for "parley debate list"; did you mean '--root'?`},
		{[]string{"debate", "run", "--toppic", "x"}, `did you mean '--topic'?`},
		{[]string{"recv", "--wiat", "1s"}, `did you mean '--wait'?`},
		{[]string{"debate", "list", "--zzzzzz"}, `unknown flag --zzzzzz for "parley debate list" (see parley debate list --help)`},
	} {
		_, errs, code := runT(t, "", append([]string{"--root", root}, tc.args...)...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("parley %v: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, errs, tc.want)
		}
	}
	// gate takes a file where its subcommands are: a missing file whose
	// name is close to one says so too, with the missing file's exit code.
	_, errs, code := runT(t, "", "--root", root, "gate", "stts")
	if code != cmdutil.ExitError || !strings.Contains(errs, "did you mean 'parley gate stats'?") || strings.Count(errs, "\n") != 1 {
		t.Errorf("gate stts: exit %d, %q", code, errs)
	}
}

// A mistyped command followed by --help (or -h) is the same usage error as
// without it, not the help of the command before it with exit 0: a
// newcomer who asks "parley agnets --help" learns the name is wrong and
// what it should be. A real command's help, and the help of a command
// that takes words of its own (gate FILE), are unchanged.
func TestHelpAfterAnUnknownCommand(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "none")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"agnets", "--help"}, `unknown command "agnets" for "parley"; did you mean 'parley agent' or 'parley agents'?`},
		{[]string{"agents", "lst", "-h"}, `unknown command "lst" for "parley agents"; did you mean 'parley agents list'?`},
		{[]string{"transcript", "show", "--help"}, `did you mean 'parley transcripts'?`},
		{[]string{"debate", "rn", "--layer", "spec", "--help"}, `unknown command "rn" for "parley debate"; did you mean 'parley debate run'?`},
		{[]string{"bench", "mesenger", "--help"}, `did you mean 'parley bench messenger'?`},
		{[]string{"--help", "conifg"}, `unknown command "conifg" for "parley"; did you mean 'parley config'?`},
	} {
		out, errs, code := runT(t, "", append([]string{"--root", root}, tc.args...)...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("parley %v: exit %d, stdout %.60q, stderr %q; want exit 2, no help, saying %q", tc.args, code, out, errs, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"agents", "--help"}, "parley agents list"},
		{[]string{"agents", "list", "-h"}, "Usage:\n  parley agents list"},
		{[]string{"gate", "critique.md", "--help"}, "Usage:\n  parley gate"},
		{[]string{"help", "debate"}, "parley debate run"},
		{[]string{"--help"}, "Available Commands:"},
	} {
		out, errs, code := runT(t, "", append([]string{"--root", root}, tc.args...)...)
		if code != 0 || !strings.Contains(out, tc.want) || errs != "" {
			t.Errorf("parley %v: exit %d, stderr %q, stdout %.200q; want its help", tc.args, code, errs, out)
		}
	}
}

// A --root or --vault given no value takes the command's name as its
// value, and the subcommand then reads as an unknown command: the error
// says what happened and how to write it, rather than only that "list"
// is no command of parley's.
func TestFlagTookTheCommandAsItsValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--root", "debate", "list"}, `unknown command "list" for "parley": --root took "debate" as its value; give it one, as in parley --root DIR debate list`},
		{[]string{"--vault", "agents", "show", "Bob"}, `--vault took "agents" as its value; give it one, as in parley --vault DIR agents show Bob`},
		{[]string{"--json", "--root", "transcripts", "verify", "--help"}, `--root took "transcripts" as its value`},
	} {
		out, errs, code := runT(t, "", tc.args...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("parley %v: exit %d, stdout %.60q, stderr %q; want exit 2 saying %q", tc.args, code, out, errs, tc.want)
		}
	}
	// A root that is truly named like no command is not one of these.
	_, errs, _ := runT(t, "", "--root", filepath.Join(t.TempDir(), "debates"), "lst")
	if strings.Contains(errs, "took") {
		t.Errorf("an unknown command after a real --root: %q", errs)
	}
}

// The hints parley prints are commands that work when pasted: with the
// --root and --vault given, quoted for the shell where they need it.
func TestCmdLineQuotes(t *testing.T) {
	t.Parallel()
	a := &factory{&cmdutil.Factory{RootFlag: "/tmp/my root", VaultFlag: "it's/vault"}}
	got := a.CmdLine("transcripts", "verify", "20260101-spec-x-abcdef")
	want := `parley --root '/tmp/my root' --vault 'it'\''s/vault' transcripts verify 20260101-spec-x-abcdef`
	if got != want {
		t.Errorf("cmdLine = %s, want %s", got, want)
	}
	if got := (&factory{&cmdutil.Factory{}}).CmdLine("init"); got != "parley init" {
		t.Errorf("no --root: %s", got)
	}
}

// One exit code per kind of failure, whatever the command: an unknown id
// or name 1, a missing file 1, a bad flag 2, an unknown command 2, and no
// root where a command reads one 1 (0 for list commands, which say so). A
// failing command prints one line and makes no root.
func TestExitCodesEveryCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mustCLI(t, root, "", "init")
	noRoot := filepath.Join(dir, "none")
	missing := filepath.Join(dir, "missing.md")
	script := filepath.Join(dir, "s.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"position":"p"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	const id = "20260101-spec-nothing-here-abcdef"
	run := []string{"debate", "run", "--layer", "spec", "--topic", "t", "--agent", "attacker=script:" + script, "--agent", "defender=script:" + script}
	type tc struct {
		kind string
		root string
		args []string
		code int
	}
	var cases []tc
	// Unknown ids and names.
	for _, args := range [][]string{
		{"debate", "status", id}, {"debate", "watch", id}, {"debate", "resume", id},
		{"debate", "status", "2026"}, // a prefix of nothing
		{"transcripts", "show", id}, {"transcripts", "verify", id},
		{"consensus", "show", "no-such-record"}, {"consensus", "file", "--from-debate", id},
		{"agents", "show", "Nobody"}, {"recv", "--as", "Nobody"}, {"watch", "--as", "Nobody"},
		{"send", "--from", "A", "--to", "Nobody", "hi"},
		{"debate", "status", "../etc"},
	} {
		cases = append(cases, tc{"unknown id", root, args, cmdutil.ExitError})
	}
	// Missing files.
	for _, args := range [][]string{
		{"gate", missing}, {"gate", "--model", missing, "-"}, {"gate", "train", "--data", missing, "--out", filepath.Join(dir, "m.json")},
		{"gate", "eval", "--data", missing}, {"escalate", "--telemetry", missing},
		{"escalate", "--telemetry", script, "--workspace", missing},
		append(append([]string{}, run...), "--context", missing),
		append(append([]string{}, run...), "--workspace", missing),
		{"debate", "run", "--layer", "spec", "--topic", "t", "--agent", "attacker=script:" + missing, "--agent", "defender=script:" + script},
		{"debate", "start", "--layer", "spec", "--topic", "t", "--context", missing, "--agent", "attacker=script:" + script, "--agent", "defender=script:" + script},
	} {
		cases = append(cases, tc{"missing file", root, args, cmdutil.ExitError})
	}
	// No root where the command reads one.
	for _, args := range [][]string{
		{"debate", "status", id}, {"transcripts", "show", id}, {"transcripts", "verify", id},
		{"agents", "show", "Bob"}, {"agents", "prune"}, {"recv", "--as", "Bob"}, {"watch", "--as", "Bob"},
		{"consensus", "show", "x"}, {"consensus", "search", "x"}, {"consensus", "check", "--layer", "spec", "--topic", "t", "--position", "p"},
		{"serve"}, {"gc"}, {"vault", "lint"}, {"send", "--from", "Alice", "--to", "Bob", "hi"},
	} {
		cases = append(cases, tc{"no root", noRoot, args, cmdutil.ExitError})
	}
	for _, args := range [][]string{{"debate", "list"}, {"transcripts", "list"}, {"agents", "list"}, {"consensus", "list"}, {"gate", "stats"}} {
		cases = append(cases, tc{"no root, a list", noRoot, args, cmdutil.ExitOK})
	}
	// Bad flags and unknown commands, for every command.
	for _, path := range commandPaths() {
		cases = append(cases, tc{"bad flag", noRoot, append(append([]string{}, path...), "--no-such-flag"), cmdutil.ExitUsage})
		if len(path) > 0 && (path[0] == "help" || path[0] == "completion") {
			continue // cobra's own commands
		}
		c := commandFor(path)
		if c == nil || c.HasSubCommands() && c.Name() != "gate" || len(path) == 0 {
			cases = append(cases, tc{"unknown command", noRoot, append(append([]string{}, path...), "no-such-command"), cmdutil.ExitUsage})
		}
	}
	for _, c := range cases {
		t.Run(c.kind+"/"+strings.Join(c.args, " "), func(t *testing.T) {
			_, errs, code := cli(t, c.root, "", c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (%s): %s", code, c.code, c.kind, errs)
			}
			if code != 0 && (strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.HasPrefix(errs, "parley: ")) {
				t.Errorf("the error is not one line: %q", errs)
			}
			if _, err := os.Stat(noRoot); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("parley %v made the root %s", c.args, noRoot)
			}
		})
	}
}

// commandFor finds the command of path (nil for the root and cobra's own).
func commandFor(path []string) *cobra.Command {
	root := &cobra.Command{Use: "parley"}
	for _, s := range commands(&factory{&cmdutil.Factory{}}) {
		root.AddCommand(s)
	}
	c, rest, err := root.Find(path)
	if err != nil || len(rest) > 0 || c == root {
		return nil
	}
	return c
}

// The exit codes the README's table gives are the ones the code uses.
func TestReadmeExitTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	var rows []string
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "| ") && len(line) > 4 && line[2] >= '0' && line[2] <= '9' {
			rows = append(rows, strings.Fields(line)[1])
		}
	}
	sort.Strings(rows)
	want := []string{"0", "1", "129", "130", "143", "2", "3"}
	if strings.Join(rows, ",") != strings.Join(want, ",") {
		t.Errorf("README's exit table has codes %v, want %v", rows, want)
	}
	for _, s := range []string{"unknown or ambiguous debate id", "missing or unreadable file", "unknown command or flag"} {
		if !strings.Contains(readme, s) {
			t.Errorf("README's exit table does not say %q", s)
		}
	}
}

// agents show tells apart an agent that is live, one that stopped (its
// registration went stale, or it unregistered as it stopped cleanly), and
// one that never registered (an inbox made ahead with agents add).
func TestAgentsShowStates(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	register(t, root, "Live", true)
	register(t, root, "Crashed", false)
	mustCLI(t, root, "", "agents", "add", "Later")
	// Stopped cleanly: registered (adopting its inbox), then unregistered.
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.Open(root, tr)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reg.Register(context.Background(), registry.Registration{Name: "Gone"})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Unregister(context.Background(), "Gone", r.SessionID); err != nil {
		t.Fatal(err)
	}
	reg.Close()
	tr.Close()
	for name, want := range map[string]struct{ state, human string }{
		"Live":    {"live", "status: live pid:"},
		"Crashed": {"stopped", "status: stopped (its process is gone"},
		"Gone":    {"stopped", "status: stopped (it registered before; it unregistered as it stopped, or a dead registration was pruned"},
		"Later":   {"never_registered", "status: never registered"},
	} {
		js := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", name))
		if len(js) != 1 || js[0]["state"] != want.state {
			t.Errorf("%s: --json %v, want state %s", name, js, want.state)
		}
		out := strings.Join(strings.Fields(mustCLI(t, root, "", "agents", "show", name)), " ")
		if !strings.Contains(out, want.human) {
			t.Errorf("%s: %q does not say %q", name, out, want.human)
		}
	}
	js := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", "Gone"))
	if js[0]["last_session"] != r.SessionID {
		t.Errorf("Gone: last session %v, want %s", js[0]["last_session"], r.SessionID)
	}
}

// The README and the docs state rules, never where a rule came from: no
// citation of documents a reader of the repository does not have. The
// README stays a short page (at most 300 lines) that links every area's
// page, and every page it links exists.
func TestDocsStandOnTheirOwn(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("docs: %v", err)
	}
	files = append(files, "../../README.md")
	// (A bare § is not a citation: the gate counts "§4.2" in a critique.)
	cite := regexp.MustCompile(`SPEC ?§|SPEC\.md|\bseed 0\d\d|\bthe seed\b|\bthe issue\b|\bissue \d+|\(issue`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := cite.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q: %s", f, i+1, m, line)
			}
		}
	}
	readme, _ := os.ReadFile("../../README.md")
	if n := strings.Count(string(readme), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, more than 300", n)
	}
	for _, area := range []string{"messenger", "debates", "gate", "consensus", "browsing", "escalation", "agents", "mcp", "config", "performance"} {
		link := "(docs/" + area + ".md)"
		if !strings.Contains(string(readme), link) {
			t.Errorf("README.md does not link %s", link)
		}
		if _, err := os.Stat("../../docs/" + area + ".md"); err != nil {
			t.Errorf("docs/%s.md: %v", area, err)
		}
	}
}

// init reports what it really made: every directory on a new root, none on
// an existing one, and only the missing ones on a root half made (here an
// existing vault elsewhere, an Obsidian vault, and a root with inbox/).
func TestInitReportsWhatItCreated(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "state")
	vault := filepath.Join(t.TempDir(), "notes")
	if err := os.MkdirAll(filepath.Join(vault, "wiki"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "inbox"), 0o700); err != nil {
		t.Fatal(err)
	}
	first := jsonLines(t, mustCLI(t, root, "", "--json", "--vault", vault, "init"))[0]
	want := []any{filepath.Join(root, "registry"), filepath.Join(root, "debates"), filepath.Join(vault, "wiki", "consensus"), filepath.Join(vault, "wiki", "debates")}
	if fmt.Sprint(first["created"]) != fmt.Sprint(want) {
		t.Errorf("first init created %v, want %v", first["created"], want)
	}
	if ex := first["existing"].([]any); len(ex) != 4 {
		t.Errorf("first init found existing %v, want the root, inbox/, the vault and wiki/", ex)
	}
	again := jsonLines(t, mustCLI(t, root, "", "--json", "--vault", vault, "init"))[0]
	if c := again["created"].([]any); len(c) != 0 {
		t.Errorf("a second init says it created %v", c)
	}
	if out := mustCLI(t, root, "", "--vault", vault, "init"); !strings.Contains(out, "already set up: nothing created") {
		t.Errorf("a second init: %q", out)
	}
}

// A root does not record the --vault it was made with, so init says that
// every command on it needs the same --vault, with one to paste; without
// --vault it says nothing of the kind.
func TestInitWithAVaultSaysEveryCommandNeedsIt(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "state")
	vault := filepath.Join(t.TempDir(), "my notes")
	_, errs, code := cli(t, root, "", "--vault", vault, "init")
	want := suggest.CommandLine("parley", "--root", root, "--vault", vault, "consensus", "list")
	if code != 0 || !strings.Contains(errs, "give every command on it --vault "+suggest.Quote(vault)) || !strings.Contains(errs, want) ||
		!strings.Contains(errs, filepath.Join(root, "vault")) || strings.Count(errs, "\n") != 1 {
		t.Errorf("init --vault: exit %d, stderr %q; want one line naming --vault and %q", code, errs, want)
	}
	if _, errs, code := cli(t, filepath.Join(t.TempDir(), "plain"), "", "init"); code != 0 || errs != "" {
		t.Errorf("init without --vault: exit %d, stderr %q", code, errs)
	}
}

// A unique prefix of a debate id works wherever an id does, and of a
// record's name or debate id for consensus show; an ambiguous prefix names
// its candidates (exit 1), as an unknown id does.
func TestIDPrefixes(t *testing.T) {
	t.Parallel()
	root, conceded, deadlocked := twoDebates(t) // spec and verify debates of the same day
	short := conceded[:strings.Index(conceded, "idempotency")+len("idem")]
	for _, args := range [][]string{
		{"debate", "status", short}, {"debate", "watch", short}, {"transcripts", "show", short}, {"transcripts", "verify", short},
		{"consensus", "file", "--from-debate", short},
	} {
		out, errs, code := dcli(t, root, append([]string{"--json"}, args...)...)
		if code != 0 || !strings.Contains(out, conceded) {
			t.Errorf("%v: exit %d, %s\n%s", args, code, errs, out)
		}
	}
	// consensus show: a prefix of the record's name, and of its debate id.
	for _, p := range []string{"spec-idempo", short} {
		out, errs, code := dcli(t, root, "--json", "consensus", "show", p)
		if code != 0 || !strings.Contains(out, `"debate_id":"`+conceded+`"`) {
			t.Errorf("consensus show %s: exit %d, %s", p, code, errs)
		}
	}
	day := conceded[:9] // "20261201-": both debates
	if !strings.HasPrefix(deadlocked, day) {
		t.Fatalf("the debates %s and %s do not share a day", conceded, deadlocked)
	}
	_, errs, code := dcli(t, root, "transcripts", "show", day)
	if code != cmdutil.ExitError || !strings.Contains(errs, fmt.Sprintf("%q is the start of 2 debates: ", day)) ||
		!strings.Contains(errs, conceded) || !strings.Contains(errs, deadlocked) {
		t.Errorf("an ambiguous prefix: exit %d %q", code, errs)
	}
	// The random end of the id (the agents' names carry it), a part of its
	// topic in any case: the one debate they name.
	for _, p := range []string{conceded[strings.LastIndexByte(conceded, '-')+1:], "IDEMPOTENCY"} {
		out, errs, code := dcli(t, root, "--json", "transcripts", "verify", p)
		if code != 0 || !strings.Contains(out, conceded) {
			t.Errorf("transcripts verify %s: exit %d, %s\n%s", p, code, errs, out)
		}
	}
	// A part of both ids (their layer is not, "-spec-" and "-verify-"):
	// both named.
	both := day[:8] + "-"
	_, errs, code = dcli(t, root, "transcripts", "show", both[2:])
	if code != cmdutil.ExitError || !strings.Contains(errs, fmt.Sprintf("%q is part of 2 debates: ", both[2:])) {
		t.Errorf("an ambiguous part: exit %d %q", code, errs)
	}
}

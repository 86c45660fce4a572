package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/interrupt"
)

// Each subcommand is listed under the name it is typed as, so a command
// line that names it builds that one command and runs the same code.
func TestSubcommandsAreListedUnderTheirNames(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range subcommands {
		c := s.make(&factory{&cmdutil.Factory{}})
		if c.Name() != s.name {
			t.Errorf("%q is listed as %q", c.Name(), s.name)
		}
		if len(c.Aliases) > 0 {
			t.Errorf("%s has aliases %v that a command line could name", c.Name(), c.Aliases)
		}
		if seen[s.name] {
			t.Errorf("%s listed twice", s.name)
		}
		seen[s.name] = true
	}
}

// globals, which finds the command's name before cobra parses the line
// (internal/argv tests how), lists exactly the global flags the help
// shows, valued ones as valued: a global flag missing from it would make
// the flag's value read as the command's name.
func TestGlobalsAreTheGlobalFlags(t *testing.T) {
	t.Parallel()
	out, _, _ := runT(t, "", "send", "--help")
	_, help, ok := strings.Cut(out, "Global Flags:\n")
	if !ok {
		t.Fatalf("no global flags in send --help:\n%s", out)
	}
	var valued, switches []string
	for _, line := range strings.Split(strings.TrimSpace(help), "\n") {
		f := strings.Fields(strings.ReplaceAll(line, ",", ""))
		for k, w := range f {
			if !strings.HasPrefix(w, "-") {
				if k+1 < len(f) && w == "string" {
					valued = append(valued, f[k-1])
				} else if k > 0 {
					switches = append(switches, f[:k]...)
				}
				break
			}
		}
	}
	slices.Sort(valued)
	slices.Sort(switches)
	want := []string{"--root", "--vault"}
	if !slices.Equal(valued, want) || !slices.Equal(slices.Sorted(slices.Values(globals.Valued)), valued) {
		t.Errorf("valued global flags: help %v, globals %v", valued, globals.Valued)
	}
	if !slices.Equal(slices.Sorted(slices.Values(globals.Switches)), switches) {
		t.Errorf("global switches: help %v, globals %v", switches, globals.Switches)
	}
	for _, f := range valued {
		if got := globals.Command([]string{f, "send", "recv"}); got != "recv" {
			t.Errorf("%s send recv: command %q, want recv", f, got)
		}
	}
}

// A command line that names a subcommand gets that one (and those named
// one letter apart); anything else
// (help, completion, a name mistyped, a flag of the root) gets them all,
// so that help lists them and a mistake is answered with the name meant.
func TestOnlyTheNamedSubcommandIsBuilt(t *testing.T) {
	t.Parallel()
	names := func(args ...string) []string {
		cmds, _ := commandsFor(&factory{&cmdutil.Factory{}}, args)
		var out []string
		for _, c := range cmds {
			out = append(out, c.Name())
		}
		return out
	}
	if got := names("--root", "/r", "send", "--from", "A"); !slices.Equal(got, []string{"send"}) {
		t.Errorf("send built %v", got)
	}
	// With the ones named one letter apart, to suggest a subcommand typed
	// under the wrong one.
	if got := names("agent", "list"); !slices.Equal(got, []string{"agent", "agents"}) {
		t.Errorf("agent built %v", got)
	}
	for _, args := range [][]string{{"--root", "/r", "--version"}, {"--json", "--version"}} {
		if got := names(args...); len(got) != 0 {
			t.Errorf("%q built %v", args, got)
		}
	}
	for _, args := range [][]string{{"help", "send"}, {"completion", "bash"}, {"sned"}, {"--version", "-h"}, {"--version", "send"}, {}} {
		if got := names(args...); len(got) != len(subcommands) {
			t.Errorf("%q built %d commands, want all %d", args, len(got), len(subcommands))
		}
	}
	// What a user sees is the same either way.
	root := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"send", "--help"}, []string{"--require-live", "Global Flags", "--root"}},
		{[]string{"send", "--form", "A"}, []string{"--from"}},
		{[]string{"sned"}, []string{"send"}},
		{[]string{"--version"}, []string{"parley "}},
		{[]string{"help"}, []string{"  send ", "  recv ", "  debate ", "  consensus ", "  completion "}},
	} {
		var out, errs syncBuffer
		err := run(&interrupt.Context{}, append([]string{"--root", root}, tc.args...), nil, &out, &errs)
		cmdutil.ExitCode(err, &errs)
		for _, w := range tc.want {
			if !strings.Contains(out.String()+errs.String(), w) {
				t.Errorf("%q does not say %q: %s%s", tc.args, w, out.String(), errs.String())
			}
		}
	}
}

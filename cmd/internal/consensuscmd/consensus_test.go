package consensuscmd

import (
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// parse runs cmd on args, under a root with the habits every parley
// command has (cmdutil.Polish), with a runF standing in for the run
// function; it returns the exit code. reached is reset first.
func parse(t *testing.T, cmd *cobra.Command, args []string, reached *bool) int {
	t.Helper()
	*reached = false
	root := &cobra.Command{Use: "parley", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(cmd)
	cmdutil.Polish(root, nil)
	root.SetArgs(append([]string{cmd.Name()}, args...))
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	return cmdutil.ExitCode(root.Execute(), io.Discard)
}

func factory() *cmdutil.Factory {
	return &cmdutil.Factory{Stdout: io.Discard, Stderr: io.Discard}
}

// TestCheckFillsItsOptions: the flags of "consensus check" land in its
// options, and what is missing or wrong on the command line is a usage
// error (exit 2) that never reaches the run function.
func TestCheckFillsItsOptions(t *testing.T) {
	var got *CheckOptions
	var reached bool
	newCmd := func() *cobra.Command {
		return NewCmdCheck(factory(), func(o *CheckOptions) error { got, reached = o, true; return nil })
	}
	code := parse(t, newCmd(), []string{"--layer", "plan", "--topic", "cache eviction", "--position", "evict after 10 minutes idle", "--lenient"}, &reached)
	if code != cmdutil.ExitOK || !reached {
		t.Fatalf("exit %d, reached %v", code, reached)
	}
	if got.In.Layer != "plan" || got.In.Topic != "cache eviction" || got.In.Position != "evict after 10 minutes idle" || !got.Lenient {
		t.Fatalf("options %+v", got)
	}
	for _, args := range [][]string{
		{"--layer", "plan", "--topic", "cache eviction"},                     // no position
		{"--topic", "cache eviction", "--position", "x"},                     // no layer
		{"--layer", "plan", "--topic", "   ", "--position", "x"},             // a blank topic
		{"--layer", "architecture", "--topic", "t", "--position", "x"},       // no such layer
		{"--layer", "plan", "--topic", "t", "--position", "x", "extra-word"}, // an argument it does not take
	} {
		if code := parse(t, newCmd(), args, &reached); code != cmdutil.ExitUsage || reached {
			t.Errorf("%q: exit %d, reached the run function %v; want a usage error (2) before it", args, code, reached)
		}
	}
}

// TestSearchJoinsItsQuery: the words of "consensus search" are one query,
// and the filters and limit are its options.
func TestSearchJoinsItsQuery(t *testing.T) {
	var got *SearchOptions
	var reached bool
	cmd := NewCmdSearch(factory(), func(o *SearchOptions) error { got, reached = o, true; return nil })
	if code := parse(t, cmd, []string{"retry", "budget", "--limit", "3", "--layer", "verify", "--status", "active"}, &reached); code != cmdutil.ExitOK || !reached {
		t.Fatalf("exit %d, reached %v", code, reached)
	}
	if got.In.Query != "retry budget" || got.In.Limit != 3 || got.In.Layer != "verify" || got.In.Status != "active" {
		t.Fatalf("options %+v", got.In)
	}
	for _, args := range [][]string{
		{},                               // no query
		{"retry", "--status", "retired"}, // no such status
		{"retry", "--limit", "many"},     // not a number
	} {
		cmd := NewCmdSearch(factory(), func(*SearchOptions) error { reached = true; return nil })
		if code := parse(t, cmd, args, &reached); code != cmdutil.ExitUsage || reached {
			t.Errorf("%q: exit %d, reached %v; want a usage error before the run function", args, code, reached)
		}
	}
}

// TestListShowFileOptions: the remaining commands' arguments and flags,
// and their usage errors.
func TestListShowFileOptions(t *testing.T) {
	var reached bool
	var list *ListOptions
	if code := parse(t, NewCmdList(factory(), func(o *ListOptions) error { list, reached = o, true; return nil }),
		[]string{"--verdict", "DEADLOCK", "--layer", "spec"}, &reached); code != cmdutil.ExitOK || list.Query.Verdict != "DEADLOCK" || list.Query.Layer != "spec" {
		t.Errorf("list: exit %d, options %+v", code, list)
	}
	if code := parse(t, NewCmdList(factory(), func(*ListOptions) error { reached = true; return nil }),
		[]string{"--verdict", "MAYBE"}, &reached); code != cmdutil.ExitUsage || reached {
		t.Errorf("list --verdict MAYBE: exit %d, reached %v", code, reached)
	}

	var show *ShowOptions
	if code := parse(t, NewCmdShow(factory(), func(o *ShowOptions) error { show, reached = o, true; return nil }),
		[]string{"[[Cache eviction]]"}, &reached); code != cmdutil.ExitOK || show.Name != "[[Cache eviction]]" {
		t.Errorf("show: exit %d, options %+v", code, show)
	}
	if code := parse(t, NewCmdShow(factory(), func(*ShowOptions) error { reached = true; return nil }),
		[]string{"one", "two"}, &reached); code != cmdutil.ExitUsage || reached {
		t.Errorf("show with two names: exit %d, reached %v", code, reached)
	}

	var file *FileOptions
	if code := parse(t, NewCmdFile(factory(), func(o *FileOptions) error { file, reached = o, true; return nil }),
		[]string{"--from-debate", "20261203-plan"}, &reached); code != cmdutil.ExitOK || file.DebateID != "20261203-plan" {
		t.Errorf("file: exit %d, options %+v", code, file)
	}
	if code := parse(t, NewCmdFile(factory(), func(*FileOptions) error { reached = true; return nil }),
		nil, &reached); code != cmdutil.ExitUsage || reached {
		t.Errorf("file without --from-debate: exit %d, reached %v", code, reached)
	}
}

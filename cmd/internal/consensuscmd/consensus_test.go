package consensuscmd

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// exit resets reached and runs cmd with args (cmdtest.Exit).
func exit(reached *bool, cmd *cobra.Command, args []string) int {
	*reached = false
	return cmdtest.Exit(cmd, args...)
}

// TestCheckFillsItsOptions: the flags of "consensus check" land in its
// options, and what is missing or wrong on the command line is a usage
// error (exit 2) that never reaches the run function.
func TestCheckFillsItsOptions(t *testing.T) {
	var got *CheckOptions
	var reached bool
	newCmd := func() *cobra.Command {
		return NewCmdCheck(cmdtest.Factory(), func(o *CheckOptions) error { got, reached = o, true; return nil })
	}
	code := exit(&reached, newCmd(), []string{"--layer", "plan", "--topic", "cache eviction", "--position", "evict after 10 minutes idle", "--lenient"})
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
		if code := exit(&reached, newCmd(), args); code != cmdutil.ExitUsage || reached {
			t.Errorf("%q: exit %d, reached the run function %v; want a usage error (2) before it", args, code, reached)
		}
	}
}

// TestSearchJoinsItsQuery: the words of "consensus search" are one query,
// and the filters and limit are its options.
func TestSearchJoinsItsQuery(t *testing.T) {
	var got *SearchOptions
	var reached bool
	cmd := NewCmdSearch(cmdtest.Factory(), func(o *SearchOptions) error { got, reached = o, true; return nil })
	if code := exit(&reached, cmd, []string{"retry", "budget", "--limit", "3", "--layer", "verify", "--status", "active"}); code != cmdutil.ExitOK || !reached {
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
		cmd := NewCmdSearch(cmdtest.Factory(), func(*SearchOptions) error { reached = true; return nil })
		if code := exit(&reached, cmd, args); code != cmdutil.ExitUsage || reached {
			t.Errorf("%q: exit %d, reached %v; want a usage error before the run function", args, code, reached)
		}
	}
	// A blank query is named as the arguments it is, not as a flag.
	code, errs := cmdtest.Run(NewCmdSearch(cmdtest.Factory(), func(*SearchOptions) error { return nil }), "  ")
	if code != cmdutil.ExitUsage || strings.Contains(errs, "--query") || !strings.Contains(errs, "QUERY") {
		t.Errorf("a blank query: exit %d %q", code, errs)
	}
}

// TestListShowFileOptions: the remaining commands' arguments and flags,
// and their usage errors.
func TestListShowFileOptions(t *testing.T) {
	var reached bool
	var list *ListOptions
	code := exit(&reached, NewCmdList(cmdtest.Factory(), func(o *ListOptions) error { list, reached = o, true; return nil }), []string{"--verdict", "DEADLOCK", "--layer", "spec"})
	if code != cmdutil.ExitOK || list == nil || list.Query.Verdict != "DEADLOCK" || list.Query.Layer != "spec" {
		t.Errorf("list: exit %d, options %+v", code, list)
	}
	never := func() error { reached = true; return nil }
	if code := exit(&reached, NewCmdList(cmdtest.Factory(), func(*ListOptions) error { return never() }), []string{"--verdict", "MAYBE"}); code != cmdutil.ExitUsage || reached {
		t.Errorf("list --verdict MAYBE: exit %d, reached %v", code, reached)
	}

	var show *ShowOptions
	code = exit(&reached, NewCmdShow(cmdtest.Factory(), func(o *ShowOptions) error { show, reached = o, true; return nil }), []string{"[[Cache eviction]]"})
	if code != cmdutil.ExitOK || show == nil || show.Name != "[[Cache eviction]]" {
		t.Errorf("show: exit %d, options %+v", code, show)
	}
	if code := exit(&reached, NewCmdShow(cmdtest.Factory(), func(*ShowOptions) error { return never() }), []string{"one", "two"}); code != cmdutil.ExitUsage || reached {
		t.Errorf("show with two names: exit %d, reached %v", code, reached)
	}

	var file *FileOptions
	code = exit(&reached, NewCmdFile(cmdtest.Factory(), func(o *FileOptions) error { file, reached = o, true; return nil }), []string{"--from-debate", "20261203-plan"})
	if code != cmdutil.ExitOK || file == nil || file.DebateID != "20261203-plan" {
		t.Errorf("file: exit %d, options %+v", code, file)
	}
	if code := exit(&reached, NewCmdFile(cmdtest.Factory(), func(*FileOptions) error { return never() }), nil); code != cmdutil.ExitUsage || reached {
		t.Errorf("file without --from-debate: exit %d, reached %v", code, reached)
	}
}

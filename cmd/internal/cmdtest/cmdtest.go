// Package cmdtest runs one command of a gh-shaped command package the way
// the parley binary would, for that package's tests: under a root with the
// habits every command has (cmdutil.Polish), so that argument counts, flag
// values and unknown flags fail as they do for a user. It imports no
// command package.
package cmdtest

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// Factory is a Factory whose output goes nowhere.
func Factory() *cmdutil.Factory {
	return &cmdutil.Factory{Stdout: io.Discard, Stderr: io.Discard}
}

// Exit runs cmd with args under a root named "parley" and returns the exit
// code parley would (cmdutil.ExitCode). A test builds cmd with a runF that
// records the options, so nothing runs.
func Exit(cmd *cobra.Command, args ...string) int {
	code, _ := Run(cmd, args...)
	return code
}

// Run is Exit that also returns what parley would print on standard error
// about the command's error.
func Run(cmd *cobra.Command, args ...string) (int, string) {
	return RunContext(context.Background(), cmd, args...)
}

// RunContext is Run with the command's context ctx (the one Ctrl-C ends).
func RunContext(ctx context.Context, cmd *cobra.Command, args ...string) (int, string) {
	root := &cobra.Command{Use: "parley", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(cmd)
	cmdutil.Polish(root, nil)
	root.SetArgs(append([]string{cmd.Name()}, args...))
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	var errs strings.Builder
	code := cmdutil.ExitCode(cmdutil.Execute(ctx, root), &errs)
	return code, errs.String()
}

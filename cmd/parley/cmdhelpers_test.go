package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// The commands that share a helper (the listing of debates, the commands
// on one debate, listen, withAgent) say the same thing for the same missing
// piece.
func TestSharedCommandErrors(t *testing.T) {
	t.Parallel()
	noRoot := filepath.Join(t.TempDir(), "none")
	const id = "20260101-spec-idempotency-keys-abcdef"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // "" means none
		stderr string
	}{
		{"debate list, no root", []string{"debate", "list"}, 0, "no debates: there is no parley root at " + noRoot + " (parley --root " + noRoot + " init makes one)\n", ""},
		{"transcripts list, no root", []string{"transcripts", "list"}, 0, "no debates: there is no parley root at " + noRoot + " (parley --root " + noRoot + " init makes one)\n", ""},
		{"gate stats, no root", []string{"gate", "stats"}, 0, "no gate decisions: there is no parley root at " + noRoot + " (parley --root " + noRoot + " init makes one)\n", ""},
		// Under --json the list is empty (no line on stdout), and stderr
		// says why, so that a mistyped --root is not silence.
		{"debate list --json, no root", []string{"--json", "debate", "list"}, 0, "", "parley: warning: no debates: there is no parley root at " + noRoot + " (parley --root " + noRoot + " init makes one)\n"},
		{"transcripts list --json, no root", []string{"--json", "transcripts", "list"}, 0, "", "parley: warning: no debates: there is no parley root at " + noRoot},
		{"agents list --json, no root", []string{"--json", "agents", "list"}, 0, "", "parley: warning: no live agents: there is no parley root at " + noRoot},
		{"consensus list --json, no root", []string{"--json", "consensus", "list"}, 0, "", "parley: warning: no consensus records: there is no parley root at " + noRoot},
		{"debate status, no root", []string{"debate", "status", id}, cmdutil.ExitError, "", "no debate " + id + ": there is no parley root at " + noRoot},
		{"debate watch, no root", []string{"debate", "watch", id}, cmdutil.ExitError, "", "no debate " + id + ": there is no parley root at " + noRoot},
		{"debate resume, no root", []string{"debate", "resume", id}, cmdutil.ExitError, "", "no debate " + id + ": there is no parley root at " + noRoot},
		{"debate watch, bad id", []string{"debate", "watch", "../x"}, cmdutil.ExitError, "", "(parley --root " + noRoot + " init makes one)"},
		{"recv without --as", []string{"recv"}, cmdutil.ExitUsage, "", "recv needs --as NAME (see parley recv --help)"},
		{"watch without --as", []string{"watch"}, cmdutil.ExitUsage, "", "watch needs --as NAME (see parley watch --help)"},
		{"recv --as a bad name", []string{"recv", "--as", "../Bob"}, cmdutil.ExitError, "", `--as: invalid_name: "../Bob"`},
		{"agents add a bad name", []string{"agents", "add", "--", "-x/y"}, cmdutil.ExitError, "", `agent: invalid_name: "-x/y"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := cli(t, noRoot, "", tc.args...)
			if code != tc.code || out != tc.stdout || !strings.Contains(errs, tc.stderr) || (tc.stderr == "" && errs != "") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr saying %q", code, out, errs, tc.code, tc.stdout, tc.stderr)
			}
			if _, err := os.Stat(noRoot); tc.code != 0 && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused command made the root: %v", err)
			}
		})
	}
	// With a root, an inbox that does not exist is named, for recv and
	// watch alike, and an unknown agent for agents show.
	root := t.TempDir()
	mustCLI(t, root, "", "init")
	// A vault that is not there is said on stderr under --json too.
	noVault := filepath.Join(t.TempDir(), "novault")
	out, errs, code := cli(t, root, "", "--vault", noVault, "--json", "consensus", "list")
	if want := "parley: warning: no consensus records: there is no vault at " + noVault; code != 0 || out != "" || !strings.HasPrefix(errs, want) {
		t.Errorf("consensus list --json, no vault: exit %d, stdout %q, stderr %q; want 0, nothing, %q", code, out, errs, want)
	}
	for _, args := range [][]string{{"recv", "--as", "Nobody"}, {"watch", "--as", "Nobody"}, {"agents", "show", "Nobody"}} {
		_, errs, code := cli(t, root, "", args...)
		oneLineError(t, errs, code, `not_found: no agent "Nobody"`)
	}
}

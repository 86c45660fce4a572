package main

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// The service layer refuses a send; the command line says so in its own
// words: each input named by its flag (or as the text or standard input),
// a mistake in the command line's form exit 2, the rest exit 1, and
// nothing delivered.
func TestSendRefusalsNameTheFlags(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Ines")
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		says  string
	}{
		{"", []string{"--type", "Release-Note", "v2 is out"}, exitUsage, `--type "Release-Note": use lower-case letters`},
		{"", []string{"--reply-to", strings.Repeat("7", 201), "ack"}, exitUsage, "--reply-to: an id is at most 200 characters"},
		{"", []string{""}, exitUsage, "nothing to send: the text is empty"},
		{" \t\n", []string{"-"}, exitUsage, "nothing to send: standard input is empty"},
		{"", []string{"caf\xe9 au lait"}, exitError, "the text is not UTF-8 text; nothing sent"},
		{strings.Repeat("y", inbox.MaxMessageBytes+1), nil, exitError, "message too large: standard input is over 1048576 bytes"},
		{"", []string{"--require-live", "are you there?"}, exitError, "not_active: Ines is not running (it is not registered yet); nothing sent (drop --require-live"},
	} {
		args := append([]string{"send", "--from", "ci-runner", "--to", "Ines"}, tc.args...)
		out, stderr, code := cli(t, root, tc.stdin, args...)
		if code != tc.code || out != "" || !strings.Contains(stderr, tc.says) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d saying %q", tc.args, code, out, stderr, tc.code, tc.says)
		}
	}
	if objs := jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Ines", "--all")); len(objs) != 0 {
		t.Fatalf("refused sends delivered %v", objs)
	}
}

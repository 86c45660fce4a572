package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
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
		{"", []string{"--type", "Release-Note", "v2 is out"}, cmdutil.ExitUsage, `--type "Release-Note": use lower-case letters`},
		{"", []string{"--reply-to", strings.Repeat("7", 201), "ack"}, cmdutil.ExitUsage, "--reply-to: an id is at most 200 characters"},
		{"", []string{""}, cmdutil.ExitUsage, "nothing to send: the text is empty"},
		{" \t\n", []string{"-"}, cmdutil.ExitUsage, "nothing to send: standard input is empty"},
		{"", []string{"caf\xe9 au lait"}, cmdutil.ExitError, "the text is not UTF-8 text; nothing sent"},
		{strings.Repeat("y", inbox.MaxMessageBytes+1), nil, cmdutil.ExitError, "message too large: standard input is over 1048576 bytes"},
		{"", []string{"--require-live", "are you there?"}, cmdutil.ExitError, "not_active: Ines is not running (it is not registered yet); nothing sent (drop --require-live"},
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

// The flags of send, recv and watch fill their options; given a run
// function, the command hands them over and nothing else runs: no root
// is made, no messenger opened.
func TestMessengerCommandsParseIntoOptions(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "none")
	a := &factory{&cmdutil.Factory{RootFlag: root, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}}
	parse := func(cmd *cobra.Command, args ...string) {
		t.Helper()
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	var sent sendOptions
	parse(newSendCmd(a, func(_ context.Context, o *sendOptions) error { sent = *o; return nil }),
		"--from", "ci-runner", "--to", "Ines", "--type", "diff", "--reply-to", "m-9", "--require-live", "-")
	if want := (sendOptions{SendRequest: app.SendRequest{From: "ci-runner", To: "Ines", Type: "diff", ReplyTo: "m-9", RequireLive: true}, Stdin: true}); sent != want {
		t.Errorf("send: %+v, want %+v", sent, want)
	}
	parse(newSendCmd(a, func(_ context.Context, o *sendOptions) error { sent = *o; return nil }), "--from", "a", "--to", "b", "ship it")
	if sent.Stdin || sent.Text != "ship it" || sent.Type != inbox.TypeText {
		t.Errorf("send TEXT: %+v", sent)
	}
	for args, want := range map[string]recvOptions{
		"--as Bob --wait 2s --all": {As: "Bob", ReceiveOptions: app.ReceiveOptions{Wait: 2 * time.Second}},
		"--as Bob":                 {As: "Bob", ReceiveOptions: app.ReceiveOptions{Max: 1}},
	} {
		var got recvOptions
		parse(newRecvCmd(a, func(_ context.Context, o *recvOptions) error { got = *o; return nil }), strings.Fields(args)...)
		if !reflect.DeepEqual(got, want) { // Warn is nil until recvRun sets it
			t.Errorf("recv %s: %+v, want %+v", args, got, want)
		}
	}
	var watched watchOptions
	parse(newWatchCmd(a, func(_ context.Context, o *watchOptions) error { watched = *o; return nil }), "--as", "Bob", "--no-register")
	if watched != (watchOptions{As: "Bob", NoRegister: true}) {
		t.Errorf("watch: %+v", watched)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("parsing made the root: %v", err)
	}
}

// Standard input that is /dev/null (cron, CI, nohup, a closed standard
// input) is no terminal: "send -" reads it without the hint meant for a
// person typing, and refuses the empty text in one line.
func TestSendFromDevNullGivesNoTypingHint(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var out, errb strings.Builder
	err = run(context.Background(), []string{"--root", root, "send", "--from", "Ana", "--to", "Bob", "-"}, null, &out, &errb)
	code := cmdutil.ExitCode(err, &errb)
	if strings.Contains(errb.String(), "Ctrl-D") || code == cmdutil.ExitOK || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
		t.Fatalf("send - from /dev/null: exit %d, stderr %q; want one line refusing the empty text, no typing hint", code, errb.String())
	}
}

// A text the shell split at its spaces (not quoted) is a usage error that
// says to quote it, and nothing is sent.
func TestSendOfUnquotedWordsSaysToQuote(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Bob", "is", "the", "key", "per", "request?")
	want := "parley: send takes the text as one argument, got 5 words: quote it (parley send --from A --to B 'the whole text'), or give - and pipe it in\n"
	if code != cmdutil.ExitUsage || stderr != want {
		t.Fatalf("exit %d, stderr %q; want %d, %q", code, stderr, cmdutil.ExitUsage, want)
	}
	if out := mustCLI(t, root, "", "--json", "recv", "--as", "Bob", "--all"); out != "" {
		t.Fatalf("something was sent: %q", out)
	}
}

// A text that starts with '-' and could be no flag (a space in it, or a
// digit after one '-') is taken for a flag by the parser: the usage error
// says to put it after --, which then sends it. A command that takes no
// argument keeps the plain unknown-flag error.
func TestATextThatStartsWithADashSaysToPutItAfterDashDash(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	for text, want := range map[string]string{
		"-1 is wrong":    `parley: '-1 is wrong' is not a flag of "parley send": an argument that starts with '-' goes after -- (parley send [flags] -- '-1 is wrong')`,
		"-5":             `parley: -5 is not a flag of "parley send": an argument that starts with '-' goes after -- (parley send [flags] -- -5)`,
		"--force it now": `parley: '--force it now' is not a flag of "parley send": an argument that starts with '-' goes after -- (parley send [flags] -- '--force it now')`,
	} {
		_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Bob", text)
		if code != cmdutil.ExitUsage || stderr != want+"\n" {
			t.Errorf("send %q: exit %d, stderr %q; want %d, %q", text, code, stderr, cmdutil.ExitUsage, want)
		}
		mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "--", text)
		objs := jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob"))
		if len(objs) != 1 || objs[0]["text"] != text {
			t.Errorf("send -- %q delivered %v", text, objs)
		}
	}
	_, stderr, code := cli(t, root, "", "recv", "--as", "Bob", "-1")
	if want := "parley: unknown shorthand flag: '1' in -1 (see parley recv --help)\n"; code != cmdutil.ExitUsage || stderr != want {
		t.Errorf("recv -1: exit %d, stderr %q; want %q", code, stderr, want)
	}
}

// A duration flag given what Go cannot read as a duration ("ninety",
// more hours than a duration holds, a number without its unit, a unit Go
// does not know) says what a duration is and its bound, not only Go's
// "invalid duration" or "missing unit".
func TestADurationFlagSaysWhatADurationIs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	for v, goSays := range map[string]string{
		"ninety":    `invalid duration "ninety"`,
		"10000000h": `invalid duration "10000000h"`,
		"1":         `missing unit in duration "1"`,
		"2days":     `unknown unit "days" in duration "2days"`,
	} {
		_, stderr, code := cli(t, root, "", "recv", "--as", "Bob", "--wait", v)
		want := `parley: invalid argument "` + v + `" for "--wait" flag: time: ` + goSays + `: a duration is a number with a unit, ms, s, m or h (such as 30s, 2m or 1h30m), of at most 2562047h (see parley recv --help)` + "\n"
		if code != cmdutil.ExitUsage || stderr != want {
			t.Errorf("--wait %s: exit %d, stderr %q; want %d, %q", v, code, stderr, cmdutil.ExitUsage, want)
		}
	}
}

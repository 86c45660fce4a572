package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/termsafe"
)

// newRecvCmd is "parley recv --as NAME [--wait DUR] [--all]": claim, print,
// acknowledge (app.Recv).
func newRecvCmd(a *factory) *cobra.Command {
	var as string
	var wait time.Duration
	var all bool
	cmd := &cobra.Command{
		Use:   "recv --as NAME [--wait DUR] [--all]",
		Short: "Claim, print and acknowledge messages of an inbox",
		Long: "Claim the oldest waiting message of NAME's inbox, print it, and acknowledge it\n" +
			"(move it to cur/). --all takes every waiting message; --wait waits up to DUR for\n" +
			"the first one. Prints nothing when the inbox is empty. A message is acknowledged\n" +
			"only after it was printed, so an interrupted recv delivers it again.",
		Example: "  parley recv --as Bob\n  parley --json recv --as Bob --all --wait 30s",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if as == "" {
				return usagef("recv needs --as NAME (see parley recv --help)")
			}
			if wait < 0 {
				return usagef("--wait %v: give a duration of zero or more (e.g. 30s)", wait)
			}
			o := app.ReceiveOptions{Wait: wait, Max: 1}
			if all {
				o.Max = 0
			}
			n, err := a.service().Recv(cmd.Context(), as, o, func(m *inbox.Message) error { return printMessage(a, m) })
			if err != nil {
				return a.fail(err, "", nil)
			}
			if n == 0 && !a.json {
				fmt.Fprintf(a.stderr, "parley: no messages for %s\n", as)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&as, "as", "", "the agent whose inbox to read")
	f.DurationVar(&wait, "wait", 0, "wait up to this long for a message (e.g. 30s)")
	f.BoolVar(&all, "all", false, "take every waiting message, not just one")
	return cmd
}

// newWatchCmd is "parley watch --as NAME [--no-register]": stream
// messages as they arrive, registered as NAME while it runs (app.Watch).
func newWatchCmd(a *factory) *cobra.Command {
	var as string
	var noRegister bool
	cmd := &cobra.Command{
		Use:   "watch --as NAME [--no-register]",
		Short: "Stream an inbox's messages as they arrive, until interrupted",
		Long: "Print every message of NAME's inbox as it arrives, acknowledging each once it\n" +
			"is printed, until interrupted (Ctrl-C).\n\n" +
			"While it runs, watch registers NAME as a live agent (with a heartbeat, removed\n" +
			"when it stops), so that senders see NAME as running and agents that only message\n" +
			"registered names (pi-messenger) can reach it. Messages that waited in the inbox\n" +
			"are printed first. --no-register tails the inbox without registering.",
		Example: "  parley watch --as Bob\n  parley --json watch --as Bob --no-register",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if as == "" {
				return usagef("watch needs --as NAME (see parley watch --help)")
			}
			how := "registered as a live agent"
			if noRegister {
				how = "not registered"
			}
			err := a.service().Watch(cmd.Context(), app.WatchRequest{
				As: as, Register: !noRegister,
				Started: func() {
					if !a.json {
						fmt.Fprintf(a.stderr, "parley: watching the inbox of %s, %s (Ctrl-C to stop)\n", as, how)
					}
				},
				Warn: func(w app.Warning) { a.warnf("%s", w.Text) },
			}, func(m *inbox.Message) error { return printMessage(a, m) })
			return a.fail(err, "", nil)
		},
	}
	cmd.Flags().StringVar(&as, "as", "", "the agent whose inbox to watch")
	cmd.Flags().BoolVar(&noRegister, "no-register", false, "only read: do not register NAME as a live agent while watching")
	return cmd
}

// printMessage prints one message: its wire form under --json, else a
// header line and the text, with their control characters shown (see
// shown): a message comes from another process.
func printMessage(a *factory, m *inbox.Message) error {
	if a.json {
		return emitMessage(a, m)
	}
	reply := ""
	if m.ReplyTo != "" {
		reply = " · reply to " + shown(m.ReplyTo, false)
	}
	_, err := fmt.Fprintf(a.stdout, "── %s → %s · %s · %s · %s%s\n%s\n\n", shown(m.From, false), shown(orDash(m.To), false),
		shown(m.Kind(), false), shown(m.Timestamp, false), shown(m.ID, false), reply, shown(m.Text, true))
	return err
}

// shown makes text written by another process safe to print on a
// terminal: control characters (C0 but tab, and newline when multiline is
// set; DEL; C1) and the bidirectional overrides are written as visible
// escapes (\x1b, \u202e), so that no escape sequence reaches the terminal
// (clearing it, retitling it, writing the clipboard) and no text can forge
// or reorder the lines around it. --json output needs none of this.
func shown(s string, multiline bool) string {
	unsafe := func(r rune) bool {
		return r != '\t' && (r != '\n' || !multiline) && termsafe.Unsafe(r)
	}
	if strings.IndexFunc(s, unsafe) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafe(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

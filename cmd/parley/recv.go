package main

import (
	"context"
	"errors"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/textview"
)

// recvOptions is what "parley recv" was asked.
type recvOptions struct {
	As string
	app.ReceiveOptions
}

// newRecvCmd is "parley recv --as NAME [--wait DUR] [--all]": claim, print,
// acknowledge (app.Recv). runF, when not nil, gets the parsed options
// instead of recvRun.
func newRecvCmd(a *factory, runF func(context.Context, *recvOptions) error) *cobra.Command {
	o := &recvOptions{}
	var all bool
	cmd := &cobra.Command{
		Use:   "recv --as NAME [--wait DUR] [--all]",
		Short: "Claim, print and acknowledge messages of an inbox",
		Long: "Claim the oldest waiting message of NAME's inbox, print it, and acknowledge it\n" +
			"(move it to cur/). --all takes every waiting message; --wait waits up to DUR for\n" +
			"the first one. Prints nothing when the inbox is empty. A message is acknowledged\n" +
			"only after it was printed, so an interrupted recv delivers it again.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.As == "" {
				return cmdutil.Usagef("recv needs --as NAME (see parley recv --help)")
			}
			if o.Wait < 0 {
				return cmdutil.Usagef("--wait %v: give a duration of zero or more (e.g. 30s)", o.Wait)
			}
			if o.Max = 1; all {
				o.Max = 0
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return recvRun(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.As, "as", "", "the agent whose inbox to read")
	f.DurationVar(&o.Wait, "wait", 0, "wait up to this long for a message (e.g. 30s)")
	f.BoolVar(&all, "all", false, "take every waiting message, not just one")
	return cmd
}

// recvRun prints each message claimed, or says the inbox was empty.
func recvRun(ctx context.Context, a *factory, o *recvOptions) error {
	o.Warn = a.WarnLine
	n, err := a.Service().Recv(ctx, o.As, o.ReceiveOptions, a.printMessage)
	if err != nil {
		return a.Fail(err, cmdutil.Wording{})
	}
	if n == 0 && !a.JSON {
		textview.NoMessages(a.Stderr, o.As)
	}
	return nil
}

// watchOptions is what "parley watch" was asked.
type watchOptions struct {
	As         string
	NoRegister bool
}

// newWatchCmd is "parley watch --as NAME [--no-register]": stream
// messages as they arrive, registered as NAME while it runs (app.Watch).
// runF, when not nil, gets the parsed options instead of watchRun.
func newWatchCmd(a *factory, runF func(context.Context, *watchOptions) error) *cobra.Command {
	o := &watchOptions{}
	cmd := &cobra.Command{
		Use:   "watch --as NAME [--no-register]",
		Short: "Stream an inbox's messages as they arrive, until interrupted",
		Long: "Print every message of NAME's inbox as it arrives, acknowledging each once it\n" +
			"is printed, until interrupted (Ctrl-C), or until its output's reader is gone\n" +
			"(watch | head -1): the message it could not print then stays waiting.\n\n" +
			"While it runs, watch registers NAME as a live agent (with a heartbeat, removed\n" +
			"when it stops), so that senders see NAME as running and agents that only message\n" +
			"registered names (pi-messenger) can reach it. Messages that waited in the inbox\n" +
			"are printed first. --no-register tails the inbox without registering.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.As == "" {
				return cmdutil.Usagef("watch needs --as NAME (see parley watch --help)")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return watchRun(cmd.Context(), a, o)
		},
	}
	cmd.Flags().StringVar(&o.As, "as", "", "the agent whose inbox to watch")
	cmd.Flags().BoolVar(&o.NoRegister, "no-register", false, "only read: do not register NAME as a live agent while watching")
	return cmd
}

// watchRun prints each message as it arrives, and the warnings. A reader
// that went away (watch | head -1) makes the next print fail (EPIPE, as
// SIGPIPE is taken rather than left to kill the process): the watch then
// ends quietly, that message unacknowledged, and unregisters as on Ctrl-C.
func watchRun(ctx context.Context, a *factory, o *watchOptions) error {
	defer interrupt.OutliveReader()()
	var printErr error
	err := a.Service().Watch(ctx, app.WatchRequest{
		As: o.As, Register: !o.NoRegister,
		Started: func() {
			if !a.JSON {
				textview.Watching(a.Stderr, o.As, !o.NoRegister, interrupt.HowToStop())
			}
		},
		Warn: a.WarnLine,
	}, func(m *inbox.Message) error {
		printErr = a.printMessage(m)
		return printErr
	})
	if errors.Is(printErr, syscall.EPIPE) && errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return a.Fail(err, cmdutil.Wording{})
}

// printMessage prints one message: its wire form under --json, else its
// text view (textview.Message).
func (a *factory) printMessage(m *inbox.Message) error {
	if a.JSON {
		return textview.MessageJSON(a.Stdout, m)
	}
	return textview.Message(a.Stdout, m)
}

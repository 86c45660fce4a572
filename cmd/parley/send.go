package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/textview"
)

// sendOptions is what "parley send" was asked: the request, and whether
// its text comes from standard input (- or no TEXT).
type sendOptions struct {
	app.SendRequest
	Stdin bool
}

// newSendCmd is "parley send": the flags, and the result printed; the
// rules (names, type, size, the recipient known and running) are the
// service layer's (app.SendRequest). runF, when not nil, gets the parsed
// options instead of sendRun.
func newSendCmd(a *factory, runF func(context.Context, *sendOptions) error) *cobra.Command {
	o := &sendOptions{}
	cmd := &cobra.Command{
		Use:   "send --from A --to B [--type T] [--reply-to ID] [--require-live] [TEXT | -]",
		Short: "Deliver a message to an agent's inbox",
		Long: "Deliver TEXT (or standard input, with - or no argument) from A to B's inbox,\n" +
			"durably: once send returns, the message survives a crash.\n\n" +
			"A name that is not valid is an error (invalid_name); an agent with neither an inbox\n" +
			"nor a registration is an error (not_found). An agent that is known but not running\n" +
			"still gets the message in its inbox, with a not_active warning (an error under\n" +
			"--require-live, and then nothing is sent). The sender need not be registered.",
		Args: sendArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Addressed(); err != nil {
				return a.Fail(err, cmdutil.Wording{Help: "parley send"})
			}
			o.Stdin = len(args) == 0 || args[0] == "-"
			if !o.Stdin {
				o.Text = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return sendRun(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.From, "from", "", "the sender's name (need not be registered)")
	f.StringVar(&o.To, "to", "", "the recipient's name")
	f.StringVar(&o.Type, "type", inbox.TypeText, "the message type")
	f.StringVar(&o.ReplyTo, "reply-to", "", "the id of the message this one answers")
	f.BoolVar(&o.RequireLive, "require-live", false, "fail (not_active) instead of delivering to an agent that is not running")
	// Its waits (standard input, a NATS server that does not answer) ask
	// for Done first; a send to the file messenger never waits.
	return cmdutil.WaitsLazily(cmd)
}

// sendArgs takes the text as one argument. Several are a text the shell
// split at its spaces: the error says to quote it, rather than only that
// send takes one argument.
func sendArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return cmdutil.Usagef("send takes the text as one argument, got %d words: quote it (parley send --from A --to B 'the whole text'), or give - and pipe it in", len(args))
	}
	return nil
}

// sendRun sends through the service layer and prints the message's id (or
// its wire form under --json), after the warnings.
func sendRun(ctx context.Context, a *factory, o *sendOptions) error {
	textName := "the text"
	if o.Stdin {
		b, err := a.ReadStdin(ctx, "the message", inbox.MaxMessageBytes)
		if err != nil && !errors.Is(err, cmdutil.ErrInterrupted) {
			err = fmt.Errorf("read the message from standard input: %w", err)
		}
		if err != nil {
			return err
		}
		o.Text, textName = string(b), "standard input"
	}
	sent, err := a.Service().Send(ctx, o.SendRequest)
	if err != nil {
		return a.Fail(err, cmdutil.Wording{NoRoot: fmt.Sprintf("not_found: no agent %q: ", o.To), Name: func(field string) string {
			if field == "text" {
				return textName
			}
			return a.InputName(field)
		}})
	}
	// Said only once the message is in the inbox: a refused send (too
	// large, a full disk) is its error alone.
	if err := a.Warn(sent.Warnings...); err != nil {
		return err
	}
	if a.JSON {
		return textview.MessageJSON(a.Stdout, sent.Message)
	}
	return textview.Sent(a.Stdout, sent, o.To)
}

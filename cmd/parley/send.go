package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// typeOK is the allowlist ^[a-z][a-z0-9_]{0,63}$ of message types, written
// out so that send compiles no regular expression.
func typeOK(t string) bool {
	if t == "" || len(t) > 64 || t[0] < 'a' || t[0] > 'z' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if c := t[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// newSendCmd is "parley send --from A --to B [--type T] [--reply-to ID]
// [--require-live] [TEXT | -]" (SPEC §4: validation before send).
func newSendCmd(a *factory) *cobra.Command {
	var from, to, typ, replyTo string
	var requireLive bool
	cmd := &cobra.Command{
		Use:   "send --from A --to B [--type T] [--reply-to ID] [--require-live] [TEXT | -]",
		Short: "Deliver a message to an agent's inbox",
		Long: "Deliver TEXT (or standard input, with - or no argument) from A to B's inbox,\n" +
			"durably: once send returns, the message survives a crash.\n\n" +
			"A name that is not valid is an error (invalid_name); an agent with neither an inbox\n" +
			"nor a registration is an error (not_found). An agent that is known but not running\n" +
			"still gets the message in its inbox, with a not_active warning (an error under\n" +
			"--require-live, and then nothing is sent). The sender need not be registered.",
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if from == "" || to == "" {
				return usagef("send needs --from and --to (see parley send --help)")
			}
			if err := validName("--from", from); err != nil {
				return err
			}
			if err := validName("--to", to); err != nil {
				return err
			}
			if !typeOK(typ) {
				return usagef("--type %q: use lower-case letters, digits and '_', starting with a letter", typ)
			}
			if len(replyTo) > 200 {
				return usagef("--reply-to: an id is at most 200 characters")
			}
			text, err := messageText(cmd.Context(), a, args)
			if err != nil {
				return err
			}
			// Encoded once before anything is said about the recipient, so
			// that a message that cannot be sent (over the limit once
			// encoded) is refused without a "waits in its inbox" warning.
			msg := &inbox.Message{ID: inbox.NewID(), From: from, To: to, Text: text, Timestamp: inbox.Now(), Type: typ, ReplyTo: replyTo}
			if _, err := msg.Encode(); err != nil {
				return messengerError(err)
			}
			if !a.haveRoot() {
				// No root, no inbox: nothing to deliver to, and a refused
				// send must not leave a root behind.
				return a.noRootError(fmt.Sprintf("not_found: no agent %q: ", to))
			}
			m, err := a.openMessenger()
			if err != nil {
				return err
			}
			defer m.Close()
			ctx := cmd.Context()

			has, err := m.tr.Exists(ctx, to)
			if err != nil {
				return messengerError(err)
			}
			e, err := m.reg.Get(ctx, to)
			registered := err == nil
			if err != nil && !errors.Is(err, registry.ErrNotRegistered) && !errors.Is(err, registry.ErrMalformed) {
				return messengerError(err)
			}
			if !has && !registered {
				return a.notFound(to)
			}
			if !has {
				// Registered by a writer that did not make the inbox.
				if err := m.tr.Create(ctx, to); err != nil {
					return messengerError(err)
				}
			}
			warning := ""
			if !registered || !e.Alive {
				why := "it is not registered yet"
				if registered {
					why = "its process is gone or its heartbeat is stale"
				}
				if requireLive {
					return &cliError{msg: fmt.Sprintf("not_active: %s is not running (%s); nothing sent (drop --require-live to leave the message in its inbox)", to, why), err: errNotActive}
				}
				warning = fmt.Sprintf("%s is not running (%s); the message waits in its inbox", to, why)
			}
			if err := m.tr.Send(ctx, msg); err != nil {
				return messengerError(err)
			}
			// Said only once the message is in the inbox: a refused send
			// (too large, a full disk) is its error alone.
			if warning != "" {
				if a.json {
					if err := a.emit(map[string]any{"warning": "not_active", "agent": to, "message": warning}); err != nil {
						return err
					}
				} else {
					a.warnf("not_active: %s", warning)
				}
			}
			if a.json {
				return emitMessage(a, msg)
			}
			a.printf("sent %s to %s\n", msg.ID, to)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&from, "from", "", "the sender's name (need not be registered)")
	f.StringVar(&to, "to", "", "the recipient's name")
	f.StringVar(&typ, "type", inbox.TypeText, "the message type")
	f.StringVar(&replyTo, "reply-to", "", "the id of the message this one answers")
	f.BoolVar(&requireLive, "require-live", false, "fail (not_active) instead of delivering to an agent that is not running")
	return cmd
}

// errNotActive is the cause of a not_active error.
var errNotActive = errors.New("not_active")

// messageText is TEXT, or standard input for "-" or no argument.
func messageText(ctx context.Context, a *factory, args []string) (string, error) {
	if len(args) == 1 && args[0] != "-" {
		if args[0] == "" {
			return "", usagef("nothing to send: the text is empty")
		}
		if !utf8.ValidString(args[0]) {
			return "", errNotText("the text")
		}
		return args[0], nil
	}
	b, err := a.readStdin(ctx, "the message", inbox.MaxMessageBytes)
	if errors.Is(err, errInterrupted) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("read the message from standard input: %w", err)
	}
	if len(b) > inbox.MaxMessageBytes {
		return "", messengerError(fmt.Errorf("%w: standard input is over %d bytes", inbox.ErrTooLarge, inbox.MaxMessageBytes))
	}
	text := string(b)
	if strings.TrimSpace(text) == "" {
		return "", usagef("nothing to send: standard input is empty (pass TEXT or pipe it in)")
	}
	if !utf8.ValidString(text) {
		return "", errNotText("standard input")
	}
	return text, nil
}

// errNotText refuses bytes that are not UTF-8: a message's text is JSON
// text, and encoding would silently replace every invalid byte with U+FFFD,
// so what arrived would not be what was sent.
func errNotText(what string) error {
	return &cliError{msg: fmt.Sprintf("%s is not UTF-8 text; nothing sent (send text, or put the content in a file and send its path)", what), err: inbox.ErrMalformed}
}

// emitMessage prints a message's wire form as one JSON line.
func emitMessage(a *factory, m *inbox.Message) error {
	b, err := m.Encode()
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(append(b, '\n'))
	return err
}

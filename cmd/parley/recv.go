package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/registry"
)

// newRecvCmd is "parley recv --as NAME [--wait DUR] [--all]": claim, print,
// acknowledge.
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
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if wait < 0 {
				return usagef("--wait %v: give a duration of zero or more (e.g. 30s)", wait)
			}
			return a.listen(cmd.Context(), "recv", as, nil, func(r inbox.Receiver) error {
				ctx := cmd.Context()
				n := 0
				for {
					// The first message may be waited for; the rest are polled.
					wctx, cancel := context.WithCancel(ctx)
					if n > 0 || wait <= 0 {
						cancel()
					} else {
						wctx, cancel = context.WithTimeout(ctx, wait)
					}
					d, err := r.Receive(wctx)
					cancel()
					if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
						if ctx.Err() != nil && n == 0 {
							return messengerError(ctx.Err())
						}
						break
					}
					if err != nil {
						return messengerError(err)
					}
					if err := printMessage(a, d.Message); err != nil {
						return err
					}
					if err := r.Ack(ctx, d); err != nil {
						return messengerError(err)
					}
					n++
					if !all {
						break
					}
				}
				if n == 0 && !a.json {
					fmt.Fprintf(a.stderr, "parley: no messages for %s\n", as)
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&as, "as", "", "the agent whose inbox to read")
	f.DurationVar(&wait, "wait", 0, "wait up to this long for a message (e.g. 30s)")
	f.BoolVar(&all, "all", false, "take every waiting message, not just one")
	return cmd
}

// newWatchCmd is "parley watch --as NAME [--no-register]": stream
// messages as they arrive, registered as NAME while it runs.
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
			ctx := cmd.Context()
			register := func(m *messenger) (func(), error) {
				if noRegister {
					return func() {}, nil
				}
				return a.registerWatcher(ctx, m, as)
			}
			return a.listen(ctx, "watch", as, register, func(r inbox.Receiver) error {
				if !a.json {
					how := "registered as a live agent"
					if noRegister {
						how = "not registered"
					}
					fmt.Fprintf(a.stderr, "parley: watching the inbox of %s, %s (Ctrl-C to stop)\n", as, how)
				}
				for {
					d, err := r.Receive(ctx)
					if ctx.Err() != nil {
						return nil
					}
					if err != nil {
						return messengerError(err)
					}
					if err := printMessage(a, d.Message); err != nil {
						return err
					}
					if err := r.Ack(context.WithoutCancel(ctx), d); err != nil {
						return messengerError(err)
					}
				}
			})
		},
	}
	cmd.Flags().StringVar(&as, "as", "", "the agent whose inbox to watch")
	cmd.Flags().BoolVar(&noRegister, "no-register", false, "only read: do not register NAME as a live agent while watching")
	return cmd
}

// watchSession is the session id a watch registers NAME under. It is the
// same for every watch of NAME, so that a watch that stops and starts again
// is the same holder: the mail that arrived in between stays in its inbox
// (a different session taking the name sets the previous holder's mail
// aside). A second watch of NAME while one runs finds the inbox busy, and
// the running watch's registration is put back as it was.
func watchSession(name string) string { return "parley-watch-" + name }

// registerWatcher registers name for a watch and heartbeats it until the
// returned stop is called, which also unregisters it.
func (a *factory) registerWatcher(ctx context.Context, m *messenger, name string) (stop func(), err error) {
	// Registering makes an inbox; a name nobody knows is still not_found,
	// as for recv (a typo must not make an agent).
	has, err := m.tr.Exists(ctx, name)
	if err != nil {
		return nil, messengerError(err)
	}
	if !has {
		if _, err := m.reg.Get(ctx, name); errors.Is(err, registry.ErrNotRegistered) {
			return nil, a.notFound(name)
		}
	}
	sid := watchSession(name)
	res, err := m.reg.Register(ctx, registry.Registration{Name: name, SessionID: sid, Roles: []string{"watcher"}, Model: "parley watch"})
	if err != nil {
		if errors.Is(err, registry.ErrNameTaken) {
			return nil, &cliError{msg: fmt.Sprintf("%v: another live agent is called %s (see parley agents list; --no-register only reads)", err, name), err: err}
		}
		return nil, messengerError(err)
	}
	if res.MovedAside > 0 {
		a.warnf("%d unclaimed message(s) of the previous holder of %s were set aside in %s/%s", res.MovedAside, name, m.inboxLocation(name), inbox.AsideDir)
	}
	beatCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := registry.Beat(beatCtx, a.heartbeatEvery(), func(ctx context.Context) error { return m.reg.Heartbeat(ctx, name, sid) }, a.logger()); err != nil {
			a.warnf("%s is no longer registered (%v); still watching its inbox", name, err)
		}
	}()
	return func() {
		cancel()
		<-done
		if err := m.reg.Unregister(context.WithoutCancel(ctx), name, sid); err != nil && !errors.Is(err, registry.ErrNotRegistered) && !errors.Is(err, registry.ErrNotOwner) {
			a.warnf("could not unregister %s: %v", name, err)
		}
	}, nil
}

// listen checks the --as NAME of command (recv, watch), then runs fn with
// the inbox of NAME open for receiving; the receiver and the messenger are
// closed after. before, when not nil, runs first (watch registers NAME
// there: a registration takes the inbox's lock, so it must come before
// the receiver does), and the function it returns runs last.
func (a *factory) listen(ctx context.Context, command, as string, before func(m *messenger) (func(), error), fn func(r inbox.Receiver) error) error {
	if as == "" {
		return usagef("%s needs --as NAME (see parley %s --help)", command, command)
	}
	if err := validName("--as", as); err != nil {
		return err
	}
	return a.withMessenger(func(m *messenger) error {
		if before != nil {
			after, err := before(m)
			if err != nil {
				return err
			}
			defer after()
		}
		r, err := m.tr.Listen(ctx, as)
		if errors.Is(err, inbox.ErrNotFound) {
			return a.notFound(as)
		}
		if err != nil {
			return messengerError(err)
		}
		defer r.Close()
		return fn(r)
	})
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

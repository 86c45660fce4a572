package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// messenger is the messenger config.json selects, opened through the
// service layer: the file messenger of the --root directory (the default)
// or a NATS JetStream server. Commands open it, use it and close it.
type messenger struct {
	app.Backend
	tr  inbox.Transport
	reg app.Registry
}

// registrar is the registry every backend offers.
type registrar = app.Registry

// inboxLocation says where agent's inbox is: its directory, or the NATS
// subject on the server.
func (m *messenger) inboxLocation(agent string) string { return m.Location(agent) }

// openMessenger opens (creating if needed) the messenger with the settings
// of config.json. A server that does not answer is waited for with one
// line saying so; Ctrl-C stops the wait.
func (a *factory) openMessenger() (*messenger, error) {
	sctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := a.service().Messenger(sctx)
	if err != nil {
		if sctx.Err() != nil {
			return nil, &cliError{msg: "interrupted while waiting for the NATS server", err: context.Canceled}
		}
		return nil, messengerError(err)
	}
	return &messenger{Backend: b, tr: b.Transport(), reg: b.Registry()}, nil
}

// cliError is an error whose message already says what to do.
type cliError struct {
	msg string
	err error
}

func (e *cliError) Error() string { return e.msg }
func (e *cliError) Unwrap() error { return e.err }

// validName checks a name from the command line; the error says
// invalid_name and what a name may be.
func validName(flag, name string) error {
	if err := inbox.ValidateName(name); err != nil {
		return &cliError{msg: fmt.Sprintf("%s: %v", flag, err), err: err}
	}
	return nil
}

func (a *factory) notFound(name string) error {
	return &cliError{
		msg: fmt.Sprintf("not_found: no agent %q (no inbox, no registration); check the name with: %s; or create its inbox with: %s", name, a.cmdLine("agents", "list"), a.cmdLine("agents", "add", name)),
		err: inbox.ErrNotFound,
	}
}

// messengerError turns the messenger's errors into one line that says what
// to do.
func messengerError(err error) error {
	var ce *cliError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return err
	case errors.Is(err, inbox.ErrBusy):
		return &cliError{msg: fmt.Sprintf("%v; stop the other receiver (a 'parley watch' or a running agent) and try again", err), err: err}
	case errors.Is(err, inbox.ErrUnsafePath), errors.Is(err, registry.ErrUnsafePath):
		return &cliError{msg: fmt.Sprintf("%v; parley never follows it: remove it and run 'parley init'", err), err: err}
	case errors.Is(err, inbox.ErrTooLarge):
		return &cliError{msg: fmt.Sprintf("%v; send a shorter text or put the content in a file and send its path", err), err: err}
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return &cliError{msg: fmt.Sprintf("%v; nothing was delivered: free disk space and try again", err), err: err}
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EROFS):
		return &cliError{msg: fmt.Sprintf("%v; nothing was delivered: check the permissions of %s", err, "the messenger root"), err: err}
	case errors.Is(err, jetstream.ErrAuth):
		return &cliError{msg: fmt.Sprintf("%v (the credentials file is set by \"nats\".\"credentials\" in config.json, relative to --root)", err), err: err}
	case errors.Is(err, jetstream.ErrUnavailable):
		return &cliError{msg: fmt.Sprintf("%v; check \"nats\".\"url\" in config.json and that nats-server runs with JetStream (-js)", err), err: err}
	case errors.Is(err, jetstream.ErrIncompatible):
		return &cliError{msg: fmt.Sprintf("%v; see docs/messenger.md, \"The JetStream transport\"", err), err: err}
	case errors.Is(err, jetstream.ErrLockLost):
		return &cliError{msg: fmt.Sprintf("%v; another receiver took the inbox while the NATS server was out of reach: stop one of them", err), err: err}
	case errors.Is(err, context.Canceled):
		return &cliError{msg: "interrupted", err: errInterrupted}
	}
	return err
}

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// messenger is the file messenger of the --root directory: the inboxes and
// the registry. Commands open it, use it and close it.
type messenger struct {
	tr  *inbox.FileTransport
	reg *registry.Registry
}

func (m *messenger) Close() {
	m.reg.Close()
	m.tr.Close()
}

// openMessenger opens (creating if needed) the messenger under --root with
// the settings of config.json.
func (a *app) openMessenger() (*messenger, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	log := a.logger()
	topts := []inbox.FileOption{inbox.WithLogger(log)}
	if ms := cfg.Messenger.ReconcileMs; ms > 0 {
		topts = append(topts, inbox.WithReconcile(time.Duration(ms)*time.Millisecond))
	}
	tr, err := inbox.NewFileTransport(a.rootDir(), topts...)
	if err != nil {
		return nil, messengerError(err)
	}
	ropts := []registry.Option{registry.WithLogger(log)}
	if ms := cfg.Messenger.HeartbeatTTLMs; ms > 0 {
		ropts = append(ropts, registry.WithTTL(time.Duration(ms)*time.Millisecond))
	}
	reg, err := registry.Open(a.rootDir(), tr, ropts...)
	if err != nil {
		tr.Close()
		return nil, messengerError(err)
	}
	return &messenger{tr: tr, reg: reg}, nil
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

func notFound(name string) error {
	return &cliError{
		msg: fmt.Sprintf("not_found: no agent %q (no inbox, no registration); check the name with 'parley agents list', or create its inbox with 'parley agents add %s'", name, name),
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
	case errors.Is(err, context.Canceled):
		return &cliError{msg: "interrupted", err: err}
	}
	return err
}

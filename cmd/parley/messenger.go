package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// messenger is the messenger config.json selects: the file messenger of the
// --root directory (the default) or a NATS JetStream server. Commands open
// it, use it and close it.
type messenger struct {
	tr  inbox.Transport
	reg registrar
	// files and fileReg are set over the file transport only (gc, paths).
	files   *inbox.FileTransport
	fileReg *registry.Registry
	// nats is set over the NATS transport only.
	nats    *jetstream.Conn
	natsURL string
}

// registrar is what the commands, the agents and the coordinator need of
// an agent registry. *registry.Registry (files) and *jetstream.Registry
// (NATS) implement it.
type registrar interface {
	Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error)
	Get(ctx context.Context, name string) (*registry.Entry, error)
	Alive(ctx context.Context, name string) (bool, error)
	Heartbeat(ctx context.Context, name, sessionID string) error
	Unregister(ctx context.Context, name, sessionID string) error
	List(ctx context.Context) ([]registry.Entry, error)
	Prune(ctx context.Context) ([]string, error)
	Host() string
}

var (
	_ registrar = (*registry.Registry)(nil)
	_ registrar = (*jetstream.Registry)(nil)
)

// inboxCounter is implemented by transports that count an inbox's
// messages: waiting, acknowledged (kept for audit) and quarantined.
type inboxCounter interface {
	Count(ctx context.Context, agent string) (waiting, acked, bad int, err error)
}

var (
	_ inboxCounter = (*inbox.FileTransport)(nil)
	_ inboxCounter = (*jetstream.Transport)(nil)
)

func (m *messenger) Close() {
	if m.fileReg != nil {
		m.fileReg.Close()
	}
	if m.files != nil {
		m.files.Close()
	}
	if m.nats != nil {
		m.nats.Close()
	}
}

// inboxLocation says where agent's inbox is: its directory, or the NATS
// subject on the server.
func (m *messenger) inboxLocation(agent string) string {
	if m.files != nil {
		return filepath.Join(m.files.Dir(), inbox.InboxDir, agent)
	}
	return jetstream.InboxSubject(agent) + " on " + m.natsURL
}

// connectTimeout bounds connecting to a NATS server.
const connectTimeout = 10 * time.Second

// openMessenger opens (creating if needed) the messenger with the settings
// of config.json: the file messenger under --root, or, with "transport":
// "nats", the NATS JetStream server of the "nats" section.
func (a *app) openMessenger() (*messenger, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	log := a.logger()
	ttl := time.Duration(cfg.Messenger.HeartbeatTTLMs) * time.Millisecond
	if cfg.UseNATS() {
		// A server that does not answer is waited for, as long as every
		// later operation waits for it (nats.retryMs, default
		// jetstream.DefaultRetry), with one line saying so; Ctrl-C stops
		// the wait.
		retry := jetstream.DefaultRetry
		if cfg.NATS.RetryMs > 0 {
			retry = time.Duration(cfg.NATS.RetryMs) * time.Millisecond
		}
		sctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		ctx, cancel := context.WithTimeout(sctx, retry+connectTimeout)
		defer cancel()
		c, err := jetstream.Connect(ctx, jetstream.Config{
			URL: cfg.NATS.URL, Credentials: cfg.NATS.Credentials, Replicas: cfg.NATS.Replicas,
			Name: "parley", Logger: log, Retry: retry,
			Waiting: func(err error, window time.Duration) {
				a.warnf("the NATS server does not answer (%v); retrying for up to %v (Ctrl-C to stop)", err, window)
			},
		})
		if err != nil {
			if sctx.Err() != nil {
				return nil, &cliError{msg: "interrupted while waiting for the NATS server", err: context.Canceled}
			}
			return nil, messengerError(err)
		}
		url := cfg.NATS.URL
		if url == "" {
			url = jetstream.DefaultURL
		}
		reg := jetstream.NewRegistry(c, c.Transport(), jetstream.WithTTL(ttl))
		return &messenger{tr: c.Transport(), reg: reg, nats: c, natsURL: url}, nil
	}
	topts := []inbox.FileOption{inbox.WithLogger(log)}
	if ms := cfg.Messenger.ReconcileMs; ms > 0 {
		topts = append(topts, inbox.WithReconcile(time.Duration(ms)*time.Millisecond))
	}
	tr, err := inbox.NewFileTransport(a.rootDir(), topts...)
	if err != nil {
		return nil, messengerError(err)
	}
	reg, err := registry.Open(a.rootDir(), tr, registry.WithLogger(log), registry.WithTTL(ttl))
	if err != nil {
		tr.Close()
		return nil, messengerError(err)
	}
	return &messenger{tr: tr, reg: reg, files: tr, fileReg: reg}, nil
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

func (a *app) notFound(name string) error {
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

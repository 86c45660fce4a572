package mcpserver

import (
	"context"
	"log/slog"
	"time"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/gating"
)

// AppOptions are what FromApp takes besides the service layer.
type AppOptions struct {
	// Untrusted is set for clients over HTTP without --trusted (see
	// Config.Untrusted and AppStarter).
	Untrusted bool
	// HTTP is set when the server serves HTTP: a client can then vanish
	// without a word, so its participants leave after the registration
	// TTL without a tool call and its session after SessionTimeout.
	HTTP           bool
	SessionTimeout time.Duration
	AllowedOrigins []string
	Logger         *slog.Logger
}

// FromApp is a server over the root of a, with b its messenger: the
// root's debates, its consensus store and its gate (the learnt model when
// there is one, loaded for each gate call); debate_start starts debates
// through a (AppStarter), each in a process of its own that signs its
// seal, so the server only reads debates. A vault that was named and does
// not exist, or a default one gone after a debate filed its record there,
// is an error wrapping app.ErrNoVault (app.ReadConsensus), and is not made.
// close closes the server and what FromApp opened (not b).
func FromApp(a *app.App, b app.Backend, o AppOptions) (srv *Server, close func(), err error) {
	store, err := a.OpenDebates() // read only: each debate runs (and signs) in a process of its own
	if err != nil {
		return nil, nil, err
	}
	// The server answers questions from the vault and files nothing: a
	// vault that is not there is an error (app.ErrNoVault), as it is for
	// "parley consensus check", rather than made empty to answer "none".
	cs, err := a.ReadConsensus()
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	cfg, err := a.Config()
	if err == nil {
		c := Config{
			Transport: b.Transport(), Registry: b.Registry(), Consensus: cs.Store(), Transcripts: store, Root: a.Root(),
			LoadGate:  func(mode string) (*gating.Gate, error) { return a.LoadGate(context.Background(), mode, "") },
			Starter:   AppStarter(a, o.Untrusted),
			Heartbeat: a.HeartbeatEvery(), Logger: o.Logger, Untrusted: o.Untrusted, SealKey: cfg.SealPublicKey(),
			CommandLine: a.CommandLineElsewhere, // the client's agent runs it in a shell of its own
		}
		if o.HTTP {
			c.ParticipantIdle = a.RegistrationTTL()
			c.SessionTimeout, c.AllowedOrigins = o.SessionTimeout, o.AllowedOrigins
		}
		srv, err = New(c)
	}
	if err != nil {
		cs.Close()
		store.Close()
		return nil, nil, err
	}
	return srv, func() { srv.Close(); cs.Close(); store.Close() }, nil
}

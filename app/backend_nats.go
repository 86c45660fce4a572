package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

func init() { RegisterBackend(config.TransportNATS, openNATS) }

// connectTimeout bounds connecting to a NATS server, beyond the retry
// window.
const connectTimeout = 10 * time.Second

// natsBackend is the messenger over a NATS JetStream server.
type natsBackend struct {
	c   *jetstream.Conn
	reg *jetstream.Registry
	url string // the server, as shown (jetstream.Redact)
}

// openNATS connects to the server of the "nats" section. A server that
// does not answer is waited for as long as every later operation waits
// for it (nats.retryMs, default jetstream.DefaultRetry), and the App's
// Notify is told once; cancelling ctx stops the wait.
func openNATS(ctx context.Context, a *App, cfg *config.Config) (Backend, error) {
	ttl := cfg.Messenger.HeartbeatTTL()
	retry := jetstream.DefaultRetry
	if d := cfg.NATS.Retry(); d > 0 {
		retry = d
	}
	url := cfg.NATS.URL
	if url == "" {
		url = jetstream.DefaultURL
	}
	url = jetstream.Redact(url) // shown in views: never its password
	ctx, cancel := context.WithTimeout(ctx, retry+connectTimeout)
	defer cancel()
	c, err := jetstream.Connect(ctx, jetstream.Config{
		URL: cfg.NATS.URL, Credentials: cfg.NATS.Credentials, Replicas: cfg.NATS.Replicas,
		Name: "parley", Logger: a.log, Retry: retry,
		Waiting: func(err error, window time.Duration) {
			a.notify(Notice{Kind: NoticeWaiting, Server: url, Err: err, Window: window})
		},
	})
	if err != nil && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, newError(ProblemInterrupted, "", context.Canceled, "interrupted while waiting for the NATS server %s", url)
	}
	if err != nil {
		return nil, err
	}
	reg := jetstream.NewRegistry(c, c.Transport(), jetstream.WithTTL(ttl))
	return &natsBackend{c: c, reg: reg, url: url}, nil
}

func (n *natsBackend) Transport() inbox.Transport { return n.c.Transport() }
func (n *natsBackend) Registry() Registry         { return n.reg }

func (n *natsBackend) Location(agent string) string {
	return jetstream.InboxSubject(agent) + " on " + n.url
}

func (n *natsBackend) RegistryLocation() string {
	return "the key-value bucket " + jetstream.RegistryBucket + " on " + n.url
}

func (n *natsBackend) Close() { n.c.Close() }

func (n *natsBackend) Count(ctx context.Context, agent string) (InboxCount, error) {
	w, a, b, err := n.c.Transport().Count(ctx, agent)
	if err != nil {
		return InboxCount{}, err
	}
	aside, err := n.c.Transport().AsideTotal(ctx, agent)
	return InboxCount{Waiting: w, Acked: a, Bad: b, Aside: aside,
		Summary: fmt.Sprintf("%d waiting, %d dead-lettered (%s)", w, b, jetstream.DeadSubject(agent)) +
			asideSummary(aside, jetstream.AsideSubjects(agent))}, err
}

var (
	_ Counter           = (*natsBackend)(nil)
	_ registry.Restorer = (*jetstream.Registry)(nil)
)

package jetstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/sleep"
)

// What parley keeps on the server: one stream for the messages and two
// key-value buckets.
const (
	// StreamName is the work-queue stream that holds every waiting message.
	StreamName = "PARLEY"
	// RegistryBucket holds one registration per agent, keyed by name.
	RegistryBucket = "PARLEY_REGISTRY"
	// InboxBucket holds the inbox markers (box.<Name>: the inbox exists,
	// and its owner session) and the receivers' holds (lock.<Name>, with a
	// per-key TTL).
	InboxBucket = "PARLEY_INBOXES"
)

// Subjects of the stream.
const (
	inboxPrefix = "parley.inbox."
	deadPrefix  = "parley.dead."
	asidePrefix = "parley.aside."
)

// InboxSubject is the subject of agent's waiting messages.
func InboxSubject(agent string) string { return inboxPrefix + agent }

// DeadSubject is the dead-letter subject of agent's inbox: messages that
// could not be decoded, each with a Parley-Reason header.
func DeadSubject(agent string) string { return deadPrefix + agent }

// AsideSubject is where the unclaimed messages of agent's previous holder
// session go when a new session takes the name.
func AsideSubject(agent, session string) string {
	return asidePrefix + agent + "." + inbox.AsideName(session)
}

// AsideSubjects matches every subject where agent's earlier holders'
// mail was set aside (AsideSubject of each session).
func AsideSubjects(agent string) string { return asidePrefix + agent + ".*" }

// Headers parley sets on the messages it moves.
const (
	// HeaderReason says why a message was dead-lettered.
	HeaderReason = "Parley-Reason"
	// HeaderInbox names the inbox a moved message was taken from.
	HeaderInbox = "Parley-Inbox"
	// HeaderSeq is the stream sequence a moved message had in its inbox.
	HeaderSeq = "Parley-Seq"
	// HeaderSession names the session whose mail was moved aside.
	HeaderSession = "Parley-Session"
)

// Defaults.
const (
	// DefaultURL is the server parley connects to when none is configured.
	DefaultURL = "nats://127.0.0.1:4222"
	// DefaultLockTTL is how long a receiver's hold on an inbox outlives a
	// receiver that stopped renewing it (a crashed process on another
	// host; one on this host is seen dead at once by its PID).
	DefaultLockTTL = 30 * time.Second
	// DefaultAckWait is the consumers' AckWait: how long a delivered,
	// unacknowledged message waits before the server delivers it again.
	DefaultAckWait = 30 * time.Second
	// DefaultInactive is how long the server keeps an inbox's consumer
	// that nobody pulls from and that has no delivery awaiting its ack
	// (counted from the end of that delivery's AckWait): the consumer of a
	// receiver that died without closing (killed, or its machine lost) is
	// then removed by the server, so that such consumers never add up to
	// the server's limit of consumers per stream. A receiver waiting in
	// Receive pulls and is never inactive; one that was removed under a
	// receiver (busy for longer than this between two Receives) is made
	// again by its next Receive.
	DefaultInactive = time.Hour
	// DefaultRetry bounds how long Send, Ack and Create retry while the
	// server cannot be reached (a restart, a lost connection).
	DefaultRetry = 30 * time.Second
	// DuplicateWindow is the stream's duplicate window: a Send retried
	// within it with the same id is stored once.
	DuplicateWindow = 2 * time.Minute
	// headerRoom is what a message may carry besides its JSON body.
	headerRoom = 4 << 10
)

// Config says how to reach the server.
type Config struct {
	// URL is the server (or a comma-separated list of cluster servers);
	// default DefaultURL.
	URL string
	// Credentials is the path of a NATS credentials file (JWT and NKey
	// seed), when the server requires one.
	Credentials string
	// Replicas is the replication factor of the stream and buckets parley
	// creates (default 1; 3 in a three-node cluster).
	Replicas int
	// Name is the connection's name shown by the server's monitoring
	// (default "parley").
	Name string
	// Logger receives the transport's logs (default: discard).
	Logger *slog.Logger
	// LockTTL overrides DefaultLockTTL (at least one second).
	LockTTL time.Duration
	// AckWait overrides DefaultAckWait.
	AckWait time.Duration
	// Inactive overrides DefaultInactive.
	Inactive time.Duration
	// Retry overrides DefaultRetry. It also bounds how long Connect keeps
	// trying a server that does not answer (one being restarted).
	Retry time.Duration
	// Waiting, when set, is called once when the first attempt to connect
	// finds no server, before Connect retries for up to Retry: a caller
	// that talks to a person says it is waiting. It gets the error and how
	// long Connect will keep trying.
	Waiting func(err error, window time.Duration)
}

// Conn is a connection to a NATS server with JetStream, and the stream and
// buckets parley keeps there. Transport and NewRegistry use it. A Conn is
// safe for concurrent use; Close releases it and every receiver opened on it.
type Conn struct {
	cfg    Config
	log    *slog.Logger
	nc     *nats.Conn
	js     njs.JetStream
	stream njs.Stream
	boxes  njs.KeyValue
	regs   njs.KeyValue
	host   string
	tr     *Transport

	mu          sync.Mutex
	receivers   map[*receiver]struct{} // guarded by mu
	closed      bool                   // guarded by mu
	reconnected chan struct{}          // closed at the next reconnection; guarded by mu
}

// Connect connects to the server of cfg and makes sure parley's stream and
// buckets exist (creating them when missing; an existing one whose
// configuration parley cannot use is ErrIncompatible). A server that cannot
// be reached is ErrUnavailable.
func Connect(ctx context.Context, cfg Config) (*Conn, error) {
	if cfg.URL == "" {
		cfg.URL = DefaultURL
	}
	if cfg.Name == "" {
		cfg.Name = "parley"
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.LockTTL <= 0 {
		cfg.LockTTL = DefaultLockTTL
	}
	cfg.LockTTL = max(cfg.LockTTL, time.Second)
	if cfg.AckWait <= 0 {
		cfg.AckWait = DefaultAckWait
	}
	if cfg.Retry <= 0 {
		cfg.Retry = DefaultRetry
	}
	if cfg.Inactive <= 0 {
		cfg.Inactive = DefaultInactive
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	host, _ := os.Hostname()
	c := &Conn{cfg: cfg, log: log, host: host, receivers: make(map[*receiver]struct{}), reconnected: make(chan struct{})}
	opts := []nats.Option{
		nats.Name(cfg.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("disconnected from the NATS server; reconnecting", "op", "connect", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			log.Info("reconnected to the NATS server", "op", "connect", "url", nc.ConnectedUrlRedacted())
			c.mu.Lock()
			close(c.reconnected)
			c.reconnected = make(chan struct{})
			c.mu.Unlock()
		}),
	}
	if cfg.Credentials != "" {
		if err := checkCredentials(cfg.Credentials); err != nil {
			return nil, err
		}
		opts = append(opts, nats.UserCredentials(cfg.Credentials))
	}
	nc, err := dial(ctx, cfg, opts)
	if err != nil {
		return nil, err
	}
	c.nc = nc
	if c.js, err = njs.New(nc); err != nil {
		nc.Close()
		return nil, err
	}
	if err := c.setup(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	c.tr = &Transport{c: c}
	return c, nil
}

// dial connects to the server, retrying for up to cfg.Retry (or until ctx
// ends) while none answers, as every later operation retries a lost
// connection: a command started while the server restarts waits for it.
// A refused authentication is not retried.
func dial(ctx context.Context, cfg Config, opts []nats.Option) (*nats.Conn, error) {
	deadline := time.Now().Add(cfg.Retry)
	wait := 100 * time.Millisecond
	for first := true; ; first = false {
		o := opts
		if dl, ok := ctx.Deadline(); ok {
			o = append(o[:len(o):len(o)], nats.Timeout(max(time.Until(dl), 100*time.Millisecond)))
		}
		nc, err := nats.Connect(cfg.URL, o...)
		if err == nil {
			return nc, nil
		}
		if aerr := authError(cfg, err); aerr != nil {
			return nil, aerr
		}
		left := time.Until(deadline)
		if left <= 0 || ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %s: %v (tried for %v)", ErrUnavailable, Redact(cfg.URL), err, cfg.Retry)
		}
		if first && cfg.Waiting != nil {
			cfg.Waiting(err, cfg.Retry)
		}
		t := time.NewTimer(min(wait, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w: %s: %v", ErrUnavailable, Redact(cfg.URL), err)
		case <-t.C:
		}
		wait = min(wait*2, 2*time.Second)
	}
}

// Redact hides the user information (a user name, a password, a token)
// of a server URL, or of a comma-separated list of them, so that the URL
// can be shown: every message and view that names the server shows it
// through Redact.
func Redact(urls string) string {
	parts := strings.Split(urls, ",")
	for i, u := range parts {
		at := strings.LastIndex(u, "@")
		scheme := strings.Index(u, "://")
		if at >= 0 && scheme >= 0 && scheme+3 < at {
			parts[i] = u[:scheme+3] + "…" + u[at:]
		}
	}
	return strings.Join(parts, ",")
}

// StreamConfig is the configuration parley gives its stream.
func StreamConfig(replicas int) njs.StreamConfig {
	return njs.StreamConfig{
		Name:        StreamName,
		Description: "parley: agent inboxes (parley.inbox.<Name>), dead letters and mail set aside",
		Subjects:    []string{inboxPrefix + "*", deadPrefix + "*", asidePrefix + "*.*"},
		Retention:   njs.WorkQueuePolicy,
		Storage:     njs.FileStorage,
		Replicas:    max(replicas, 1),
		Duplicates:  DuplicateWindow,
		MaxMsgSize:  inbox.MaxMessageBytes + headerRoom,
		Discard:     njs.DiscardNew,
		AllowDirect: true,
	}
}

// storeFailedCode is JetStream's "error creating store for stream": the
// server could not set up the stream's files. It removes what it made and
// logs the cause, which its client never sees; a moment later the same
// request may succeed.
const storeFailedCode njs.ErrorCode = 10049

// replicasNotSupportedCode is the server's "replicas > 1 not supported in
// non-clustered mode": more replicas asked of a single server.
const replicasNotSupportedCode njs.ErrorCode = 10074

// createStream creates parley's stream, or returns the one another process
// created meanwhile. A store failure is tried again twice, 200 ms apart.
func (c *Conn) createStream(ctx context.Context, want njs.StreamConfig) (njs.Stream, error) {
	for try := 0; ; try++ {
		s, err := c.js.CreateStream(ctx, want)
		if errors.Is(err, njs.ErrStreamNameAlreadyInUse) { // created meanwhile by another process
			return c.js.Stream(ctx, StreamName)
		}
		var apiErr *njs.APIError
		if try == 2 || !errors.As(err, &apiErr) || apiErr.ErrorCode != storeFailedCode {
			return s, err
		}
		if err := sleep.For(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

func (c *Conn) setup(ctx context.Context) error {
	want := StreamConfig(c.cfg.Replicas)
	s, err := c.js.Stream(ctx, StreamName)
	if errors.Is(err, njs.ErrStreamNotFound) {
		s, err = c.createStream(ctx, want)
	}
	if err != nil {
		return c.setupError("stream "+StreamName, err)
	}
	got := s.CachedInfo().Config
	for _, subj := range want.Subjects {
		if !slices.Contains(got.Subjects, subj) {
			return fmt.Errorf("%w: stream %s does not hold the subjects %v (it has %v)", ErrIncompatible, StreamName, want.Subjects, got.Subjects)
		}
	}
	if got.Retention != njs.WorkQueuePolicy {
		return fmt.Errorf("%w: stream %s has %v retention; parley needs a work queue", ErrIncompatible, StreamName, got.Retention)
	}
	if got.Replicas < want.Replicas {
		// Made with fewer replicas than the configuration now asks: using it
		// as it is would keep fewer copies of every message than promised.
		// The buckets were made with the stream, so they are raised too. A
		// single server cannot raise them: there, the setting is the fault.
		if c.nc.ConnectedClusterName() == "" {
			return c.singleServerError("stream "+StreamName, nil)
		}
		return fmt.Errorf("%w: stream %s keeps %d replica(s), %d asked (\"nats\".\"replicas\"): raise it on the cluster with "+
			"'nats stream edit %s --replicas %d' and the same for the streams KV_%s and KV_%s (while no agent runs), or set \"replicas\" to %d",
			ErrIncompatible, StreamName, max(got.Replicas, 1), want.Replicas, StreamName, want.Replicas, RegistryBucket, InboxBucket, max(got.Replicas, 1))
	}
	c.stream = s
	if c.regs, err = c.bucket(ctx, njs.KeyValueConfig{
		Bucket:      RegistryBucket,
		Description: "parley: agent registrations",
		History:     1,
		Storage:     njs.FileStorage,
		Replicas:    c.cfg.Replicas,
	}); err != nil {
		return err
	}
	if c.boxes, err = c.bucket(ctx, njs.KeyValueConfig{
		Bucket:         InboxBucket,
		Description:    "parley: inbox markers and receiver holds",
		History:        1,
		Storage:        njs.FileStorage,
		Replicas:       c.cfg.Replicas,
		LimitMarkerTTL: time.Minute,
	}); err != nil {
		return err
	}
	return nil
}

func (c *Conn) bucket(ctx context.Context, cfg njs.KeyValueConfig) (njs.KeyValue, error) {
	kv, err := c.js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, njs.ErrBucketNotFound) {
		kv, err = c.js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, njs.ErrBucketExists) {
			kv, err = c.js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		if errors.Is(err, njs.ErrLimitMarkerTTLNotSupported) {
			return nil, fmt.Errorf("%w: bucket %s needs per-key TTLs (nats-server 2.11 or later)", ErrIncompatible, cfg.Bucket)
		}
		return nil, c.setupError("bucket "+cfg.Bucket, err)
	}
	if cfg.LimitMarkerTTL > 0 {
		st, err := kv.Status(ctx)
		if err != nil {
			return nil, c.setupError("bucket "+cfg.Bucket, err)
		}
		if st.LimitMarkerTTL() <= 0 {
			return nil, fmt.Errorf("%w: bucket %s was created without per-key TTLs (limit marker TTL); delete it with 'nats kv del %s' while no agent runs", ErrIncompatible, cfg.Bucket, cfg.Bucket)
		}
	}
	return kv, nil
}

func (c *Conn) setupError(what string, err error) error {
	if errors.Is(err, njs.ErrJetStreamNotEnabledForAccount) {
		whose := "the account the server puts this connection in"
		if c.cfg.Credentials != "" {
			whose = "the account of the user of credentials file " + c.cfg.Credentials
		}
		return fmt.Errorf("%w: JetStream is not enabled for %s on %s: enable it for that account (JetStream limits in its JWT, e.g. 'nsc edit account --js-disk-storage -1 --js-mem-storage -1') or use credentials of an account that has it: %v", ErrUnavailable, whose, Redact(c.cfg.URL), err)
	}
	if errors.Is(err, njs.ErrJetStreamNotEnabled) || errors.Is(err, nats.ErrNoResponders) {
		return fmt.Errorf("%w: JetStream is not enabled on %s (start nats-server with -js): %v", ErrUnavailable, Redact(c.cfg.URL), err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
		return fmt.Errorf("%w: %s did not answer: %v", ErrUnavailable, Redact(c.cfg.URL), err)
	}
	var apiErr *njs.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == replicasNotSupportedCode {
		return c.singleServerError(what, err)
	}
	return fmt.Errorf("jetstream: %s: %w", what, err)
}

// singleServerError is ErrIncompatible for more replicas asked of what
// (parley's stream or a bucket) than a server that is not in a cluster
// can keep, saying what to set; answer is the server's refusal, or nil.
func (c *Conn) singleServerError(what string, answer error) error {
	err := fmt.Errorf("%w: %s: %d replicas asked (\"nats\".\"replicas\"), but %s is a single server, not a cluster: "+
		"set \"replicas\" to 1 (or leave it out), or point \"url\" at a cluster of at least %d servers",
		ErrIncompatible, what, c.cfg.Replicas, Redact(c.cfg.URL), c.cfg.Replicas)
	if answer != nil {
		err = fmt.Errorf("%w: %v", err, answer)
	}
	return err
}

// Transport returns the inbox transport of this connection.
func (c *Conn) Transport() *Transport { return c.tr }

// Host is the host name written into receiver holds and registrations.
func (c *Conn) Host() string { return c.host }

// reconnects counts the connection's reconnections: a message delivered
// after the count changed may have overtaken one lost in flight.
func (c *Conn) reconnects() uint64 { return c.nc.Stats().Reconnects }

// Close closes every receiver opened on c (their unacknowledged messages stay
// in their inboxes), then the connection. It is idempotent.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	rs := make([]*receiver, 0, len(c.receivers))
	for r := range c.receivers {
		rs = append(rs, r)
	}
	c.mu.Unlock()
	for _, r := range rs {
		r.Close()
	}
	c.nc.Close()
	return nil
}

func (c *Conn) track(r *receiver) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.receivers[r] = struct{}{}
	return true
}

func (c *Conn) untrack(r *receiver) {
	c.mu.Lock()
	delete(c.receivers, r)
	c.mu.Unlock()
}

// connected reports whether the connection is up now. Work done on the
// way out (releasing a hold, removing a consumer) is skipped when it is
// not, rather than waited on for interrupt.Grace.
func (c *Conn) connected() bool { return c.nc.IsConnected() }

// attemptTimeout bounds one attempt of an operation that retry repeats.
const attemptTimeout = 3 * time.Second

// retry runs op until it succeeds, fails for good, ctx is done, or the
// retry budget is spent; transient failures (no server, no answer, JetStream
// not ready yet) are retried with backoff. An attempt is cut short when the
// connection is re-established meanwhile (a request sent while it was down
// may never be answered). Operations must therefore tolerate running twice:
// publishes carry a message id, compare-and-swap writes re-read on a
// conflict.
func (c *Conn) retry(ctx context.Context, op func(ctx context.Context) error) error {
	deadline := time.Now().Add(c.cfg.Retry)
	wait := 50 * time.Millisecond
	for {
		c.mu.Lock()
		reconnected := c.reconnected
		c.mu.Unlock()
		actx, cancel := context.WithTimeout(ctx, attemptTimeout)
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			select {
			case <-reconnected:
				cancel()
			case <-actx.Done():
			}
		}()
		err := op(actx)
		cutShort := actx.Err() != nil // timed out, or a reconnection came
		cancel()
		<-watched
		if err == nil || !(cutShort || transient(err)) || ctx.Err() != nil || time.Now().After(deadline) {
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		c.log.Debug("retrying after a transient failure", "op", "retry", "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, time.Second)
	}
}

// transient reports whether err may go away by itself: the connection is
// being re-established, the server did not answer, JetStream is not
// ready (a restarting server), or a consumer was created while its
// predecessor of the same name was still being removed.
func transient(err error) bool {
	if errors.Is(err, nats.ErrConnectionClosed) || errors.Is(err, nats.ErrBadSubject) || errors.Is(err, nats.ErrMaxPayload) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, njs.ErrNoStreamResponse) || errors.Is(err, nats.ErrDisconnected) || errors.Is(err, nats.ErrConnectionReconnecting) ||
		errors.Is(err, njs.ErrJetStreamNotEnabled) || errors.Is(err, njs.ErrJetStreamNotEnabledForAccount) {
		return true
	}
	var api *njs.APIError
	if errors.As(err, &api) {
		// 500 with JSErrCodeConsumerCreate: the server failed to store a
		// consumer whose namesake, deleted a moment before, was still
		// being removed from disk ("rename …/obs/inbox_Bob/o.dat.tmp: no
		// such file or directory"); the next attempt creates it.
		return api.Code == 503 || api.Code == 408 || api.Code == 500 && api.ErrorCode == njs.JSErrCodeConsumerCreate
	}
	return false
}

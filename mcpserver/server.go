package mcpserver

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// Transport is what the server needs of the messenger's inboxes.
// *inbox.FileTransport satisfies it.
type Transport interface {
	Send(ctx context.Context, m *inbox.Message) error
	Listen(ctx context.Context, agent string) (inbox.Receiver, error)
	Create(ctx context.Context, agent string) error
	Exists(ctx context.Context, agent string) (bool, error)
}

var _ Transport = inbox.Transport(nil)

// Registry is what the server needs of the agent registry.
// *registry.Registry satisfies it.
type Registry interface {
	Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error)
	Heartbeat(ctx context.Context, name, sessionID string) error
	Unregister(ctx context.Context, name, sessionID string) error
	Get(ctx context.Context, name string) (*registry.Entry, error)
}

var _ Registry = (*registry.Registry)(nil)

// Config is what a Server is built from. Transport, Registry, Consensus and
// Transcripts are required; the Server uses them and does not close them.
type Config struct {
	Transport   Transport
	Registry    Registry
	Consensus   *consensus.Store
	Transcripts *transcripts.Store
	// Root is the parley root directory: gate decisions are appended to
	// <Root>/gate.jsonl. Empty: decisions are not logged.
	Root string
	// Gate decides in model mode; nil is gating.Default().
	Gate *gating.Gate
	// LoadGate, when set, is the gate a gate call decides with, loaded for
	// each call as "parley gate" loads it (app.App.LoadGate: the rules, or
	// the root's learnt model): a model installed while the server runs
	// is used from the next call, and a broken one fails the gate tool
	// alone. It overrides Gate.
	LoadGate func(mode string) (*gating.Gate, error)
	// Starter starts debates for debate_start; nil makes debate_start a
	// tool error (ErrUnavailable).
	Starter DebateStarter
	// Heartbeat is how often a joined participant renews its registration
	// (default agent.DefaultHeartbeat).
	Heartbeat time.Duration
	// ParticipantIdle, when positive, is how long a joined participant may
	// go without a tool call naming it (debate_join, debate_next_turn,
	// debate_submit_turn; a debate_next_turn that is waiting counts as a
	// call) before it leaves and unregisters: a client that went away
	// without debate_leave does not stay registered. cmd/parley sets the
	// registration TTL over HTTP.
	ParticipantIdle time.Duration
	// SessionTimeout is how long an HTTP session may go without a request
	// before it is closed and forgotten (default DefaultSessionTimeout;
	// negative: never). A client that drops a session without a DELETE
	// then costs nothing after it, and gets no notifications.
	SessionTimeout time.Duration
	// AllowedOrigins are the Origin headers the HTTP transport serves
	// besides none and a loopback one (http://localhost:PORT,
	// http://127.0.0.1, http://[::1], with any port): each an origin as a
	// browser sends it, "https://app.example.com". Any other Origin is
	// answered 403.
	AllowedOrigins []string
	// Logger logs what happens (nil: discard). Never stdout under stdio.
	Logger *slog.Logger
	// SealKey, when set, is the public key that must have signed every
	// debate's seal (config.json's seal.publicKey): transcript_show and
	// the parley://debates/ID resource check it as "parley transcripts
	// show" does. FromApp sets it.
	SealKey ed25519.PublicKey
	// Untrusted says the clients may not learn about the workspace (MCP
	// over HTTP without --trusted): every evidence check they are shown
	// says only "ok" or "missing" for a file, without a line count.
	Untrusted bool
	// Version is reported to clients as the server's version.
	Version string
	// CommandLine words a parley command that a tool's result suggests,
	// ready to paste: it must act on the server's root and vault from the
	// client's shell, which has not the server's environment
	// (app.App.CommandLineElsewhere, which FromApp sets). nil: "parley
	// ARGS", for a server on the default root.
	CommandLine func(args ...string) string
}

// Server is parley's MCP server. Its tools and resources are safe for
// concurrent use by any number of client sessions; participants that joined
// through it are server-wide, keyed by name. Close leaves every debate
// (each participant unregisters) and waits for the goroutines it started.
type Server struct {
	cfg Config
	log *slog.Logger
	mcp *mcp.Server

	// base is the context of the participants' runners; Close cancels it.
	base   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex // guards parts, gone and closed
	parts  map[string]*participant
	gone   map[string]string // why a participant that left did (at most goneLimit)
	closed bool

	res resourceSet
	// cancels keeps the HTTP transport from answering cancelled calls.
	cancels httpCancels
}

// New builds a Server and registers its tools and resources.
func New(cfg Config) (*Server, error) {
	if cfg.Transport == nil || cfg.Registry == nil || cfg.Consensus == nil || cfg.Transcripts == nil {
		return nil, fmt.Errorf("mcpserver: Config needs Transport, Registry, Consensus and Transcripts")
	}
	if cfg.Gate == nil {
		cfg.Gate = gating.Default()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s := &Server{cfg: cfg, log: log, parts: map[string]*participant{}, gone: map[string]string{}, cancels: httpCancels{log: log, calls: map[httpCall]bool{}}}
	s.base, s.cancel = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "parley", Title: "parley: debates and consensus", Version: version},
		&mcp.ServerOptions{Instructions: instructions, Logger: log, Capabilities: &mcp.ServerCapabilities{}})
	s.addConsensusTools()
	s.addGateTool()
	s.addDebateTools()
	s.addParticipantTools()
	s.addMessageTools()
	s.addResources()
	return s, nil
}

const instructions = "parley runs budgeted debates between agents and files every verdict as a consensus record. " +
	"Before deciding, call consensus_check: status \"conflict\" means the position contradicts a filed consensus " +
	"and must not be taken. To argue in a debate, call debate_join, pass \"@NAME\" as that role's agent to " +
	"debate_start (or join a debate that names you), then loop debate_next_turn / debate_submit_turn " +
	"until debate_next_turn reports the debate closed."

// MCP returns the SDK server, to run on a transport (Run, Connect) or to
// serve over HTTP (see HTTPHandler).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one session on t (stdio, in memory) until the client
// disconnects or ctx ends. It does not Close the Server.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error { return s.mcp.Run(ctx, t) }

// DefaultSessionTimeout is how long an idle HTTP session lives.
const DefaultSessionTimeout = 5 * time.Minute

// HTTPHandler serves the streamable HTTP transport; every session shares
// this Server. The SDK's protection against DNS rebinding stays on; a
// request whose Origin is neither absent, loopback nor allowed
// (Config.AllowedOrigins) is answered 403, as the MCP specification asks
// of the HTTP transport; an idle session expires (Config.SessionTimeout);
// a call the client cancelled before it was answered is not answered (its
// POST's event stream ends without a response), as over stdio.
func (s *Server) HTTPHandler() http.Handler {
	timeout := s.cfg.SessionTimeout
	switch {
	case timeout == 0:
		timeout = DefaultSessionTimeout
	case timeout < 0:
		timeout = 0
	}
	// A body is bounded as a stdio frame is (MaxFrame), not by the SDK's
	// smaller default: a tool refuses an oversized argument by name.
	// A call the client cancelled is not answered (httpCancels).
	h := s.cancels.wrap(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Logger: s.log, SessionTimeout: timeout, MaxRequestBodyBytes: MaxFrame}))
	allowed := map[string]bool{}
	for _, o := range s.cfg.AllowedOrigins {
		allowed[strings.ToLower(strings.TrimRight(o, "/"))] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !allowed[strings.ToLower(o)] && !LoopbackOrigin(o) {
			s.log.Warn("refused a request from a foreign origin", "op", "http", "origin", o)
			http.Error(w, "forbidden: origin "+strconv.Quote(o)+" is not allowed (parley mcp --allow-origin ORIGIN allows it)", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ValidOrigin reports whether o is an origin as a browser sends it in an
// Origin header (http or https, a host, no path but "/"): the form of
// Config.AllowedOrigins.
func ValidOrigin(o string) bool {
	u, err := url.Parse(o)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && (u.Path == "" || u.Path == "/")
}

// LoopbackOrigin reports whether an Origin header names this machine:
// http or https on localhost, 127.0.0.0/8 or [::1], with any port.
func LoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return false
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
			return false
		}
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Close leaves every debate joined through the server (the participants
// stop listening and unregister; unanswered requests stay in their inboxes)
// and waits for their goroutines. It is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, p := range s.parts {
		p.leave("the MCP server is stopping (parley mcp was stopped); once it serves again, call debate_join again (a request it had not answered waits in its inbox)")
	}
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}

// validName checks an agent name from a tool's arguments as the CLI
// checks a --flag (app.ValidName): "field: invalid_name: …".
func (s *Server) validName(field, name string) error { return s.toolError(app.ValidName(field, name)) }

// waitArg reads a tool's wait_seconds: 0 or more, cut to MaxWait. The cut
// comes before the conversion, which a huge number would overflow.
func waitArg(seconds float64) (time.Duration, error) {
	if math.IsNaN(seconds) || seconds < 0 {
		return 0, invalidf("wait_seconds must be 0 or more (at most %d)", int(MaxWait/time.Second))
	}
	if seconds >= MaxWait.Seconds() {
		return MaxWait, nil
	}
	return time.Duration(seconds * float64(time.Second)), nil
}

// checkSize refuses a text argument over inbox.MaxMessageBytes, the
// messenger's limit, which also bounds the free text of every other tool:
// "query is too long: N bytes, at most M". The argument is no message, so
// it is not inbox.ErrTooLarge.
func checkSize(field, text string) error {
	if len(text) > inbox.MaxMessageBytes {
		return invalidf("%s is too long: %d bytes, at most %d", field, len(text), inbox.MaxMessageBytes)
	}
	return nil
}

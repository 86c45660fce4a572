package web

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/httpserve"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// Config is what a Server reads. Debates, Vault and Consensus are required
// and stay the caller's to close.
type Config struct {
	Debates   *transcripts.Store
	Vault     *vault.Vault
	Consensus *consensus.Store
	// PublicKey, when set, must have signed every debate's seal.
	PublicKey ed25519.PublicKey
	// AllowRemote accepts requests whatever their Host header. Without it
	// only requests addressed to a loopback name (localhost, 127.0.0.1,
	// [::1]) are served, so that a web page elsewhere cannot read these
	// pages through DNS rebinding.
	AllowRemote bool
	// LivePoll is how often a live page's transcript is checked for news
	// (default 250 ms).
	LivePoll time.Duration
	// MaxLive bounds the live streams open at once (default 64); more are
	// refused with 503 and the page still works by reloading.
	MaxLive int
	// MaxConns caps the connections Serve keeps open at once (default
	// httpserve.DefaultMaxConns); more wait in the kernel's backlog.
	MaxConns int
	// Budget is the token budget of a layer's debate, which prices what the
	// gate's skips saved in the index's chart (default: the built-in
	// budgets; parley serve passes config.json's).
	Budget func(debate.Layer) int
	Logger *slog.Logger
}

// Server serves the pages; see the package comment. It is safe for
// concurrent use. Close releases its handle on the vault.
type Server struct {
	debates  *transcripts.Store
	search   *transcripts.Searcher // the debates' search, kept current
	vault    *vault.Vault
	cs       *consensus.Store
	pub      ed25519.PublicKey
	vroot    *os.Root // the vault, for strict page reads
	log      *slog.Logger
	mux      *http.ServeMux
	remote   bool
	poll     time.Duration
	live     chan struct{} // a slot per live stream
	maxConns int
	budget   func(debate.Layer) int

	stopOnce sync.Once
	stopping chan struct{} // closed when Serve's context ends: live streams end
}

var _ http.Handler = (*Server)(nil)

// New makes a Server.
func New(c Config) (*Server, error) {
	if c.Debates == nil || c.Vault == nil || c.Consensus == nil {
		return nil, errors.New("web: a Server needs the debates, the vault and the consensus store")
	}
	vroot, err := os.OpenRoot(c.Vault.Path())
	if err != nil {
		return nil, fmt.Errorf("web: open the vault: %w", err)
	}
	s := &Server{
		debates: c.Debates, search: transcripts.NewSearcher(c.Debates), vault: c.Vault, cs: c.Consensus, pub: c.PublicKey, vroot: vroot, log: c.Logger,
		remote: c.AllowRemote, poll: c.LivePoll, stopping: make(chan struct{}), maxConns: c.MaxConns, budget: c.Budget,
	}
	if s.budget == nil {
		s.budget = func(l debate.Layer) int { return debate.DefaultBudget(l).MaxTokens }
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.poll <= 0 {
		s.poll = 250 * time.Millisecond
	}
	if c.MaxLive <= 0 {
		c.MaxLive = 64
	}
	s.live = make(chan struct{}, c.MaxLive)
	s.routes()
	return s, nil
}

// Close ends the live streams and releases the Server's handle on the
// vault.
func (s *Server) Close() error {
	s.stop()
	return s.vroot.Close()
}

func (s *Server) stop() { s.stopOnce.Do(func() { close(s.stopping) }) }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.handleIndex)
	m.HandleFunc("GET /debates/{id}", s.handleDebate)
	m.HandleFunc("GET /debates/{id}/live", s.handleLive)
	m.HandleFunc("GET /debates/{id}/evidence", s.handleEvidence)
	m.HandleFunc("GET /consensus", s.handleRecords)
	m.HandleFunc("GET /consensus/{name}", s.handleRecord)
	m.HandleFunc("GET /wiki/{path...}", s.handleWiki)
	m.HandleFunc("GET /vault/{path...}", s.handleVault)
	m.HandleFunc("GET /search", s.handleSearch)
	m.HandleFunc("GET /static/{name}", s.handleStatic)
	// The vault's folders have no listing: its index page stands for them.
	m.HandleFunc("GET /wiki/{$}", s.redirect(vaultIndex))
	m.HandleFunc("GET /vault/{$}", s.redirect(vaultIndex))
	m.HandleFunc("GET /debates/{$}", s.redirect("/"))
	m.HandleFunc("/", s.handleOther)
	s.mux = m
}

// vaultIndex is the page the Vault link of every page opens.
const vaultIndex = "/wiki/consensus/consensus-records"

func (s *Server) redirect(to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) }
}

// handleOther answers what no route takes: a page's address with a slash
// added (/consensus/, /debates/ID/) is sent to the page, the rest is not
// found.
func (s *Server) handleOther(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
		alt := r.Clone(r.Context())
		alt.URL.Path, alt.URL.RawPath = strings.TrimRight(p, "/"), ""
		if alt.URL.Path != "" && cleanPath(alt) {
			if _, pattern := s.mux.Handler(alt); pattern != "/" && pattern != "" {
				s.redirectTrimmed(w, r)
				return
			}
		}
	}
	s.notFound(w, r)
}

// redirectTrimmed sends a request for a page's address with a slash added
// to the address without it, keeping the query.
func (s *Server) redirectTrimmed(w http.ResponseWriter, r *http.Request) {
	to := strings.TrimRight(r.URL.EscapedPath(), "/")
	if r.URL.RawQuery != "" {
		to += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, to, http.StatusMovedPermanently)
}

// The security headers of every response. Pages get script-src and
// connect-src 'self' only where they update live (see scriptCSP).
const (
	baseCSP   = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
	scriptCSP = baseCSP + "; script-src 'self'; connect-src 'self'"
)

// ServeHTTP sets the security headers, refuses other methods than GET and
// HEAD, requests for a Host that is not loopback (unless remote access was
// allowed), and paths that are not plain (see cleanPath), then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", baseCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only: only GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	if !s.remote && !httpserve.LoopbackHost(r.Host) {
		http.Error(w, "this server answers loopback addresses only (parley serve --allow-remote)", http.StatusMisdirectedRequest)
		return
	}
	if !cleanPath(r) {
		s.notFound(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath accepts a request path only when it is plain: absolute, made
// of non-empty segments (the last may be empty) that are not "." or ".."
// and do not start with a dot, with no backslash, NUL, control character
// or escape ('%' and two hex digits) once decoded (an escape left after
// decoding is double encoding), and no encoded '/', '\' or '.' in the raw
// path. A '%' that starts no escape is a character like another: Obsidian
// users name pages "100% uptime".
func cleanPath(r *http.Request) bool {
	p := r.URL.Path
	if !strings.HasPrefix(p, "/") || len(p) > 4096 {
		return false
	}
	raw := strings.ToLower(r.URL.EscapedPath())
	if strings.Contains(raw, "%2f") || strings.Contains(raw, "%5c") || strings.Contains(raw, "%2e") {
		return false
	}
	segs := strings.Split(p[1:], "/")
	for i, seg := range segs {
		if seg == "" {
			if i == len(segs)-1 {
				continue
			}
			return false
		}
		if !plainSegment(seg) {
			return false
		}
	}
	return true
}

// plainSegment is one path segment that names a file, never a way out.
func plainSegment(seg string) bool {
	if seg == "" || seg[0] == '.' || len(seg) > 255 {
		return false
	}
	for i, r := range seg {
		if r == '\\' || r == '/' || unicode.IsControl(r) || r == unicode.ReplacementChar {
			return false
		}
		if r == '%' && i+2 < len(seg) && isHex(seg[i+1]) && isHex(seg[i+2]) {
			return false // an escape left after decoding: double encoding
		}
	}
	return true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// Timeouts of the http.Server that Serve runs.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 60 * time.Second
	shutdownTimeout   = 5 * time.Second
	// maxBodyBytes bounds a request body: the pages take none.
	maxBodyBytes = 64 << 10
)

// Serve answers requests on ln until ctx ends, then shuts down gracefully:
// live streams are told to end, requests in flight get up to 5 s to
// finish. It returns nil after a shutdown caused by ctx.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	err := httpserve.Serve(ctx, ln, s, httpserve.Options{
		ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout, WriteTimeout: writeTimeout, IdleTimeout: idleTimeout,
		MaxBodyBytes: maxBodyBytes, MaxConns: s.maxConns, ShutdownTimeout: shutdownTimeout, OnShutdown: s.stop, Logger: s.log,
	})
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

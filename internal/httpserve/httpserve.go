// Package httpserve runs parley's HTTP servers ("parley serve" and "parley
// mcp --http") so that slow or many clients cannot exhaust the process: a
// deadline on reading the headers and on reading each request, an idle
// timeout between requests, a bound on a request's body, and a cap on the
// connections open at once (beyond it, new connections wait in the
// kernel's backlog, costing parley no descriptor).
package httpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Options are the limits of a server; a zero field takes its default.
type Options struct {
	// ReadHeaderTimeout bounds reading a request's headers (default 5 s).
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included (default
	// 30 s): a client dribbling its body is cut off.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing a response; 0 leaves it unbounded (a
	// server with long-lived streams), negative is the default 0 too.
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection with no request (default
	// 60 s).
	IdleTimeout time.Duration
	// MaxBodyBytes bounds a request's body (default 4 MiB); a longer one
	// fails to read, and the handler answers 413 or 400.
	MaxBodyBytes int64
	// MaxConns caps the connections open at once (default 256).
	MaxConns int
	// ShutdownTimeout is how long requests in flight get when ctx ends
	// (default 5 s).
	ShutdownTimeout time.Duration
	// OnShutdown is called when ctx ends, before the graceful shutdown
	// (to end long-lived streams).
	OnShutdown func()
	Logger     *slog.Logger
}

// Defaults.
const (
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultIdleTimeout       = 60 * time.Second
	DefaultMaxBodyBytes      = 4 << 20
	DefaultMaxConns          = 256
	DefaultShutdownTimeout   = 5 * time.Second
)

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	def(&o.ReadTimeout, DefaultReadTimeout)
	def(&o.IdleTimeout, DefaultIdleTimeout)
	def(&o.ShutdownTimeout, DefaultShutdownTimeout)
	if o.WriteTimeout < 0 {
		o.WriteTimeout = 0
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Serve answers requests on ln with h under o's limits until ctx ends, then
// shuts down gracefully. It returns nil after a shutdown caused by ctx.
// ln is closed when Serve returns.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o Options) error {
	o.defaults()
	max := o.MaxBodyBytes
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > max {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, max)
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    32 << 10,
		// "OPTIONS *" would be answered by net/http itself, around h.
		DisableGeneralOptionsHandler: true,
		ErrorLog:                     slog.NewLogLogger(o.Logger.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(LimitListener(ln, o.MaxConns)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	if o.OnShutdown != nil {
		o.OnShutdown()
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serr := <-done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// LimitListener returns a listener that has at most n connections open at
// once: Accept waits for one to close before it accepts another.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	sem       chan struct{}
	closeOnce sync.Once
	done      chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// ErrInUse means a listen address that something else already listens on
// (EADDRINUSE), as Listen reports it.
var ErrInUse = errors.New("address in use")

// Listen listens on the TCP address addr. An address already in use is
// ErrInUse (the callers word what to do about it); any other failure is
// net.Listen's.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%w: %s: %w", ErrInUse, addr, err)
	}
	return ln, err
}

// URL is the http:// URL a server listening on ln at path is reached by,
// for the address addr the user gave: its host as given (a name stays a
// name), with the port ln got (addr may ask for port 0). A host that
// listens on every interface (none, 0.0.0.0, ::) is no address to open:
// browsers refuse http://0.0.0.0/ and http://[::]/ or cannot reach them,
// so the URL names this machine's loopback address, 127.0.0.1 (::1 for
// ::), which reaches such a server from here (EveryInterface tells the
// caller to say so). Never the listener's own [::]:N.
func URL(addr string, ln net.Listener, path string) string {
	host, _, err := net.SplitHostPort(addr)
	_, port, perr := net.SplitHostPort(ln.Addr().String())
	if err != nil || perr != nil {
		return "http://" + ln.Addr().String() + path
	}
	if everyInterface(host) {
		if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
			host = "::1"
		} else {
			host = "127.0.0.1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + path
}

// EveryInterface reports whether the listen address addr listens on
// every network interface: its host is empty, 0.0.0.0 or ::.
func EveryInterface(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && everyInterface(host)
}

func everyInterface(host string) bool {
	ip := net.ParseIP(host)
	return host == "" || ip != nil && ip.IsUnspecified()
}

// Where names, for a message, where a server listening on ln serves, for
// the address addr the user gave: its host as given, with the port ln got
// (addr may ask for port 0); a host that listens on every interface (none,
// 0.0.0.0, ::) is "every network interface, port N". Never the listener's
// own [::]:N, which is neither what the user typed nor an address anyone
// can reach or paste.
func Where(addr string, ln net.Listener) string {
	host, _, err := net.SplitHostPort(addr)
	_, port, perr := net.SplitHostPort(ln.Addr().String())
	switch {
	case err != nil || perr != nil:
		return ln.Addr().String()
	case everyInterface(host):
		return "every network interface, port " + port
	}
	return net.JoinHostPort(host, port)
}

// ErrRemote means a listen address that is not a loopback address, which
// CheckAddr refuses unless remote access was allowed.
var ErrRemote = errors.New("not a loopback address")

// ErrAddrForm means a listen address that is not HOST:PORT with a port
// from 0 to 65535: refused before anything listens, by every server alike.
var ErrAddrForm = errors.New("bad listen address")

// LoopbackHost reports whether a Host header names this machine: localhost,
// or a loopback IP address, with or without a port.
func LoopbackHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// CheckAddr checks a listen address: one that is not HOST:PORT with a
// numeric port is ErrAddrForm; a loopback address is fine; any other (a
// LAN address, or an empty host, which listens on every interface) is
// ErrRemote unless allowRemote. The callers ("parley serve" and "parley
// mcp --http") word the refusal. It reports whether the address is
// loopback.
func CheckAddr(addr string, allowRemote bool) (loopback bool, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("%w: %q: want HOST:PORT", ErrAddrForm, addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return false, fmt.Errorf("%w: %q: the port must be a number from 0 to 65535", ErrAddrForm, addr)
	}
	if host != "" && LoopbackHost(host) {
		return true, nil
	}
	if !allowRemote {
		return false, fmt.Errorf("%w: %q (use 127.0.0.1, [::1] or localhost, or allow remote access)", ErrRemote, addr)
	}
	return false, nil
}

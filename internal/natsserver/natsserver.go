// Package natsserver runs a nats-server with JetStream inside the current
// process, for tests and for "parley bench messenger --transport nats". It is
// never how parley is deployed: users run their own nats-server.
package natsserver

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Version is the embedded nats-server's version.
const Version = server.VERSION

// DefaultMaxPayload is the embedded server's max_payload: parley's 1 MiB
// messages plus room for headers (the nats-server default is exactly 1 MiB).
const DefaultMaxPayload = 2 << 20

// Server is an embedded nats-server with JetStream storing its files in one
// directory. It can be stopped and started again on the same port and store,
// as a restarted server would be.
type Server struct {
	mu    sync.Mutex
	dir   string
	port  int
	sync  bool
	max   int32
	srv   *server.Server
	ready time.Duration
	op    *Operator // decentralized JWT authentication, or nil
	log   serverLog // what the server warned about, for a failed test to show
}

// Option configures a Server.
type Option func(*Server)

// SyncAlways makes JetStream fsync every message before acknowledging it
// (nats-server's "sync_interval: always"); the default syncs every two
// minutes and relies on replication for durability.
func SyncAlways() Option { return func(s *Server) { s.sync = true } }

// MaxPayload sets the server's max_payload (default DefaultMaxPayload).
func MaxPayload(n int32) Option { return func(s *Server) { s.max = n } }

// Start starts a server listening on 127.0.0.1 at a free port, with
// JetStream storing under dir.
func Start(dir string, opts ...Option) (*Server, error) {
	s := &Server{dir: dir, port: -1, max: DefaultMaxPayload, ready: 30 * time.Second}
	for _, o := range opts {
		o(s)
	}
	if err := s.Restart(); err != nil {
		return nil, err
	}
	return s, nil
}

// Restart starts a stopped server again on the same port and store. It is
// an error when the server runs.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return errors.New("natsserver: the server is running")
	}
	o := &server.Options{
		ServerName: "parley-embedded",
		Host:       "127.0.0.1",
		Port:       s.port,
		JetStream:  true,
		StoreDir:   s.dir,
		SyncAlways: s.sync,
		MaxPayload: s.max,
		NoLog:      true,
		NoSigs:     true,
	}
	if s.op != nil {
		if err := s.op.apply(o); err != nil {
			return err
		}
	}
	var srv *server.Server
	var err error
	// The port of a stopped server may take a moment to be free again.
	for try := 0; try < 50; try++ {
		srv, err = server.NewServer(o)
		if err != nil {
			return fmt.Errorf("natsserver: %w", err)
		}
		srv.SetLogger(&s.log, false, false)
		srv.Start()
		if srv.ReadyForConnections(s.ready) {
			break
		}
		srv.Shutdown()
		srv.WaitForShutdown()
		srv = nil
		time.Sleep(100 * time.Millisecond)
	}
	if srv == nil {
		return fmt.Errorf("natsserver: not ready on port %d", s.port)
	}
	if s.port < 0 {
		s.port = srv.Addr().(*net.TCPAddr).Port
	}
	s.srv = srv
	return nil
}

// Log returns the warnings and errors the server logged, oldest first (the
// last 200). The server gives its API clients only a generic error for some
// failures ("error creating store for stream") and logs the cause; a test
// that fails shows this.
func (s *Server) Log() []string { return s.log.lines() }

// serverLog keeps the last lines the server logged at notice level or above.
type serverLog struct {
	mu   sync.Mutex
	kept []string
}

const keptLogLines = 200

func (l *serverLog) add(level, format string, v ...any) {
	line := time.Now().Format("15:04:05.000") + " " + level + " " + fmt.Sprintf(format, v...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.kept) == keptLogLines {
		l.kept = append(l.kept[:0], l.kept[1:]...)
	}
	l.kept = append(l.kept, line)
}

func (l *serverLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.kept...)
}

func (l *serverLog) Noticef(format string, v ...any) { l.add("[INF]", format, v...) }
func (l *serverLog) Warnf(format string, v ...any)   { l.add("[WRN]", format, v...) }
func (l *serverLog) Fatalf(format string, v ...any)  { l.add("[FTL]", format, v...) }
func (l *serverLog) Errorf(format string, v ...any)  { l.add("[ERR]", format, v...) }
func (l *serverLog) Debugf(string, ...any)           {}
func (l *serverLog) Tracef(string, ...any)           {}

// URL is the server's client URL, the same across restarts.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("nats://127.0.0.1:%d", s.port)
}

// Stop shuts the server down and waits until it has; Restart starts it
// again. Stopping a stopped server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return
	}
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
	s.srv = nil
}

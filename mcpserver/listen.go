package mcpserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/parleyhq/parley/internal/httpserve"
)

// ServeHTTPOn serves the streamable HTTP transport at /mcp on ln until ctx
// ends, then shuts down; it returns nil after a shutdown caused by ctx.
// Streams (GET /mcp) are long-lived: there is no write timeout; a
// request's body must arrive within the read timeout and is bounded by
// MaxFrame. When ctx ends, the Server is closed (its participants leave,
// so that a debate_next_turn that waits for a request returns) and every
// session with it, ending its streams: the shutdown does not wait for a
// client's notification stream, which never ends by itself.
func (s *Server) ServeHTTPOn(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler())
	err := httpserve.Serve(ctx, ln, mux, httpserve.Options{MaxBodyBytes: MaxFrame, WriteTimeout: -1, Logger: s.log, OnShutdown: s.closeSessions})
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// shutdownDrain bounds how long a shutdown waits for the calls in flight
// to be answered before it closes their sessions.
const shutdownDrain = 5 * time.Second

// closeSessions closes the Server (its participants leave, and every tool
// call's context ends), waits until the calls in flight have been
// answered (at most shutdownDrain), so that a client is told why its call
// ended, and then closes every client session.
func (s *Server) closeSessions() {
	s.Close()
	s.cancels.drain(shutdownDrain)
	for ss := range s.mcp.Sessions() {
		ss.Close()
	}
}

package main

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/httpserve"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/mcpserver"
)

// newMCPCmd is "parley mcp [--http ADDR [--allow-remote] [--trusted]]": the
// Model Context Protocol server (see package mcpserver).
func newMCPCmd(a *factory) *cobra.Command {
	var (
		httpAddr             string
		allowRemote, trusted bool
		o                    mcpserver.AppOptions // its HTTP settings apply over --http only
	)
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR]",
		Short: "Serve parley's tools to agents over the Model Context Protocol (stdio, or HTTP)",
		Long: "Serves MCP on standard input and output (register \"parley mcp\" with an MCP client),\n" +
			"or with --http ADDR the streamable HTTP transport at http://ADDR/mcp, on a loopback\n" +
			"address unless --allow-remote. Tools: consensus_check, consensus_search, consensus_show,\n" +
			"gate, debate_start, debate_status, debate_resume, debate_join, debate_next_turn, debate_submit_turn,\n" +
			"debate_leave, transcript_show, send, recv. Resources: parley://consensus/NAME and\n" +
			"parley://debates/ID. Over HTTP, debate_start runs only @NAME and openai: agents, with\n" +
			"no --context files and no workspace, unless --trusted. Over HTTP a request with an Origin\n" +
			"other than a loopback one (or one --allow-origin lists) is refused 403, a session idle\n" +
			"for --session-timeout is closed, and a joined participant without a tool call for the\n" +
			"registration TTL leaves. Logs go to stderr (--verbose).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("http") && (allowRemote || trusted || len(o.AllowedOrigins) > 0 || cmd.Flags().Changed("session-timeout")) {
				return cmdutil.Usagef("--allow-remote and --trusted apply to --http only, as do --allow-origin and --session-timeout")
			}
			for _, origin := range o.AllowedOrigins {
				if !mcpserver.ValidOrigin(origin) {
					return cmdutil.Usagef("--allow-origin %q: an origin as a browser sends it, e.g. https://app.example.com", origin)
				}
			}
			if o.SessionTimeout <= 0 {
				return cmdutil.Usagef("--session-timeout must be positive, e.g. 5m")
			}
			// --http given is HTTP, even empty (an unset variable): that is
			// a bad address, not a request for stdio.
			o.HTTP = cmd.Flags().Changed("http")
			var warn func(net.Listener)
			if o.HTTP {
				var err error
				if warn, err = checkListenAddr(a, httpAddr, allowRemote); err != nil {
					return err
				}
			}
			o.Untrusted = o.HTTP && !trusted
			return a.serveMCP(cmd.Context(), httpAddr, o, warn)
		},
	}
	f := cmd.Flags()
	f.StringVar(&httpAddr, "http", "", "serve the streamable HTTP transport on ADDR (e.g. 127.0.0.1:7421) instead of stdio")
	f.BoolVar(&allowRemote, "allow-remote", false, "allow --http on an address that is not loopback (anyone who reaches it can use every tool)")
	f.BoolVar(&trusted, "trusted", false, "over --http, let debate_start run exec:/script: agents and read --context files and a workspace")
	f.StringArrayVar(&o.AllowedOrigins, "allow-origin", nil, "over --http, also serve requests whose Origin is this (repeatable); requests without Origin or from a loopback origin are always served, any other gets 403")
	f.DurationVar(&o.SessionTimeout, "session-timeout", mcpserver.DefaultSessionTimeout, "over --http, close a session after this long without a request")
	return cmd
}

// checkListenAddr refuses a --http address that is not HOST:PORT, or not
// loopback (httpserve.CheckAddr) unless --allow-remote. It returns the
// warning to print once the server listens on ln (nil for none), which
// names where it serves as "parley serve" does (httpserve.Where: the port
// it got, "every network interface"), never the ":0" or "[::]" typed.
func checkListenAddr(a *factory, addr string, allowRemote bool) (warn func(ln net.Listener), err error) {
	switch loopback, err := httpserve.CheckAddr(addr, allowRemote); {
	case errors.Is(err, httpserve.ErrRemote):
		_, port, _ := net.SplitHostPort(addr)
		return nil, cmdutil.Usagef("--http %s is not a loopback address: other machines could call every tool; use 127.0.0.1:%s, or add --allow-remote if you mean it", addr, port)
	case err != nil:
		return nil, cmdutil.Usagef("--http: %v (e.g. 127.0.0.1:7421)", err)
	case loopback && allowRemote:
		return func(ln net.Listener) {
			a.Warnf("--allow-remote with the loopback address %s: only this machine can connect", httpserve.Where(addr, ln))
		}, nil
	case !loopback:
		return func(ln net.Listener) {
			a.Warnf("serving MCP on %s, which is not a loopback address: anyone who reaches it can read the consensus, start debates and send messages as any agent", httpserve.Where(addr, ln))
		}, nil
	}
	return nil, nil
}

// serveMCP opens the messenger (making the root if it is new) and serves
// MCP over the root with o (a vault that is not there is refused, as
// "consensus check" refuses it, and not made), over HTTP at httpAddr when
// o.HTTP (calling warn, if any, once it listens), else over stdio, until
// the client disconnects (stdio) or ctx ends.
func (a *factory) serveMCP(ctx context.Context, httpAddr string, o mcpserver.AppOptions, warn func(net.Listener)) error {
	m, err := a.OpenMessenger()
	if err != nil {
		return err
	}
	defer m.Close()
	o.Logger = a.Logger()
	srv, closeSrv, err := mcpserver.FromApp(a.Service(), m, o)
	if errors.Is(err, app.ErrNoVault) {
		return &cmdutil.Error{Msg: fmt.Sprintf("%v (%s makes one)", err, a.CmdLine("init")), Err: err}
	}
	if err != nil {
		return err
	}
	defer closeSrv()
	if !o.HTTP {
		// Standard output is the protocol. A client that went away makes
		// a write fail (EPIPE), which ends the session so that the server
		// leaves its debates and unregisters its participants, rather
		// than SIGPIPE killing the process before it cleans up.
		defer interrupt.OutliveReader()()
		return srv.ServeStdio(ctx, a.Stdin, a.Stdout)
	}
	return a.serveMCPHTTP(ctx, httpAddr, srv, warn)
}

// serveMCPHTTP serves the streamable HTTP transport at /mcp until ctx
// ends, calling warn (if any) once it listens.
func (a *factory) serveMCPHTTP(ctx context.Context, addr string, srv *mcpserver.Server, warn func(net.Listener)) error {
	ln, err := listen("--http", addr, "parley mcp --http")
	if err != nil {
		return err
	}
	if warn != nil {
		warn(ln)
	}
	url := httpserve.URL(addr, ln, "/mcp")
	if a.JSON {
		_ = a.Emit(map[string]any{"event": "listening", "url": url})
	} else {
		fmt.Fprintf(a.Stderr, "parley: MCP over streamable HTTP at %s (%sCtrl-C to stop)\n", url, everyInterfaceNote(addr))
	}
	return srv.ServeHTTPOn(ctx, ln)
}

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/httpserve"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/web"
)

// newServeCmd is "parley serve [--addr 127.0.0.1:7420] [--allow-remote]":
// read-only web pages over the root and the vault (package web).
func newServeCmd(a *factory) *cobra.Command {
	var (
		addr        string
		allowRemote bool
	)
	cmd := &cobra.Command{
		Use:        "serve [--addr 127.0.0.1:7420] [--allow-remote]",
		SuggestFor: []string{"web", "ui", "server", "browse", "http"}, // what a newcomer looking for the pages may type
		Short:      "Serve read-only web pages of the debates, their integrity, the consensus records and the vault",
		Long: "Serves the debates (each re-verified on every load: the integrity badge), the\n" +
			"consensus records and the vault's pages, with search, until Ctrl-C. It listens\n" +
			"on a loopback address only, unless --allow-remote is given: the pages have no\n" +
			"authentication, so anyone who can reach them can read every debate.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			loopback, err := httpserve.CheckAddr(addr, allowRemote)
			if errors.Is(err, httpserve.ErrRemote) {
				return cmdutil.Usagef("--addr %s is not a loopback address; add --allow-remote to serve other machines (no authentication: anyone who reaches it reads every debate)", addr)
			}
			if err != nil {
				return cmdutil.Usagef("--addr: %v", err)
			}
			srv, closeSrv, err := web.FromApp(a.Service(), allowRemote && !loopback)
			switch {
			case errors.Is(err, web.ErrNoVault):
				return cmdutil.NotFoundf("there is no vault at %s (%s makes one)", a.VaultDir(), a.CmdLine("init"))
			case errors.Is(err, fs.ErrNotExist):
				return a.NoRootError("")
			case err != nil:
				return err
			}
			defer closeSrv()
			vdir, _ := filepath.Abs(a.VaultDir())
			ln, err := listen("--addr", addr, "parley serve")
			if err != nil {
				return err
			}
			switch {
			case !loopback:
				a.Warnf("serving %s to other machines: the pages have no authentication; anyone who can reach this address can read every debate and record of %s and every page of the vault %s", httpserve.Where(addr, ln), a.RootDir(), vdir)
			case allowRemote:
				// On a loopback address --allow-remote exposes nothing more:
				// the Host check (against DNS rebinding) stays on.
				a.Warnf("--allow-remote with the loopback address %s: only this machine can connect, and requests must name a loopback host", httpserve.Where(addr, ln))
			}
			url := httpserve.URL(addr, ln, "/")
			if a.JSON {
				if err := a.Emit(map[string]any{"event": "listening", "url": url, "root": a.RootDir(), "vault": vdir}); err != nil {
					ln.Close()
					return err
				}
			} else {
				a.Printf("parley serve: %s (%sread-only; Ctrl-C stops)\n", url, everyInterfaceNote(addr))
			}
			ctx, stop := interrupt.On(cmd.Context())
			defer stop()
			return srv.Serve(ctx, ln)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:7420", "address to listen on (loopback unless --allow-remote)")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback --addr (prints a warning: the pages have no authentication)")
	return cmd
}

// everyInterfaceNote is what the line that prints a server's URL adds
// when addr listens on every network interface: the URL (httpserve.URL)
// then names this machine, and the note says that others reach it too.
func everyInterfaceNote(addr string) string {
	if httpserve.EveryInterface(addr) {
		return "listening on every network interface; "
	}
	return ""
}

// listen listens on addr, given by flag, for the server cmd ("parley
// serve", "parley mcp --http"): an address in use is one line that says
// what to do, the same for every server; any other failure names the flag.
func listen(flag, addr, cmd string) (net.Listener, error) {
	ln, err := httpserve.Listen(addr)
	switch {
	case errors.Is(err, httpserve.ErrInUse):
		return nil, fmt.Errorf("%s is in use (another %s?): stop what listens there or choose another %s", addr, cmd, flag)
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", flag, addr, err)
	}
	return ln, nil
}

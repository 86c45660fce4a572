// Package fastpath sends the plainest "parley send", and prints the
// version, before Go initialises the rest of the program
// (internal/quicksend says which sends, and why; internal/buildstamp how
// the version is read without runtime/debug).
//
// It is the one package whose initialisation does work, and it must be:
// Go runs every package's initialisation before main, so only an init
// function that runs first can spare a send the rest. main imports it;
// it imports only what a send needs, and nothing that needs reflect or
// strings (Go initialises the lexicographically first ready package next,
// and those are ready only after most of the binary sorting before
// parley: internal/lean says more), so Go initialises it after some twenty
// packages of the runtime's and before the rest. For every other command
// line it does nothing. $PARLEY_FASTPATH=off (quicksend.Off) leaves
// everything to the command.
package fastpath

import (
	"os"

	"github.com/parleyhq/parley/internal/quicksend"
	"github.com/parleyhq/parley/internal/termsafe"
)

func init() {
	// A coverage run ($GOCOVERDIR, of a "go build -cover" binary) wants
	// every process's counters, which Go writes at exit from a hook it
	// installs after this init: such a run is left to the command.
	if os.Getenv("GOCOVERDIR") != "" {
		return
	}
	handled, err := false, error(nil)
	if os.Getenv("PARLEY_FASTPATH") != quicksend.Off {
		handled, err = printVersion(os.Args[1:], os.Stdout)
	}
	if !handled {
		handled, err = quicksend.Run(os.Args[1:], os.Getenv, os.Stdout)
	}
	if !handled {
		return
	}
	if err != nil {
		// As the command says an error (cmdutil.ExitCode): one line, safe
		// on a terminal, exit status 1.
		_, _ = os.Stderr.WriteString("parley: " + termsafe.ErrorLine(err) + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/interrupt"
)

// ErrInterrupted ends a wait that Ctrl-C cut short (exit 130).
var ErrInterrupted = interrupt.ErrInterrupted

// LazyInterrupt is the annotation of a command that never waits without
// asking its context for Done first (a wait on standard input, a messenger
// server that does not answer): it runs without listening for Ctrl-C until
// then (interrupt.Context), and Ctrl-C before that ends the process as it
// would any program. Every other command listens from its start.
const LazyInterrupt = "parley/interrupt-lazily"

// RootHere is the annotation of a command whose default root is .parley in
// the working directory itself, never the nearest one above it (init,
// which makes a root where it is run): the root's PersistentPreRunE sets
// Factory.Here for it.
const RootHere = "parley/root-here"

// WaitsLazily marks cmd LazyInterrupt and returns it.
func WaitsLazily(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[LazyInterrupt] = "yes"
	return cmd
}

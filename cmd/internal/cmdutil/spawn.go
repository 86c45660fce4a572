package cmdutil

import "github.com/parleyhq/parley/app"

// ChildEnv is added to the environment of the parley processes the
// service layer starts (agents, a detached debate). Tests set it so that
// the test binary, standing in for parley, runs the command line.
var ChildEnv []string

// spawn is how the service layer starts parley processes: with --verbose
// when this one has it, and childEnv.
func (a *Factory) spawn() app.Spawn {
	s := app.Spawn{Env: ChildEnv}
	if a.Verbose {
		s.Args = []string{"--verbose"}
	}
	return s
}

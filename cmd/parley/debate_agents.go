package main

import "github.com/parleyhq/parley/app"

// childEnv is added to the environment of the parley processes the
// service layer starts (agents, a detached debate). Tests set it so that
// the test binary, standing in for parley, runs the command line.
var childEnv []string

// spawn is how the service layer starts parley processes: with --verbose
// when this one has it, and childEnv.
func (a *factory) spawn() app.Spawn {
	s := app.Spawn{Env: childEnv}
	if a.verbose {
		s.Args = []string{"--verbose"}
	}
	return s
}

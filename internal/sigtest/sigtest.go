// Package sigtest is what test binaries that send Ctrl-C to the processes
// they start need, whatever signals they were started ignoring.
package sigtest

import (
	"os"
	"os/signal"
)

// HearCtrlC makes a test binary that was started with SIGINT ignored
// catch it instead, so that the processes its tests start can be stopped
// by Ctrl-C as the tests expect: a process inherits an ignored signal
// across exec, while one its parent catches starts at its default. "go
// test" catches SIGINT itself, so this is for a binary built with "go test
// -c" and run as a script's background job ("./parley.test &"), which
// the shell starts ignoring SIGINT. The test binary itself goes on
// swallowing SIGINT. Call it first in TestMain, before anything asks
// interrupt.Signals.
func HearCtrlC() {
	if signal.Ignored(os.Interrupt) {
		signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	}
}

package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"

	"github.com/parleyhq/parley/jetstream"
)

// The options as "parley bench" takes them from its flags: Check refuses
// what a person cannot have meant (a run of no messages), naming the
// flag; the Run functions give zero counts their defaults instead.

// DefaultMessengerOptions are the sizes "parley bench messenger" uses by
// default, on the file backend.
var DefaultMessengerOptions = MessengerOptions{Backend: Backend{Name: BackendFile},
	Raw: 1000, Idle: 200, Stream: 500, Throughput: 2000}

// count is a flag's count, for checkCounts.
type count struct {
	flag string
	n    int
}

// checkCounts names the first flag whose count is below one, and why it
// must not be.
func checkCounts(why string, counts ...count) error {
	for _, c := range counts {
		if c.n < 1 {
			return fmt.Errorf("%s %d: %s", c.flag, c.n, why)
		}
	}
	return nil
}

// Check refuses counts below one and a negative pause or cadence.
func (o CLIOptions) Check() error {
	if err := checkCounts("each run needs at least one message", count{"--idle", o.Idle}, count{"--stream", o.Stream},
		count{"--blocks", o.Blocks}, count{"--senders", o.Senders}, count{"--per-sender", o.PerSender}, count{"--rounds", o.Rounds}); err != nil {
		return err
	}
	switch {
	case o.IdleGap < 0:
		return fmt.Errorf("--idle-gap %v: 0 or more", o.IdleGap)
	case o.Interval <= 0:
		return fmt.Errorf("--interval %v: more than 0", o.Interval)
	}
	return nil
}

// Check refuses a backend RunMessenger does not measure and counts below
// one.
func (o MessengerOptions) Check() error {
	if o.Backend.Name != BackendFile && o.Backend.Name != BackendNATS {
		return fmt.Errorf("--transport %q: use file or nats", o.Backend.Name)
	}
	return checkCounts("each run needs at least one operation", count{"--raw", o.Raw}, count{"--idle", o.Idle},
		count{"--stream", o.Stream}, count{"--throughput", o.Throughput})
}

// Check refuses counts below one.
func (o DebateOptions) Check() error {
	return checkCounts("at least 1", count{"--debates", o.Sequential}, count{"--concurrent", o.Concurrent},
		count{"--rounds", o.Rounds}, count{"--agent-pairs", o.AgentPairs})
}

// Check refuses counts below one.
func (o ConsensusOptions) Check() error {
	return checkCounts("at least 1", count{"--records", o.Records}, count{"--checks", o.Checks},
		count{"--processes", o.Processes}, count{"--filings", o.Filings})
}

// ParseBackends turns backend names into Backends, each checked (see
// Backend.Check); the NATS one runs on natsURL.
func ParseBackends(names []string, natsURL string) ([]Backend, error) {
	var bs []Backend
	for _, name := range names {
		b := Backend{Name: name}
		if name == BackendNATS {
			b.NATSURL = natsURL
		}
		if err := b.Check(); err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// parley is the parley binary to measure: p, else this process's own.
func parley(p string) (string, error) {
	if p == "" {
		return os.Executable()
	}
	// Found before anything starts, and said as the flag that named it:
	// not "parley agents add: fork/exec …" once the scratch root is made.
	path, err := exec.LookPath(p)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // "no such file or directory", not "stat …: …"
	} else if inner := errors.Unwrap(err); inner != nil {
		err = inner
	}
	if err != nil {
		return "", fmt.Errorf("--parley %s: %w", p, err)
	}
	return path, nil
}

// withHint adds to err what a person can do about it: start a NATS
// server, or build the floor program.
func withHint(err error) error {
	switch {
	case errors.Is(err, jetstream.ErrUnavailable):
		return fmt.Errorf("%w; start a scratch server with: go run github.com/nats-io/nats-server/v2@v2.15.2 -js -sd DIR, and give --nats-url", err)
	case errors.Is(err, ErrNoToolchain):
		return fmt.Errorf("%w; build it once with 'go build -o floor ./internal/bench/floor' in parley's source and pass --floor ./floor", err)
	}
	return err
}

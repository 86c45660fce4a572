package bench

import (
	"errors"
	"fmt"
	"os"

	"github.com/parleyhq/parley/jetstream"
)

// The options as "parley bench" takes them from its flags: Check refuses
// what a person cannot have meant (a run of no messages), naming the
// flag; the Run functions give zero counts their defaults instead.

// DefaultMessengerOptions are the sizes "parley bench messenger" uses by
// default, on the file backend.
var DefaultMessengerOptions = MessengerOptions{Backend: Backend{Name: BackendFile},
	Raw: 1000, Idle: 200, Stream: 500, Throughput: 2000}

// Check refuses counts below one and a negative pause or cadence.
func (o CLIOptions) Check() error {
	for _, c := range []struct {
		flag string
		n    int
	}{{"--idle", o.Idle}, {"--stream", o.Stream}, {"--blocks", o.Blocks}, {"--senders", o.Senders}, {"--per-sender", o.PerSender}, {"--rounds", o.Rounds}} {
		if c.n < 1 {
			return fmt.Errorf("%s %d: each run needs at least one message", c.flag, c.n)
		}
	}
	if o.IdleGap < 0 || o.Interval <= 0 {
		return errors.New("--idle-gap must be 0 or more and --interval more than 0")
	}
	return nil
}

// Check refuses a backend RunMessenger does not measure and counts below
// one.
func (o MessengerOptions) Check() error {
	if o.Backend.Name != BackendFile && o.Backend.Name != BackendNATS {
		return fmt.Errorf("--transport %q: use file or nats", o.Backend.Name)
	}
	for _, c := range []struct {
		flag string
		n    int
	}{{"--raw", o.Raw}, {"--idle", o.Idle}, {"--stream", o.Stream}, {"--throughput", o.Throughput}} {
		if c.n < 1 {
			return fmt.Errorf("%s %d: each run needs at least one operation", c.flag, c.n)
		}
	}
	return nil
}

// Check refuses counts below one.
func (o DebateOptions) Check() error {
	if o.Sequential < 1 || o.Concurrent < 1 || o.Rounds < 1 || o.AgentPairs < 1 {
		return errors.New("--debates, --concurrent, --rounds and --agent-pairs must be positive")
	}
	return nil
}

// Check refuses counts below one.
func (o ConsensusOptions) Check() error {
	if o.Records < 1 || o.Checks < 1 || o.Processes < 1 || o.Filings < 1 {
		return errors.New("--records, --checks, --processes and --filings must be at least 1")
	}
	return nil
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
	if p != "" {
		return p, nil
	}
	return os.Executable()
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

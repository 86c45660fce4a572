package bench

import (
	"context"
	"errors"
	"fmt"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
)

// Backend names are the messenger backends a benchmark can run over.
const (
	BackendMemory = "memory"             // in this process only
	BackendFile   = config.TransportFile // inboxes under a root directory
	BackendNATS   = config.TransportNATS // a NATS JetStream server
)

// ErrBackend means a backend name the benchmarks do not know, or one that
// cannot do what was asked (the memory backend between processes).
var ErrBackend = errors.New("unknown messenger backend")

// Backend is a messenger backend by name, with where it lives.
type Backend struct {
	Name    string // BackendMemory, BackendFile or BackendNATS
	NATSURL string // BackendNATS: the server (default jetstream.DefaultURL)
}

// Check refuses a name the benchmarks do not know.
func (b Backend) Check() error {
	switch b.Name {
	case BackendMemory, BackendFile, BackendNATS:
		return nil
	}
	return fmt.Errorf("%w: %q (use %s, %s or %s)", ErrBackend, b.Name, BackendMemory, BackendFile, BackendNATS)
}

// shared reports whether separate processes reach the same inboxes.
func (b Backend) shared() bool { return b.Name == BackendFile || b.Name == BackendNATS }

func (b Backend) url() string {
	if b.NATSURL == "" {
		return jetstream.DefaultURL
	}
	return b.NATSURL
}

// open is the one place the benchmarks turn a backend name into a
// transport: root is the file backend's directory. close releases it.
func (b Backend) open(ctx context.Context, root, client string) (tr inbox.Transport, close func(), err error) {
	switch b.Name {
	case BackendMemory:
		return inbox.NewMemTransport(), func() {}, nil
	case BackendFile:
		ft, err := inbox.NewFileTransport(root)
		if err != nil {
			return nil, nil, err
		}
		return ft, func() { ft.Close() }, nil
	case BackendNATS:
		c, err := jetstream.Connect(ctx, jetstream.Config{URL: b.url(), Name: client})
		if err != nil {
			return nil, nil, err
		}
		return c.Transport(), func() { c.Close() }, nil
	}
	return nil, nil, b.Check()
}

// config is the config.json of a root on which a parley process uses this
// backend (the file backend: the root's own inboxes, the default).
func (b Backend) config() map[string]any {
	if b.Name == BackendNATS {
		return map[string]any{"transport": config.TransportNATS, "nats": map[string]any{"url": b.url()}}
	}
	return map[string]any{"transport": config.TransportFile}
}

package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
)

// Backend names of the messenger backends parley ships; any backend
// registered with app.RegisterBackend can be measured by its name.
const (
	BackendFile = config.TransportFile // inboxes under a root directory
	BackendNATS = config.TransportNATS // a NATS JetStream server
)

// ErrBackend means a messenger backend name that no backend is registered
// under.
var ErrBackend = errors.New("unknown messenger backend")

// Backend is a messenger backend by name, with where it lives. The
// benchmarks open it as every parley process does, through the root's
// config.json and app: the processes they start use the same backend.
type Backend struct {
	Name    string // a name app.Backends lists: BackendFile, BackendNATS, …
	NATSURL string // BackendNATS: the server (default jetstream.DefaultURL)
}

// Check refuses a name no backend is registered under.
func (b Backend) Check() error {
	if known := app.Backends(); !slices.Contains(known, b.Name) {
		return fmt.Errorf("%w: %q (known: %v)", ErrBackend, b.Name, known)
	}
	return nil
}

func (b Backend) url() string {
	if b.NATSURL == "" {
		return jetstream.DefaultURL
	}
	return b.NATSURL
}

// prepare makes root a parley root whose config.json selects b, for this
// process and for the parley processes a benchmark starts on it.
func (b Backend) prepare(root string) error {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	cfg := map[string]any{"transport": b.Name}
	if b.NATSURL != "" {
		cfg["nats"] = map[string]any{"url": b.NATSURL}
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, config.FileName), append(data, '\n'), 0o600)
}

// open prepares root for b and opens its messenger there: the one place
// the benchmarks turn a backend name into a transport.
func (b Backend) open(ctx context.Context, root string) (inbox.Transport, func(), error) {
	if err := b.prepare(root); err != nil {
		return nil, nil, err
	}
	return openRoot(ctx, root)
}

// openRoot opens the messenger root's config.json selects.
func openRoot(ctx context.Context, root string) (inbox.Transport, func(), error) {
	m, err := app.New(app.Options{Root: root}).Messenger(ctx)
	if err != nil {
		return nil, nil, err
	}
	return m.Transport(), m.Close, nil
}

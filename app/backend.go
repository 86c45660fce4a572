package app

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// Registry is what the front ends, the agents and the coordinator need of
// an agent registry, whatever the backend.
type Registry interface {
	Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error)
	Get(ctx context.Context, name string) (*registry.Entry, error)
	Alive(ctx context.Context, name string) (bool, error)
	Heartbeat(ctx context.Context, name, sessionID string) error
	Unregister(ctx context.Context, name, sessionID string) error
	List(ctx context.Context) ([]registry.Entry, error)
	Prune(ctx context.Context) ([]string, error)
	Host() string
}

// Backend is one messenger implementation: a transport for the inboxes
// and a registry of agents. What only some backends can do (count an
// inbox, collect acknowledged messages, say who holds an inbox) is an
// optional interface: Counter, Collector, OwnerReader.
type Backend interface {
	Transport() inbox.Transport
	Registry() Registry
	// Location says where agent's inbox is, in words a user can follow:
	// a directory, a subject on a server.
	Location(agent string) string
	// RegistryLocation says where the registry of agents is, in the same
	// words: a directory, a bucket on a server.
	RegistryLocation() string
	// Close releases what the backend holds.
	Close()
}

// Counter is a backend that counts an inbox's messages.
type Counter interface {
	Count(ctx context.Context, agent string) (InboxCount, error)
}

// InboxCount is what an inbox holds.
type InboxCount struct {
	Waiting int `json:"waiting"`
	// Acked counts the acknowledged messages a backend keeps for audit.
	Acked int `json:"acked"`
	// Bad counts the messages set apart as unreadable (quarantined,
	// dead-lettered).
	Bad int `json:"bad"`
	// Aside counts the messages set aside for the name's earlier holders
	// (a new session took the name while they waited): no receiver
	// claims them.
	Aside int `json:"aside"`
	// Summary says it in the backend's words, with where each kind is.
	Summary string `json:"-"`
}

// asideSummary is what an InboxCount's Summary adds for the n messages set
// aside at where for the name's earlier holders: nothing when there are
// none.
func asideSummary(n int, where string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d set aside for an earlier holder of the name (%s)", n, where)
}

// Collector is a backend that keeps acknowledged messages and can remove
// those older than a duration, and stale staging files.
type Collector interface {
	// Collect removes messages acknowledged more than olderThan ago and
	// abandoned staging files (the inboxes' and the registry's).
	Collect(ctx context.Context, olderThan time.Duration, now time.Time) (inbox.GCStats, error)
}

// OwnerReader is a backend that can say which session holds an agent's
// inbox ("" when none does).
type OwnerReader interface {
	Owner(ctx context.Context, agent string) (string, error)
}

// Opener opens a backend for an App with its configuration.
type Opener func(ctx context.Context, a *App, cfg *config.Config) (Backend, error)

var (
	backendsMu sync.RWMutex
	backends   map[string]Opener // made by the first RegisterBackend
)

// RegisterBackend makes a backend available under name, the value of
// "transport" in config.json. It panics if name is taken: registration
// happens once, from an init function of the file that implements it.
func RegisterBackend(name string, open Opener) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	if _, dup := backends[name]; dup {
		panic("app: backend " + name + " registered twice")
	}
	if backends == nil {
		backends = map[string]Opener{}
	}
	backends[name] = open
}

// Backends lists the registered backends' names, sorted.
func Backends() []string {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	names := make([]string, 0, len(backends))
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// BackendName is the backend cfg selects: its "transport", or the file
// messenger when it names none.
func BackendName(cfg *config.Config) string {
	if cfg.Transport == "" {
		return config.TransportFile
	}
	return cfg.Transport
}

// registered reports whether a backend is registered under name.
func registered(name string) bool {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	_, ok := backends[name]
	return ok
}

// unknownBackend is the error of a "transport" no backend is registered
// under; it wraps config.ErrInvalid, as config.json's other mistakes do.
func unknownBackend(name string) error {
	names := Backends()
	for i, n := range names {
		names[i] = fmt.Sprintf("%q", n)
	}
	use := strings.Join(names, "")
	if len(names) > 1 {
		use = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return fmt.Errorf("%w: transport %q: use %s", config.ErrInvalid, name, use)
}

// OpenBackend opens the backend called name (not the configured one: the
// benchmarks open each in turn).
func (a *App) OpenBackend(ctx context.Context, name string) (Backend, error) {
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	return a.openBackend(ctx, name, cfg)
}

func (a *App) openBackend(ctx context.Context, name string, cfg *config.Config) (Backend, error) {
	backendsMu.RLock()
	open, ok := backends[name]
	backendsMu.RUnlock()
	if !ok {
		return nil, unknownBackend(name)
	}
	b, err := open(ctx, a, cfg)
	if err != nil {
		return nil, Explain(err)
	}
	return b, nil
}

// Messenger opens (creating if needed) the messenger config.json selects.
// The caller closes it.
func (a *App) Messenger(ctx context.Context) (Backend, error) {
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	return a.openBackend(ctx, BackendName(cfg), cfg)
}

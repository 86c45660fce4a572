package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

func init() { RegisterBackend(config.TransportFile, openFiles) }

// files is the file messenger: inboxes and the registry under the root.
type files struct {
	tr  *inbox.FileTransport
	reg *registry.Registry
}

func openFiles(_ context.Context, a *App, cfg *config.Config) (Backend, error) {
	ttl := cfg.Messenger.HeartbeatTTL()
	topts := []inbox.FileOption{inbox.WithLogger(a.log)}
	if d := cfg.Messenger.Reconcile(); d > 0 {
		topts = append(topts, inbox.WithReconcile(d))
	}
	tr, err := inbox.NewFileTransport(a.root, topts...)
	if err != nil {
		return nil, err
	}
	reg, err := registry.Open(a.root, tr, registry.WithLogger(a.log), registry.WithTTL(ttl))
	if err != nil {
		tr.Close()
		return nil, err
	}
	return &files{tr: tr, reg: reg}, nil
}

func (f *files) Transport() inbox.Transport { return f.tr }
func (f *files) Registry() Registry         { return f.reg }

func (f *files) Location(agent string) string {
	return filepath.Join(f.tr.Dir(), inbox.InboxDir, agent)
}

func (f *files) RegistryLocation() string {
	return filepath.Join(f.tr.Dir(), registry.Dir)
}

func (f *files) Close() {
	f.reg.Close()
	f.tr.Close()
}

func (f *files) Count(ctx context.Context, agent string) (InboxCount, error) {
	w, a, b, err := f.tr.Count(ctx, agent)
	if err != nil {
		return InboxCount{}, err
	}
	aside, err := f.tr.AsideTotal(ctx, agent)
	return InboxCount{Waiting: w, Acked: a, Bad: b, Aside: aside,
		Summary: fmt.Sprintf("%d waiting, %d acknowledged (cur/), %d quarantined (bad/)", w, a, b) +
			asideSummary(aside, inbox.AsideDir+"/")}, err
}

func (f *files) Owner(ctx context.Context, agent string) (string, error) {
	return f.tr.Owner(ctx, agent)
}

func (f *files) Collect(ctx context.Context, olderThan time.Duration, now time.Time) (inbox.GCStats, error) {
	// Each part collects what it can whatever the other's failures.
	st, err := f.tr.GC(ctx, olderThan, now)
	n, rerr := f.reg.RemoveStaleStaging(ctx, now)
	st.Staging += n
	return st, errors.Join(err, rerr)
}

var (
	_ Counter           = (*files)(nil)
	_ Collector         = (*files)(nil)
	_ OwnerReader       = (*files)(nil)
	_ registry.Restorer = (*registry.Registry)(nil)
)

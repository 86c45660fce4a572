package inbox

import "github.com/parleyhq/parley/internal/drop"

// Test hooks for the package's external tests.

// DropWatchEvents makes the transport's watcher lose every event while drop
// is set, as an overflowing inotify queue would.
func DropWatchEvents(t *FileTransport, drop bool) {
	t.hub.mu.Lock()
	t.hub.dropEvents = drop
	t.hub.mu.Unlock()
}

// InjectWatchError feeds err to the transport's watcher loop, as fsnotify
// would report it.
func InjectWatchError(t *FileTransport, err error) { t.hub.inject(err) }

// OnRearm makes the transport's watcher call f, after a watcher error,
// while one inbox's watch is removed and not yet added again.
func OnRearm(t *FileTransport, f func()) {
	t.hub.mu.Lock()
	t.hub.rearming = f
	t.hub.mu.Unlock()
}

// AfterMarkRead makes every send call f with the inbox-relative name of
// its sender mark between reading the mark and raising it (nil: nothing).
// Tests that set it must not run in parallel with other sends.
func AfterMarkRead(f func(mark string)) { drop.AfterMarkRead = f }

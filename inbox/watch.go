package inbox

import (
	"errors"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// hub owns the one fsnotify watcher of a FileTransport and routes its
// events to the receivers, by inbox directory. One watcher serves every
// receiver of the transport: inotify instances are few (128 per user by
// default), watches are many.
//
// The goroutine started by start owns reading the watcher; mu guards the
// routing table and the watcher pointer. close stops the goroutine and waits
// for it.
type hub struct {
	log *slog.Logger

	mu     sync.Mutex
	w      *fsnotify.Watcher
	byDir  map[string]*fileReceiver
	closed bool
	done   chan struct{}
	wg     sync.WaitGroup

	// test hooks, guarded by mu
	dropEvents bool
	rearming   func() // called by failed between removing and adding a watch
}

func newHub(log *slog.Logger) *hub {
	return &hub{log: log, byDir: make(map[string]*fileReceiver), done: make(chan struct{})}
}

// add registers r and watches its directory. A failure to watch is logged
// and leaves r on reconciliation scans; r retries arming at each scan.
func (h *hub) add(r *fileReceiver) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.byDir[r.abs] = r
	h.armLocked(r)
}

// arm retries watching r's directory.
func (h *hub) arm(r *fileReceiver) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.byDir[r.abs] != r {
		return
	}
	h.armLocked(r)
}

func (h *hub) armLocked(r *fileReceiver) {
	if h.w == nil {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			h.log.Warn("inbox watcher unavailable; delivery falls back to reconciliation scans", "op", "watch", "err", err)
			r.setArmed(false)
			return
		}
		h.w = w
		h.wg.Add(1)
		go h.run(w)
	}
	if err := h.w.Add(r.abs); err != nil {
		h.log.Warn("cannot watch inbox; delivery falls back to reconciliation scans", "op", "watch", "agent", r.agent, "path", r.abs, "err", err)
		r.setArmed(false)
		return
	}
	r.setArmed(true)
}

// remove stops routing to r.
func (h *hub) remove(r *fileReceiver) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byDir[r.abs] != r {
		return
	}
	delete(h.byDir, r.abs)
	if h.w != nil {
		_ = h.w.Remove(r.abs)
	}
}

// close stops the watcher goroutine and waits for it.
func (h *hub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	close(h.done)
	w := h.w
	h.w = nil
	for _, r := range h.byDir {
		r.setArmed(false)
	}
	h.mu.Unlock()
	if w != nil {
		_ = w.Close()
	}
	h.wg.Wait()
}

// run reads one watcher until the hub closes or the watcher dies.
func (h *hub) run(w *fsnotify.Watcher) {
	defer h.wg.Done()
	for {
		select {
		case <-h.done:
			return
		case ev, ok := <-w.Events:
			if !ok {
				h.replace(w)
				return
			}
			// An inbox itself removed or renamed: its receiver looks at
			// once, and finds it gone (stillThere).
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				h.rescanDir(ev.Name)
				continue
			}
			// Only a create can mean "a message appeared": delivery by
			// link, a non-atomic writer, or a rename into the directory
			// (a staged foreign writer), which fsnotify reports as Create.
			if !ev.Has(fsnotify.Create) {
				continue
			}
			base := filepath.Base(ev.Name)
			if !IsMessageName(base) {
				continue
			}
			h.route(filepath.Dir(ev.Name), base)
		case err, ok := <-w.Errors:
			if !ok {
				h.replace(w)
				return
			}
			h.failed(w, err)
		}
	}
}

// rescanDir asks the receiver of dir, if dir is a watched inbox, to scan.
func (h *hub) rescanDir(dir string) {
	h.mu.Lock()
	r := h.byDir[dir]
	h.mu.Unlock()
	if r != nil {
		r.requestRescan()
	}
}

func (h *hub) route(dir, name string) {
	h.mu.Lock()
	r := h.byDir[dir]
	drop := h.dropEvents
	h.mu.Unlock()
	if r != nil && !drop {
		r.notify(name)
	}
}

// failed handles a watcher error. Either way every receiver rescans before
// it hands out another message, so no lost event can let a later message
// overtake an earlier one; after an error other than overflow the watches
// are re-armed.
func (h *hub) failed(w *fsnotify.Watcher, err error) {
	overflow := errors.Is(err, fsnotify.ErrEventOverflow)
	h.mu.Lock()
	defer h.mu.Unlock()
	if overflow {
		h.log.Warn("inbox watcher overflowed; rescanning every inbox", "op", "watch")
	} else {
		h.log.Warn("inbox watcher error; rescanning and re-arming", "op", "watch", "err", err)
	}
	for dir, r := range h.byDir {
		// Re-arm first, then distrust: a scan between the two would find
		// the inbox complete and trust events again while the watch is
		// down, and a message created then has no event.
		if !overflow && h.w == w {
			_ = w.Remove(dir)
			if h.rearming != nil {
				h.rearming()
			}
			if aerr := w.Add(dir); aerr != nil {
				r.setArmed(false)
			}
		}
		r.requestRescan()
	}
}

// replace swaps a watcher that stopped on its own for a fresh one.
func (h *hub) replace(w *fsnotify.Watcher) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.w != w {
		return
	}
	_ = w.Close()
	h.w = nil
	h.log.Warn("inbox watcher stopped; starting a new one", "op", "watch")
	for _, r := range h.byDir {
		h.armLocked(r) // first: see failed
		r.requestRescan()
	}
}

// inject feeds a watcher error to the hub, as the watcher would (tests).
func (h *hub) inject(err error) {
	h.mu.Lock()
	w := h.w
	h.mu.Unlock()
	h.failed(w, err)
}

package inbox

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/durable"
)

// maxPending bounds the names the watcher may queue for one receiver that
// is not receiving; past it the receiver rescans instead.
const maxPending = 1 << 16

// deferRetry is how often a malformed file within its quarantine grace is
// read again.
const deferRetry = 20 * time.Millisecond

// Listen opens agent's inbox for receiving. It takes an exclusive flock on
// <inbox>/.lock, so a second receiver, in this process or another, gets
// ErrBusy until the first closes (or its process dies: the kernel releases
// the lock).
func (t *FileTransport) Listen(ctx context.Context, agent string) (Receiver, error) {
	if err := ValidateName(agent); err != nil {
		return nil, err
	}
	dir := inboxPath(agent)
	if err := checkDir(t.root, dir); err != nil {
		return nil, &DeliveryError{Op: "listen", Agent: agent, Path: dir, Err: err}
	}
	for _, d := range []string{dir + "/" + CurDir, dir + "/" + BadDir} {
		if err := mkdirSafe(t.root, d); err != nil {
			return nil, &DeliveryError{Op: "listen", Agent: agent, Path: d, Err: err}
		}
	}
	lock, err := t.lockInbox(agent)
	if err != nil {
		return nil, err
	}
	d, err := t.root.Open(dir)
	if err != nil {
		lock.Close()
		return nil, &DeliveryError{Op: "listen", Agent: agent, Path: dir, Err: err}
	}
	r := &fileReceiver{
		t:        t,
		agent:    agent,
		dir:      dir,
		abs:      filepath.Join(t.dir, InboxDir, agent),
		d:        d,
		lock:     lock,
		known:    make(map[string]struct{}),
		out:      make(map[string]string),
		seen:     NewSeenSet(1 << 16),
		deferred: make(map[string]deferral),
		ignored:  make(map[string]struct{}),
		rescan:   true,
		wake:     make(chan struct{}, 1),
		closed:   make(chan struct{}),
	}
	if t.watch {
		t.hub.add(r)
	}
	return r, nil
}

// lockInbox takes the receiver lock of agent's inbox, or fails with ErrBusy.
func (t *FileTransport) lockInbox(agent string) (*os.File, error) {
	name := inboxPath(agent) + "/" + lockFile
	f, err := t.root.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &DeliveryError{Op: "listen", Agent: agent, Path: name, Err: err}
	}
	ok, err := tryLock(f)
	if err != nil || !ok {
		f.Close()
		if err == nil {
			err = ErrBusy
		}
		return nil, &DeliveryError{Op: "listen", Agent: agent, Path: name, Err: err}
	}
	return f, nil
}

// fileReceiver claims one inbox. The goroutine calling Receive and Ack owns
// the fields above mu; the hub's goroutine hands it names through pending.
type fileReceiver struct {
	t     *FileTransport
	agent string
	dir   string // relative to the root: inbox/<agent>
	abs   string // absolute, for the watcher
	d     *os.File
	lock  *os.File

	names    nameHeap            // known names, smallest first
	known    map[string]struct{} // in names or handed out
	out      map[string]string   // handed out, not acked: file name → id
	seen     *SeenSet            // ids handed out
	deferred map[string]deferral // malformed but young: retried until the grace ends
	ignored  map[string]struct{} // directories, links, files that could not be quarantined
	lastScan time.Time
	spare    []string

	mu      sync.Mutex
	pending []string
	rescan  bool
	armed   bool

	wake      chan struct{} // capacity 1: "pending or rescan changed"
	closed    chan struct{}
	closeOnce sync.Once
}

type deferral struct {
	retry, until time.Time
}

var _ Receiver = (*fileReceiver)(nil)

// notify is called by the hub with the name of a file that appeared.
func (r *fileReceiver) notify(name string) {
	r.mu.Lock()
	if len(r.pending) >= maxPending {
		r.rescan = true
	} else {
		r.pending = append(r.pending, name)
	}
	r.mu.Unlock()
	r.poke()
}

func (r *fileReceiver) requestRescan() {
	r.mu.Lock()
	r.rescan = true
	r.mu.Unlock()
	r.poke()
}

func (r *fileReceiver) setArmed(ok bool) {
	r.mu.Lock()
	r.armed = ok
	r.mu.Unlock()
}

func (r *fileReceiver) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *fileReceiver) isClosed() bool {
	select {
	case <-r.closed:
		return true
	default:
		return false
	}
}

// Receive hands out the smallest-named waiting message. See Receiver.
func (r *fileReceiver) Receive(ctx context.Context) (*Delivery, error) {
	for {
		if r.isClosed() {
			return nil, ErrClosed
		}
		r.absorb()
		d, err := r.next()
		if d != nil || err != nil {
			return d, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		timer := time.NewTimer(r.untilNextCheck())
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-timer.C:
		case <-r.closed:
		}
		timer.Stop()
	}
}

// absorb takes the names the watcher queued and, when a rescan was asked
// for or the reconciliation period passed, lists the directory.
func (r *fileReceiver) absorb() {
	r.mu.Lock()
	p := r.pending
	r.pending = r.spare[:0]
	rescan := r.rescan
	r.rescan = false
	armed := r.armed
	r.mu.Unlock()
	for _, name := range p {
		r.push(name)
	}
	r.spare = p[:0]
	if rescan || time.Since(r.lastScan) >= r.t.reconcile {
		if !armed && r.t.watch && !r.lastScan.IsZero() {
			r.t.hub.arm(r)
		}
		r.scan()
	}
	now := time.Now()
	for name, df := range r.deferred {
		if !now.Before(df.retry) {
			r.push(name)
		}
	}
}

func (r *fileReceiver) untilNextCheck() time.Duration {
	wait := time.Until(r.lastScan.Add(r.t.reconcile))
	for _, df := range r.deferred {
		wait = min(wait, time.Until(df.retry))
	}
	return max(wait, 0)
}

// scan lists the inbox and queues every message name not yet known.
func (r *fileReceiver) scan() {
	r.lastScan = time.Now()
	ents, err := listDir(r.d)
	if err != nil {
		r.t.log.Warn("cannot list inbox; will retry", "op", "scan", "agent", r.agent, "path", r.dir, "err", err)
		return
	}
	present := make(map[string]struct{}, len(r.ignored))
	for _, e := range ents {
		if !IsMessageName(e.name) {
			continue
		}
		switch e.kind {
		case kindDir, kindSymlink, kindOther:
			present[e.name] = struct{}{}
			r.ignore(e.name, e.kind.String())
			continue
		}
		if _, ok := r.ignored[e.name]; ok {
			present[e.name] = struct{}{}
		}
		r.push(e.name)
	}
	// Forget ignored names that are gone, so that a new file by that name
	// is read again.
	for name := range r.ignored {
		if _, ok := present[name]; !ok {
			delete(r.ignored, name)
		}
	}
}

func (r *fileReceiver) push(name string) {
	if _, ok := r.known[name]; ok {
		return
	}
	if _, ok := r.ignored[name]; ok {
		return
	}
	if df, ok := r.deferred[name]; ok && time.Now().Before(df.retry) {
		return
	}
	delete(r.deferred, name)
	r.known[name] = struct{}{}
	heap.Push(&r.names, name)
}

// ignore skips a *.json entry that is not a regular file, logging it once.
func (r *fileReceiver) ignore(name, what string) {
	if _, ok := r.ignored[name]; ok {
		return
	}
	r.ignored[name] = struct{}{}
	r.t.log.Warn("ignoring a "+what+" named like a message; it is never followed or read",
		"op", "claim", "agent", r.agent, "path", r.dir+"/"+name)
}

// next claims names in order until one yields a message.
func (r *fileReceiver) next() (*Delivery, error) {
	for r.names.Len() > 0 {
		name := heap.Pop(&r.names).(string)
		d, err := r.claim(name)
		if d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// claim reads one file. It returns a delivery, or nil when the file is
// gone, ignored, deferred, quarantined or a duplicate; an error only for a
// failure that is not the file's fault (the name is then tried again).
func (r *fileReceiver) claim(name string) (*Delivery, error) {
	forget := func() { delete(r.known, name) }
	f, err := openNoFollow(r.d, name)
	if err != nil {
		forget()
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, syscall.ELOOP):
			r.ignore(name, "symbolic link")
		case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EIO), errors.Is(err, syscall.ENXIO):
			r.quarantine(name, fmt.Sprintf("unreadable: %v", err))
		default:
			return nil, &DeliveryError{Op: "claim", Agent: r.agent, Path: r.dir + "/" + name, Err: err}
		}
		return nil, nil
	}
	data, fi, reason := readMessageFile(f)
	f.Close()
	if fi != nil && !fi.Mode().IsRegular() {
		forget()
		r.ignore(name, describeMode(fi.Mode()))
		return nil, nil
	}
	if reason != "" {
		forget()
		r.quarantine(name, reason)
		return nil, nil
	}
	m, err := Decode(data)
	if err != nil {
		forget()
		if age := time.Since(fi.ModTime()); age < r.t.grace && !errors.Is(err, ErrTooLarge) {
			now := time.Now()
			df, ok := r.deferred[name]
			if !ok {
				df.until = fi.ModTime().Add(r.t.grace)
			}
			df.retry = now.Add(deferRetry)
			r.deferred[name] = df
			return nil, nil
		}
		delete(r.deferred, name)
		r.quarantine(name, err.Error())
		return nil, nil
	}
	delete(r.deferred, name)
	if r.seen.Has(m.ID) {
		// A second copy of an id this receiver already handed out.
		if err := r.move(name, CurDir); err != nil {
			return nil, err
		}
		forget()
		r.t.log.Debug("duplicate message acknowledged", "op", "claim", "agent", r.agent, "msg_id", m.ID, "path", r.dir+"/"+name)
		return nil, nil
	}
	r.seen.Add(m.ID)
	r.out[name] = m.ID
	return &Delivery{Message: m, Handle: name}, nil
}

// readMessageFile reads a message file under the size limit, checked by
// size before reading and enforced while reading. reason is set when the
// file is to be quarantined.
func readMessageFile(f *os.File) (data []byte, fi os.FileInfo, reason string) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Sprintf("unreadable: %v", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, ""
	}
	if fi.Size() > MaxMessageBytes {
		return nil, fi, fmt.Sprintf("oversized: %d bytes, limit %d", fi.Size(), MaxMessageBytes)
	}
	// Read one byte past the stat size (and never past the limit) to see
	// whether the file grew since.
	data = make([]byte, 0, fi.Size()+1)
	lr := io.LimitReader(f, MaxMessageBytes+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fi, fmt.Sprintf("unreadable: %v", err)
		}
	}
	if len(data) > MaxMessageBytes {
		return nil, fi, fmt.Sprintf("oversized: more than %d bytes", MaxMessageBytes)
	}
	return data, fi, ""
}

// quarantine moves a file to bad/ beside a <file>.reason sidecar (written
// first, so that a crash in between leaves the file to be quarantined
// again), and logs it once. A file that cannot be moved is ignored until
// the receiver is reopened, so a broken file never loops.
func (r *fileReceiver) quarantine(name, reason string) {
	path := r.dir + "/" + name
	sidecar := r.dir + "/" + BadDir + "/" + name + ReasonSuffix
	text := fmt.Sprintf("%s\nfile: %s\nquarantined: %s\n", reason, name, time.Now().UTC().Format(TimeLayout))
	err := durable.WriteFile(r.t.fsys, sidecar, []byte(text), 0o600)
	if err == nil {
		err = r.move(name, BadDir)
	}
	if err != nil {
		r.ignored[name] = struct{}{}
		r.t.log.Error("cannot quarantine a bad message file; skipping it", "op", "quarantine", "agent", r.agent, "path", path, "reason", reason, "err", err)
		return
	}
	r.t.log.Warn("quarantined a bad message file", "op", "quarantine", "agent", r.agent, "path", r.dir+"/"+BadDir+"/"+name, "reason", reason)
}

// move renames a file of the inbox into one of its subdirectories and
// fsyncs the inbox directory.
func (r *fileReceiver) move(name, sub string) error {
	if err := r.t.fsys.Rename(r.dir+"/"+name, r.dir+"/"+sub+"/"+name); err != nil {
		return &DeliveryError{Op: "move", Agent: r.agent, Path: r.dir + "/" + name, Err: err}
	}
	if err := durable.SyncDir(r.t.fsys, r.dir); err != nil {
		return &DeliveryError{Op: "move", Agent: r.agent, Path: r.dir, Err: err}
	}
	return nil
}

// Ack moves the delivery's file to cur/. See Receiver.
func (r *fileReceiver) Ack(ctx context.Context, d *Delivery) error {
	if r.isClosed() {
		return ErrClosed
	}
	if d == nil {
		return &DeliveryError{Op: "ack", Agent: r.agent, Err: ErrUnknownDelivery}
	}
	if _, ok := r.out[d.Handle]; !ok {
		return &DeliveryError{Op: "ack", Agent: r.agent, Path: d.Handle, Err: ErrUnknownDelivery}
	}
	if err := r.move(d.Handle, CurDir); err != nil {
		return err
	}
	delete(r.out, d.Handle)
	delete(r.known, d.Handle)
	return nil
}

// Close releases the inbox lock. Unacked messages stay in the inbox and go
// to the next receiver. Close may be called from any goroutine; a blocked
// Receive returns ErrClosed.
func (r *fileReceiver) Close() error {
	r.closeOnce.Do(func() {
		close(r.closed)
		if r.t.watch {
			r.t.hub.remove(r)
		}
		r.lock.Close()
		r.d.Close()
	})
	return nil
}

// nameHeap is a min-heap of file names.
type nameHeap []string

func (h nameHeap) Len() int           { return len(h) }
func (h nameHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h nameHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *nameHeap) Push(x any)        { *h = append(*h, x.(string)) }
func (h *nameHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

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
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/internal/regfile"
)

// maxPending bounds the names the watcher may queue for one receiver that
// is not receiving; past it the receiver rescans instead.
const maxPending = 1 << 16

// dedupWindow is how many recent ids a receiver remembers to drop
// duplicates (retried sends). Kept small: one process may hold a thousand
// receivers.
const dedupWindow = 2048

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
		if err := mkdirSafe(t.root, t.fsys, d); err != nil {
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
		seen:     NewSeenSet(dedupWindow),
		deferred: make(map[string]deferral),
		ignored:  make(map[string]struct{}),
		rescan:   true,
		untrust:  true,
		wake:     make(chan struct{}, 1),
		closed:   make(chan struct{}),
	}
	if t.watch {
		t.hub.add(r)
	}
	return r, nil
}

// lockInbox takes the receiver lock of agent's inbox, or fails with ErrBusy.
// lockGrace is how long a refused inbox lock is retried before the inbox
// counts as busy.
const lockGrace = time.Second

func (t *FileTransport) lockInbox(agent string) (*os.File, error) {
	name := inboxPath(agent) + "/" + lockFile
	f, err := t.root.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &DeliveryError{Op: "listen", Agent: agent, Path: name, Err: err}
	}
	ok, err := flock.Try(f, flock.Exclusive)
	// A lock another process holds is busy at once; but a lock released a
	// moment ago can still be held by a child this process is forking
	// (between fork and exec the child shares the open file description),
	// so a refused lock is retried for a short grace before it counts.
	for deadline := time.Now().Add(lockGrace); err == nil && !ok && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		ok, err = flock.Try(f, flock.Exclusive)
	}
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
// the fields above mu; the hub's goroutine hands it names through pending
// and held.
//
// Order. One sender's messages must be claimed in send order, and a sender
// creates its next message only after the previous one is in place. The
// receiver therefore only ever queues (into names, a min-heap) a name whose
// same-sender predecessors it already knows ("known" is prefix-closed):
//   - the watcher's events arrive in creation order, so a name from an event
//     is safe while no event was lost ("trusted");
//   - a directory read is no snapshot, so a name found by a scan is safe
//     only when confirmed by a second read: x in both reads means every
//     predecessor of x existed throughout the second read, so it is in that
//     read too. Names of the second read that the first did not show (B,
//     less the names already known) may lack predecessors; confirmed names
//     are queued only below the smallest of them (the barrier). Names a
//     trusted watcher will report anyway wait for their events;
//   - after a watcher overflow or error, event names are held back until a
//     scan finds nothing unknown outside them; then the scan's names and the
//     held ones are queued together and events are trusted again.
type fileReceiver struct {
	t     *FileTransport
	agent string
	dir   string // relative to the root: inbox/<agent>
	abs   string // absolute, for the watcher
	d     *os.File
	lock  *os.File

	names    nameHeap            // queued names, smallest first
	known    map[string]struct{} // queued or handed out
	out      map[string]string   // handed out, not acked: file name → id
	seen     *SeenSet            // ids handed out
	deferred map[string]deferral // malformed but young: retried until the grace ends
	ignored  map[string]struct{} // directories, links, files that could not be quarantined
	scanDue  time.Time           // when the next scan runs
	spare    []string

	mu      sync.Mutex
	pending []string // names from events, while trusted
	held    []string // names from events, while not trusted
	untrust bool     // not trusted: an event may have been lost; hold events
	rescan  bool     // scan at once
	armed   bool

	gone error // the inbox was removed or replaced under the receiver (ErrInboxGone)

	onQuarantine func(Quarantine) // told of each file moved to bad/, or nil

	wake      chan struct{} // capacity 1: "pending or rescan changed"
	closed    chan struct{}
	closeOnce sync.Once
}

// retryScan is how soon an unconfirmed scan is repeated.
const retryScan = 5 * time.Millisecond

type deferral struct {
	retry, until time.Time
}

var (
	_ Receiver           = (*fileReceiver)(nil)
	_ QuarantineNotifier = (*fileReceiver)(nil)
)

// NotifyQuarantine sets the function told of each file moved to bad/, or
// that could not be. See QuarantineNotifier.
func (r *fileReceiver) NotifyQuarantine(fn func(Quarantine)) { r.onQuarantine = fn }

// notify is called by the hub, in event order, with the name of a file that
// appeared.
func (r *fileReceiver) notify(name string) {
	r.mu.Lock()
	switch {
	case len(r.pending)+len(r.held) >= maxPending:
		r.untrust, r.rescan = true, true // drop it: the rescan will find it
	case r.untrust:
		r.held = append(r.held, name)
	default:
		r.pending = append(r.pending, name)
	}
	r.mu.Unlock()
	r.poke()
}

// requestRescan is called by the hub when events may have been lost: from
// now on event names are held until a scan confirms them.
func (r *fileReceiver) requestRescan() {
	r.mu.Lock()
	r.untrust, r.rescan = true, true
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
		if r.gone != nil {
			return nil, r.gone
		}
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

// absorb queues the names the watcher delivered and, when a rescan was
// asked for or a scan is due, scans the directory.
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
	if rescan || !time.Now().Before(r.scanDue) {
		if !armed && r.t.watch && !r.scanDue.IsZero() {
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
	wait := time.Until(r.scanDue)
	for _, df := range r.deferred {
		wait = min(wait, time.Until(df.retry))
	}
	return max(wait, 0)
}

// isKnown: queued, handed out, deferred or ignored.
func (r *fileReceiver) isKnown(name string) bool {
	if _, ok := r.known[name]; ok {
		return true
	}
	if _, ok := r.deferred[name]; ok {
		return true
	}
	_, ok := r.ignored[name]
	return ok
}

// stillThere checks that inbox/<agent> is still the directory the
// receiver opened: removed, or removed and made again, it is where
// senders now write and where this receiver never looks (and its lock
// is not the new one's), so the receiver must stop.
func (r *fileReceiver) stillThere() error {
	held, err := r.d.Stat()
	if err != nil {
		return nil // cannot tell: the scan says what is wrong
	}
	now, err := r.t.root.Lstat(r.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), err == nil && !os.SameFile(held, now):
		return &DeliveryError{Op: "listen", Agent: r.agent, Path: r.dir, Err: ErrInboxGone}
	}
	return nil
}

// scan reads the directory twice and queues the names the second read
// confirms, below the barrier (see fileReceiver). When nothing unknown is
// left outside the held event names, the held names are queued too and
// events are trusted again. An unconfirmed scan is retried soon.
func (r *fileReceiver) scan() {
	r.scanDue = time.Now().Add(r.t.reconcile)
	if r.gone = r.stillThere(); r.gone != nil {
		return
	}
	first, err := listDir(r.d)
	var second []dirEntry
	if err == nil {
		second, err = listDir(r.d)
	}
	if err != nil {
		r.t.log.Warn("cannot list inbox; will retry", "op", "scan", "agent", r.agent, "path", r.dir, "err", err)
		return
	}
	inFirst := make(map[string]struct{}, len(first))
	for _, e := range first {
		inFirst[e.name] = struct{}{}
	}
	// Names only the second read shows, not yet known, may lack
	// predecessors: the smallest of them is the barrier.
	var unconfirmed []string
	present := make(map[string]struct{}, len(r.ignored))
	for _, e := range second {
		if !IsMessageName(e.name) {
			continue
		}
		if e.kind == kindDir || e.kind == kindSymlink || e.kind == kindOther {
			present[e.name] = struct{}{}
			r.ignore(e.name, regfile.Kind(e.typ))
			continue
		}
		if _, ok := r.ignored[e.name]; ok {
			present[e.name] = struct{}{}
		}
		if _, ok := inFirst[e.name]; !ok && !r.isKnown(e.name) {
			unconfirmed = append(unconfirmed, e.name)
		}
	}
	r.mu.Lock()
	held := r.held
	heldSet := make(map[string]struct{}, len(held))
	for _, n := range held {
		heldSet[n] = struct{}{}
	}
	barrier, outsideHeld := "", ""
	for _, n := range unconfirmed {
		if barrier == "" || n < barrier {
			barrier = n
		}
		if _, ok := heldSet[n]; !ok && (outsideHeld == "" || n < outsideHeld) {
			outsideHeld = n
		}
	}
	// Not trusted, and nothing unknown outside the held event names: every
	// predecessor of a confirmed or held name is confirmed or held, so all
	// of them go in together and events are trusted again.
	// Without a watch, stay untrusted: scans are all there is.
	if r.untrust && outsideHeld == "" {
		barrier = ""
		r.held = nil
		r.untrust = !r.armed
	} else {
		held = nil
	}
	// Names held back by the barrier: a trusted watcher reports them;
	// otherwise scan again soon.
	if barrier != "" && (r.untrust || !r.armed) {
		r.scanDue = time.Now().Add(min(retryScan, r.t.reconcile))
	}
	r.mu.Unlock()
	for _, e := range second {
		if _, ok := inFirst[e.name]; !ok || !IsMessageName(e.name) {
			continue
		}
		if e.kind == kindFile && (barrier == "" || e.name < barrier) {
			r.push(e.name)
		}
	}
	for _, n := range held {
		r.push(n)
	}
	// Forget ignored names that are gone from both reads, so that a new
	// file by that name is read again.
	for name := range r.ignored {
		_, in1 := inFirst[name]
		if _, in2 := present[name]; !in1 && !in2 {
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
	r.t.log.Warn("ignoring "+what+" named like a message; it is never followed or read",
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
// failure that is not the file's fault (EMFILE, ENOMEM...): the name then
// stays first in the queue and is tried again by the next Receive, so that
// none of its sender's later messages overtakes it.
func (r *fileReceiver) claim(name string) (*Delivery, error) {
	forget := func() { delete(r.known, name) }
	f, err := openNoFollow(r.d, name)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, syscall.ELOOP):
			r.ignore(name, regfile.Kind(fs.ModeSymlink))
		case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EIO), errors.Is(err, syscall.ENXIO):
			r.quarantine(name, fmt.Sprintf("unreadable: %v", err))
		default:
			heap.Push(&r.names, name) // still known: queued again
			return nil, &DeliveryError{Op: "claim", Agent: r.agent, Path: r.dir + "/" + name, Err: err}
		}
		forget()
		return nil, nil
	}
	data, fi, reason := readMessageFile(f)
	f.Close()
	if fi != nil && !fi.Mode().IsRegular() {
		forget()
		r.ignore(name, regfile.Kind(fi.Mode()))
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
		if err := r.acknowledge(name, m.ID); err != nil {
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
// the receiver is reopened, so a broken file never loops; either way the
// receiver's notifier is told, once.
func (r *fileReceiver) quarantine(name, reason string) {
	path := r.dir + "/" + name
	target := r.badName(name)
	sidecar := r.dir + "/" + BadDir + "/" + target + ReasonSuffix
	text := fmt.Sprintf("%s\nfile: %s\nquarantined: %s\n", reason, name, time.Now().UTC().Format(TimeLayout))
	err := durable.WriteFile(r.t.fsys, sidecar, []byte(text), 0o600)
	if err == nil {
		err = r.moveTo(name, BadDir, target)
	}
	if err != nil {
		r.ignored[name] = struct{}{}
		r.t.log.Error("cannot quarantine a bad message file; skipping it", "op", "quarantine", "agent", r.agent, "path", path, "reason", reason, "err", err)
		if r.onQuarantine != nil {
			r.onQuarantine(Quarantine{Agent: r.agent, Where: filepath.Join(r.t.dir, r.dir, name), Reason: reason, Err: err})
		}
		return
	}
	r.t.log.Warn("quarantined a bad message file", "op", "quarantine", "agent", r.agent, "path", r.dir+"/"+BadDir+"/"+target, "reason", reason)
	if r.onQuarantine != nil {
		r.onQuarantine(Quarantine{Agent: r.agent, Where: filepath.Join(r.t.dir, r.dir, BadDir, target), Reason: reason})
	}
}

// badName returns the name under which a file called name is quarantined:
// name itself, unless bad/ already holds a file of that name (a foreign
// writer that reuses its names), then name.2, name.3...: a quarantine
// never replaces an earlier one. Only this receiver, which holds the inbox,
// moves files into bad/.
func (r *fileReceiver) badName(name string) string {
	target := name
	for n := 2; n < 1000; n++ {
		if _, err := r.t.root.Lstat(r.dir + "/" + BadDir + "/" + target); err != nil {
			break // free (or bad/ unusable: the move will say so)
		}
		target = fmt.Sprintf("%s.%d", name, n)
	}
	return target
}

// move renames a file of the inbox into one of its subdirectories and
// fsyncs the inbox directory, so that the file is not claimed again after
// a crash. A file moved to bad/ is the only copy of what it holds: bad/ is
// fsynced too, first, so that a crash never leaves it in neither directory
// (at worst in both, and it is quarantined again). An acknowledged
// message's copy in cur/ is an audit copy; it is not worth an fsync per
// message.
func (r *fileReceiver) move(name, sub string) error { return r.moveTo(name, sub, name) }

// moveTo is move to another name in sub.
func (r *fileReceiver) moveTo(name, sub, target string) error {
	if err := r.t.fsys.Rename(r.dir+"/"+name, r.dir+"/"+sub+"/"+target); err != nil {
		return &DeliveryError{Op: "move", Agent: r.agent, Path: r.dir + "/" + name, Err: err}
	}
	if sub == BadDir {
		if err := durable.SyncDir(r.t.fsys, r.dir+"/"+sub); err != nil {
			return &DeliveryError{Op: "move", Agent: r.agent, Path: r.dir + "/" + sub, Err: err}
		}
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
	if err := r.acknowledge(d.Handle, d.Message.ID); err != nil {
		return err
	}
	delete(r.out, d.Handle)
	delete(r.known, d.Handle)
	return nil
}

// acknowledge stamps the message file name (of message id) with now as
// its modification time, then moves it to cur/: GC ages the audit copy from
// its acknowledgement, so a message handled long after it was sent is kept
// as long as any other. The stamp comes first so that the copy is never in
// cur/ with its writing time, where a GC running meanwhile would collect a
// message acknowledged a moment ago as an old one; a waiting message's
// time means nothing once it decoded. The stamp is the copy's age only: a
// failure leaves it aged from its writing, and the acknowledgement stands.
func (r *fileReceiver) acknowledge(name, id string) error {
	path := r.dir + "/" + name
	if err := r.t.root.Chtimes(path, time.Time{}, r.t.now()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		// (A file gone is the move's error to say.)
		r.t.log.Warn("cannot stamp the acknowledgement time; gc ages this copy from its writing", "op", "ack", "agent", r.agent, "msg_id", id, "path", path, "err", err)
	}
	return r.move(name, CurDir)
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

package inbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/parleyhq/parley/internal/durable"
)

// StaleStaging is how old a staging file must be before GC removes it
// (durable.StaleStaging, the one age every collector uses).
const StaleStaging = durable.StaleStaging

// GCStats counts what GC removed.
type GCStats struct {
	Acked   int // files removed from cur/
	Staging int // stale staging files removed
}

// Agents lists the names that have an inbox, sorted. Entries that are not
// valid names or not directories are skipped.
func (t *FileTransport) Agents(ctx context.Context) ([]string, error) {
	d, err := t.root.Open(InboxDir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	ents, err := listDir(d)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if ValidateName(e.name) != nil {
			continue
		}
		if e.kind == kindDir || (e.kind == kindUnknown && checkDir(t.root, inboxPath(e.name)) == nil) {
			names = append(names, e.name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// GC removes acknowledged messages older than olderThan from every cur/,
// and staging files older than StaleStaging from every inbox and its cur/
// and bad/. Unclaimed messages, quarantined files and mail moved aside are
// never removed. An acknowledged message's age is how long ago it was
// acknowledged (its modification time, which Ack sets), not when it was
// sent: a message handled late keeps its audit copy as long as any. A folder or a file it cannot
// remove does not stop it: it collects the rest and returns every failure
// (joined), with what it removed.
func (t *FileTransport) GC(ctx context.Context, olderThan time.Duration, now time.Time) (GCStats, error) {
	var st GCStats
	agents, err := t.Agents(ctx)
	if err != nil {
		return st, err
	}
	var errs []error
	for _, a := range agents {
		if err := ctx.Err(); err != nil {
			return st, errors.Join(append(errs, err)...)
		}
		dir := inboxPath(a)
		for _, sub := range []string{dir, dir + "/" + CurDir, dir + "/" + BadDir} {
			n, m, err := t.gcDir(sub, sub == dir+"/"+CurDir, now.Add(-olderThan), now.Add(-StaleStaging))
			st.Acked += n
			st.Staging += m
			if err != nil {
				errs = append(errs, &DeliveryError{Op: "gc", Agent: a, Path: sub, Err: err})
			}
		}
	}
	return st, errors.Join(errs...)
}

func (t *FileTransport) gcDir(dir string, acked bool, msgCutoff, stagingCutoff time.Time) (msgs, staging int, err error) {
	if err := checkDir(t.root, dir); err != nil {
		if errors.Is(err, ErrNotFound) {
			return 0, 0, nil
		}
		return 0, 0, err
	}
	d, err := t.root.Open(dir)
	if err != nil {
		return 0, 0, err
	}
	defer d.Close()
	ents, err := listDir(d)
	if err != nil {
		return 0, 0, err
	}
	modTime := func(name string) (time.Time, bool) {
		fi, err := t.root.Lstat(dir + "/" + name)
		if err != nil || !fi.Mode().IsRegular() {
			return time.Time{}, false
		}
		return fi.ModTime(), true
	}
	// remove removes one file; the first failure is the folder's error,
	// the others only counted in it, and the rest of the folder is done.
	failed := 0
	remove := func(name string) bool {
		rerr := t.fsys.Remove(dir + "/" + name)
		if rerr == nil || errors.Is(rerr, fs.ErrNotExist) {
			return true
		}
		if failed++; err == nil {
			err = rerr
		}
		return false
	}
	for _, e := range ents {
		if e.kind == kindDir {
			continue
		}
		switch {
		case IsStagingName(e.name):
			if mt, ok := modTime(e.name); ok && mt.Before(stagingCutoff) && remove(e.name) {
				staging++
			}
		case acked && IsMessageName(e.name):
			// Its acknowledgement stamped it (Ack): its age in cur/.
			if at, ok := modTime(e.name); ok && at.Before(msgCutoff) && remove(e.name) {
				msgs++
			}
		}
	}
	if failed > 1 {
		err = fmt.Errorf("%w (and %d more files could not be removed)", err, failed-1)
	}
	return msgs, staging, err
}

// IsStagingName recognises internal/durable's staging names,
// .<name>.<12 hex>.tmp: what a crashed writer leaves behind, never a
// message (durable.IsStagingName).
func IsStagingName(name string) bool { return durable.IsStagingName(name) }

package inbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/internal/durable"
)

// StaleStaging is how old a staging file must be before GC removes it
// (durable.StaleStaging, the one age every collector uses).
const StaleStaging = durable.StaleStaging

// GCStats counts what GC removed.
type GCStats struct {
	Acked   int // files removed from cur/
	Staging int // stale staging files removed
	Marks   int // sender marks removed that no waiting message needed
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
// staging files older than StaleStaging from every inbox and its cur/
// and bad/, and the sender marks that no waiting message needs (see
// gcMarks): a send that failed or was killed leaves its mark. Unclaimed messages, quarantined files and mail moved aside are
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
		n, err := t.gcMarks(dir, now.Add(-StaleStaging))
		st.Marks += n
		if err != nil {
			errs = append(errs, &DeliveryError{Op: "gc", Agent: a, Path: dir, Err: err})
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

// gcMarks removes from the inbox dir the sender marks (.from-<sender>,
// see drop.Stamp) that no waiting message needs, and returns how many.
//
// A mark orders its sender's next message above the sender's last one in
// the inbox, which matters only while that message waits there: a mark is
// its sender's last stamp, so when every waiting message's name is stamped
// above it (or none waits), none of them is that sender's and the mark
// can go; the next message from that sender then starts a new one. A
// mark is kept while it is younger than cutoff (its modification time is
// its stamp): a send in progress has just raised it, or a clock stepped
// back put it ahead. A send that failed (a full disk) or was killed after
// raising its mark, before its message was linked, leaves such a mark
// behind with nothing of its own waiting. Only regular files with a mark's
// name are removed; a failure is the folder's error, and the rest are
// done.
func (t *FileTransport) gcMarks(dir string, cutoff time.Time) (removed int, err error) {
	d, err := t.root.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	defer d.Close()
	ents, err := listDir(d)
	if err != nil {
		return 0, err
	}
	// The lowest stamp waiting: a mark at or above it may be its sender's.
	lowMs, lowSeq, waiting := int64(0), 0, false
	var marks []string
	for _, e := range ents {
		if e.kind == kindDir {
			continue
		}
		if from, ok := strings.CutPrefix(e.name, drop.MarkPrefix); ok {
			if ValidateName(from) == nil {
				marks = append(marks, e.name)
			}
			continue
		}
		if !IsMessageName(e.name) {
			continue
		}
		fn, ok := ParseFileName(e.name)
		if !ok {
			continue // not stamped: sorts after every stamped name
		}
		seq := max(fn.Seq, 0)
		if !waiting || fn.Millis < lowMs || (fn.Millis == lowMs && seq < lowSeq) {
			lowMs, lowSeq, waiting = fn.Millis, seq, true
		}
	}
	var errs []error
	for _, name := range marks {
		fi, err := t.root.Lstat(dir + "/" + name)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(cutoff) {
			continue
		}
		ms, seq := drop.MarkStamp(fi.ModTime())
		if waiting && (ms > lowMs || (ms == lowMs && seq >= lowSeq)) {
			continue // a waiting message may be this sender's last
		}
		if err := t.fsys.Remove(dir + "/" + name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// IsStagingName recognises internal/durable's staging names,
// .<name>.<12 hex>.tmp: what a crashed writer leaves behind, never a
// message (durable.IsStagingName).
func IsStagingName(name string) bool { return durable.IsStagingName(name) }

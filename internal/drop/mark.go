package drop

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/regfile"
)

// A sender mark remembers, in the recipient's inbox, the last stamp a
// sender's message was given there, so that the next message from that
// sender, from any process, is stamped above it: one sender's messages are
// claimed in send order even when the wall clock steps back between two
// send processes.
//
// The mark is the empty file .from-<sender>, and the stamp (ms13, seq6) is
// its modification time: the Unix second, and as nanoseconds the
// millisecond times 10⁶ plus the sequence. Reading it is one lstat and
// raising it one utimensat, with no data written and no file created after
// the first message: the cheapest state a send can keep. It is metadata,
// changed before the message is linked into the same directory, so on a
// journalling file system (ext4, xfs) the directory fsync that makes the
// message durable makes the mark durable first. A file system that keeps
// coarser times than nanoseconds stores a lower mark; the wall clock then
// orders the sends as it did without one.
//
// The order is that of sends that do not overlap in time (one returns
// before the next starts). Two processes sending as the same name at the
// same moment have no order between them to keep.

// MarkPrefix starts a sender mark's name; the dot keeps it from ever being
// read as a message. inbox's gc removes a mark once no waiting message
// needs it.
const MarkPrefix = ".from-"

// MaxMarkMillis bounds the stamps a mark holds: the stamp after it must
// still be a modification time Go can set (nanoseconds since 1970 in an
// int64, which end in April 2262), and within the 13 digits of a message
// name. A mark beyond it (planted) is ignored.
const MaxMarkMillis = math.MaxInt64/1_000_000 - 1

// SenderMark is the name of from's sender mark in an inbox.
func SenderMark(from string) string { return MarkPrefix + from }

// markMu makes reading and raising a mark one step within this process,
// so that a mark only moves up.
var markMu sync.Mutex

// AfterMarkRead, when set (by inbox's tests), runs between reading a mark
// and raising it: where a gc in another process may remove it.
var AfterMarkRead func(name string)

// Stamp gives the next message from "from" into the inbox d its stamp
// and raises the sender's mark there to it. Anything but a regular file in
// the mark's place (a planted symbolic link, a FIFO, an empty directory) is
// removed, never followed; what cannot be removed fails the send.
func Stamp(d *os.Root, from string, now time.Time) (int64, int, error) {
	markMu.Lock()
	defer markMu.Unlock()
	name := SenderMark(from)
	var lastMs int64
	var lastSeq int
	exists := false
	switch fi, err := d.Lstat(name); {
	case err == nil && fi.Mode().IsRegular():
		exists = true
		lastMs, lastSeq = MarkStamp(fi.ModTime())
	case err == nil:
		if rerr := d.Remove(name); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return 0, 0, unsafePath(regfile.Kind(fi.Mode()) + " in place of the sender mark " + name)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return 0, 0, err
	}
	if AfterMarkRead != nil {
		AfterMarkRead(name)
	}
	// Above both the process's last stamp and the mark. The mark raises
	// this message's stamp only, never the process's: a mark planted far
	// ahead in one inbox moves nothing else the process sends.
	ms, seq := NextStamp(now)
	if lastMs > ms || (lastMs == ms && lastSeq >= seq) {
		ms, seq = lastMs, lastSeq+1
		if seq > MaxSeq {
			ms, seq = ms+1, 0
		}
	}
	if !exists {
		if err := createMark(d, name); err != nil {
			return 0, 0, err
		}
	}
	// The zero access time is left as it is.
	err := d.Chtimes(name, time.Time{}, MarkTime(ms, seq))
	if errors.Is(err, fs.ErrNotExist) {
		// gc removed it after it was read (no waiting message needed
		// it): this stamp is above it all the same.
		if err = createMark(d, name); err == nil {
			err = d.Chtimes(name, time.Time{}, MarkTime(ms, seq))
		}
	}
	if err != nil {
		return 0, 0, err
	}
	return ms, seq, nil
}

// createMark creates the empty mark name in d, unless it exists.
func createMark(d *os.Root, name string) error {
	f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// MarkTime encodes a stamp as a modification time.
func MarkTime(ms int64, seq int) time.Time {
	return time.Unix(ms/1000, (ms%1000)*1_000_000+int64(seq))
}

// MarkStamp decodes a modification time; a time that is no stamp of a
// message name (before 1970, past 13 digits) is zero.
func MarkStamp(t time.Time) (int64, int) {
	sec, ns := t.Unix(), int64(t.Nanosecond())
	if sec < 0 || sec > MaxMarkMillis/1000 {
		return 0, 0
	}
	ms := sec*1000 + ns/1_000_000
	if ms > MaxMarkMillis {
		return 0, 0
	}
	return ms, int(ns % 1_000_000)
}

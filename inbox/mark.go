package inbox

import (
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/durable"
)

// A sender mark remembers, in the recipient's inbox, the last stamp a
// sender's message was given there: the file .from-<sender> holding
// "<ms13>-<seq6>\n". The next message from that sender, from any process,
// is stamped above it, so one sender's messages are claimed in send order
// even when the wall clock steps back between two send processes. Reading
// and replacing the mark costs a few system calls and no fsync: the mark is
// replaced (staged and renamed) in the inbox directory before the message
// is linked there, and the one directory fsync of the delivery makes both
// durable, the mark first.
//
// The order is that of sends that do not overlap in time (one returns
// before the next starts). Two processes sending as the same name at the
// same moment have no order between them to keep.

// markPrefix starts a sender mark's name; the dot keeps it from ever being
// read as a message, and gc leaves it alone (it is not a staging name).
const markPrefix = ".from-"

// maxMarkBytes bounds what is read of a mark (a valid one is 21 bytes).
const maxMarkBytes = 64

func senderMark(from string) string { return markPrefix + from }

// markMu makes reading, raising and replacing a mark one step within this
// process, so that a mark only moves up.
var markMu sync.Mutex

// stampFor gives the next message from "from" into the inbox d its stamp,
// and records it in the sender's mark there (written through fsys, which
// is rooted at the same inbox directory).
func stampFor(d *os.Root, fsys durable.FS, from string, now time.Time) (int64, int, error) {
	markMu.Lock()
	defer markMu.Unlock()
	name := senderMark(from)
	lastMs, lastSeq := readMark(d, name)
	ms, seq := nextStamp(now, lastMs, lastSeq)
	if err := writeMark(fsys, name, ms, seq); err != nil {
		return 0, 0, err
	}
	return ms, seq, nil
}

// readMark returns the stamp in the mark, or zero when there is none or
// it is not a stamp (a foreign or planted file is ignored, never followed:
// a symbolic link in its place is not read, and a FIFO does not block).
func readMark(d *os.Root, name string) (int64, int) {
	f, err := d.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	var buf [maxMarkBytes]byte
	n, _ := io.ReadFull(f, buf[:])
	ms, seq, ok := parseMark(buf[:n])
	if !ok {
		return 0, 0
	}
	return ms, seq
}

// parseMark decodes "<ms13>-<seq6>\n".
func parseMark(b []byte) (int64, int, bool) {
	if len(b) != 21 || b[13] != '-' || b[20] != '\n' || !allDigits(string(b[:13])) || !allDigits(string(b[14:20])) {
		return 0, 0, false
	}
	ms, err := strconv.ParseInt(string(b[:13]), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	seq, _ := strconv.Atoi(string(b[14:20]))
	return ms, seq, true
}

// writeMark replaces the mark with (ms, seq): staged under a dot-name and
// renamed over it, never written in place, so a reader sees the old stamp
// or the new one. It is not fsynced here (see the comment on marks).
func writeMark(fsys durable.FS, name string, ms int64, seq int) (err error) {
	var b [21]byte
	copy(b[:], formatFileName(ms, seq, "")[:20])
	b[20] = '\n'
	tmp := durable.StagingName(name)
	f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = fsys.Remove(tmp)
		}
	}()
	if _, err = f.Write(b[:]); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	err = fsys.Rename(tmp, name)
	return err
}

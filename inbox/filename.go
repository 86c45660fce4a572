package inbox

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MessageSuffix ends every message file's name; staging files never end in it.
const MessageSuffix = ".json"

// maxFileNameLen bounds the names the receiver will consider (a Linux file
// name is at most 255 bytes).
const maxFileNameLen = 255

// FileName is a decoded message file name. parley writes
// <ms13>-<seq6>-<rand4>.json; pi-messenger writes <ms13>-<anything>.json.
type FileName struct {
	Millis int64  // the 13-digit Unix-millisecond prefix
	Seq    int    // the per-process sequence number; -1 when the name has none
	Rand   string // the random tail; for a foreign name, everything after the millisecond prefix
	Parley bool   // the name has parley's exact form
}

// ParseFileName decodes a message file name. It accepts any name that starts
// with 13 digits and ends in ".json" (pi-messenger's form) and reports
// whether it has parley's exact <ms13>-<seq6>-<rand4>.json form. It is the
// decoder behind ordering and gc's age check; it never touches the disk.
func ParseFileName(name string) (FileName, bool) {
	if len(name) < 13+len(MessageSuffix) || len(name) > maxFileNameLen || !strings.HasSuffix(name, MessageSuffix) {
		return FileName{}, false
	}
	if strings.ContainsAny(name, "/\x00") {
		return FileName{}, false
	}
	for i := 0; i < 13; i++ {
		if name[i] < '0' || name[i] > '9' {
			return FileName{}, false
		}
	}
	ms, err := strconv.ParseInt(name[:13], 10, 64)
	if err != nil {
		return FileName{}, false
	}
	fn := FileName{Millis: ms, Seq: -1, Rand: strings.TrimSuffix(name[13:], MessageSuffix)}
	// <ms13>-<seq6>-<rand4>.json is 13+1+6+1+4+5 = 30 bytes.
	if len(name) == 30 && name[13] == '-' && name[20] == '-' {
		seq, rnd := name[14:20], name[21:25]
		if allDigits(seq) && isLowerHex(rnd) {
			n, _ := strconv.Atoi(seq)
			fn.Seq, fn.Rand, fn.Parley = n, rnd, true
		}
	}
	return fn, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}

// IsMessageName reports whether a directory entry's name is read as a
// message: it ends in ".json", does not start with a dot (staging files and
// parley's own .lock and .owner never do), and has no path separator. Names
// need not have parley's form: any *.json a foreign writer renames in is a
// message, ordered by name.
func IsMessageName(name string) bool {
	return len(name) > len(MessageSuffix) && len(name) <= maxFileNameLen &&
		strings.HasSuffix(name, MessageSuffix) && name[0] != '.' &&
		!strings.ContainsAny(name, "/\x00")
}

// stamp hands out the (millisecond, sequence) pairs of this process's
// message names. The pair is strictly increasing even when the wall clock
// steps back: the millisecond never decreases, and the sequence orders the
// names given out within one millisecond.
var stamp struct {
	sync.Mutex
	ms  int64
	seq int
}

const maxSeq = 999999

// nextStamp returns the process's next stamp.
func nextStamp(now time.Time) (int64, int) {
	ms := now.UnixMilli()
	stamp.Lock()
	defer stamp.Unlock()
	if ms > stamp.ms {
		stamp.ms, stamp.seq = ms, 0
	} else if stamp.seq++; stamp.seq > maxSeq {
		stamp.ms++
		stamp.seq = 0
	}
	return stamp.ms, stamp.seq
}

// formatFileName renders <ms13>-<seq6>-<rand4>.json.
func formatFileName(ms int64, seq int, rnd string) string {
	var b strings.Builder
	b.Grow(30)
	s := strconv.FormatInt(ms, 10)
	for i := len(s); i < 13; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
	b.WriteByte('-')
	q := strconv.Itoa(seq)
	for i := len(q); i < 6; i++ {
		b.WriteByte('0')
	}
	b.WriteString(q)
	b.WriteByte('-')
	b.WriteString(rnd)
	b.WriteString(MessageSuffix)
	return b.String()
}

func rand4() string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

package inbox

import (
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/drop"
)

// MessageSuffix ends every message file's name; staging files never end in it.
const MessageSuffix = drop.MessageSuffix

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

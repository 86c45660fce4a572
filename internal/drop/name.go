package drop

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/durable"
)

// MessageSuffix ends every message file's name; staging files never end in it.
const MessageSuffix = ".json"

// stamp hands out the (millisecond, sequence) pairs of this process's
// message names. The pair is strictly increasing even when the wall clock
// steps back: the millisecond never decreases, and the sequence orders the
// names given out within one millisecond.
var stamp struct {
	sync.Mutex
	ms  int64
	seq int
}

// MaxSeq is the largest sequence number of a name.
const MaxSeq = 999999

// NextStamp returns the process's next stamp.
func NextStamp(now time.Time) (int64, int) {
	ms := now.UnixMilli()
	stamp.Lock()
	defer stamp.Unlock()
	if ms > stamp.ms {
		stamp.ms, stamp.seq = ms, 0
	} else if stamp.seq++; stamp.seq > MaxSeq {
		stamp.ms++
		stamp.seq = 0
	}
	return stamp.ms, stamp.seq
}

// FormatFileName renders <ms13>-<seq6>-<rand4>.json.
func FormatFileName(ms int64, seq int, rnd string) string {
	b := make([]byte, 0, 30)
	s := strconv.FormatInt(ms, 10)
	for i := len(s); i < 13; i++ {
		b = append(b, '0')
	}
	b = append(append(b, s...), '-')
	q := strconv.Itoa(seq)
	for i := len(q); i < 6; i++ {
		b = append(b, '0')
	}
	b = append(append(append(append(b, q...), '-'), rnd...), MessageSuffix...)
	return string(b)
}

// Rand4 is a name's random tail: four hexadecimal digits, from the
// runtime's generator (a collision only retries the name).
func Rand4() string { return durable.Hex(rand.Uint64(), 4) }

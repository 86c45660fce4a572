package drop

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Every stamp a mark may hold survives the trip through a modification
// time, and the order of stamps is the order of their times.
func TestMarkTimeRoundTrip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	stamps := [][2]int64{{0, 0}, {1, 0}, {999, MaxSeq}, {1796136089631, 0}, {1796136089631, 1}, {MaxMarkMillis, MaxSeq}}
	for range 10000 {
		stamps = append(stamps, [2]int64{r.Int64N(MaxMarkMillis + 1), int64(r.IntN(MaxSeq + 1))})
	}
	var prev time.Time
	var prevStamp [2]int64
	for i, s := range stamps {
		mt := MarkTime(s[0], int(s[1]))
		ms, seq := MarkStamp(mt)
		if ms != s[0] || int64(seq) != s[1] {
			t.Fatalf("stamp %v came back as (%d, %d) through %v", s, ms, seq, mt)
		}
		if i > 0 {
			less := s[0] < prevStamp[0] || (s[0] == prevStamp[0] && s[1] < prevStamp[1])
			if less != mt.Before(prev) {
				t.Fatalf("stamps %v and %v order differently from their times", prevStamp, s)
			}
		}
		prev, prevStamp = mt, s
	}
	for _, bad := range []time.Time{time.Unix(-1, 0), time.Unix(0, -1), time.UnixMilli(MaxMarkMillis + 1)} {
		if ms, seq := MarkStamp(bad); ms != 0 || seq != 0 {
			t.Errorf("MarkStamp(%v) = (%d, %d), want nothing", bad, ms, seq)
		}
	}
}

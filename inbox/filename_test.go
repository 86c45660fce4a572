package inbox

import (
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/drop"
)

// One process's names sort in the order they were made, even when the
// wall clock steps back or many names share one millisecond.
func TestFileNamesSortInSendOrderWhenTheClockStepsBack(t *testing.T) {
	base := time.Now()
	clock := []time.Time{base, base, base.Add(time.Millisecond), base.Add(-time.Hour), base.Add(-time.Hour), base.Add(2 * time.Millisecond), base.Add(time.Millisecond)}
	prev := ""
	for i, now := range clock {
		ms, seq := drop.NextStamp(now)
		name := drop.FormatFileName(ms, seq, drop.Rand4())
		if name <= prev {
			t.Fatalf("step %d: %s does not sort after %s", i, name, prev)
		}
		fn, ok := ParseFileName(name)
		if !ok || !fn.Parley || fn.Millis != ms || fn.Seq != seq {
			t.Fatalf("ParseFileName(%s) = %+v, %v", name, fn, ok)
		}
		prev = name
	}
}

func TestParseFileName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ok     bool
		parley bool
	}{
		{"1764504000000-000001-a1b2.json", true, true},
		{"1764504000000-x7k2p9.json", true, false},      // pi-messenger
		{"1764504000000-000001-A1B2.json", true, false}, // upper-case tail: foreign
		{"176450400000-000001-a1b2.json", false, false},
		{"1764504000000-000001-a1b2.tmp", false, false},
		{".1764504000000-000001-a1b2.json.0123456789ab.tmp", false, false},
		{"abc.json", false, false},
		{"", false, false},
	} {
		fn, ok := ParseFileName(tc.name)
		if ok != tc.ok || fn.Parley != tc.parley {
			t.Errorf("ParseFileName(%q) = %+v, %v; want ok=%v parley=%v", tc.name, fn, ok, tc.ok, tc.parley)
		}
	}
	for _, tc := range []struct {
		name string
		msg  bool
	}{
		{"1764504000000-000001-a1b2.json", true},
		{"note.json", true},
		{".lock", false},
		{".owner", false},
		{".1764504000000-000001-a1b2.json.0123456789ab.tmp", false},
		{".hidden.json", false},
		{"cur", false},
		{".json", false},
	} {
		if got := IsMessageName(tc.name); got != tc.msg {
			t.Errorf("IsMessageName(%q) = %v, want %v", tc.name, got, tc.msg)
		}
	}
	if !IsStagingName(".1764504000000-000001-a1b2.json.0123456789ab.tmp") || IsStagingName(".lock") || IsStagingName(".owner") {
		t.Error("IsStagingName misjudges")
	}
}

func FuzzParseFileName(f *testing.F) {
	f.Add("1764504000000-000001-a1b2.json")
	f.Add("1764504000000-x7k2p9.json")
	f.Add(".x.json.0123456789ab.tmp")
	f.Add("9999999999999-999999-ffff.json")
	f.Add("0000000000000-\x00.json")
	f.Fuzz(func(t *testing.T, name string) {
		fn, ok := ParseFileName(name)
		if !ok {
			return
		}
		if !IsMessageName(name) && name[0] != '.' {
			t.Fatalf("%q parses but is not a message name", name)
		}
		if fn.Millis < 0 || fn.Millis > 9999999999999 {
			t.Fatalf("%q: millis %d out of range", name, fn.Millis)
		}
		if fn.Parley {
			if again := drop.FormatFileName(fn.Millis, fn.Seq, fn.Rand); again != name {
				t.Fatalf("%q re-formats as %q", name, again)
			}
		}
	})
}

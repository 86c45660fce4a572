package fastpath

import (
	"errors"
	"runtime"
	"testing"
)

// failingWriter fails every write, counting them.
type failingWriter struct{ writes int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errors.New("write /dev/stdout: input/output error")
}

// A line that could not be written is answered once, not left to the
// command, which would write it a second time (and might then succeed):
// a --json line's error is the fast path's to say, as the command says
// it; the plain line's is ignored, as the command ignores it.
func TestPrintVersionWritesOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fast path reads the build record only on Linux")
	}
	for _, tc := range []struct {
		args    []string
		wantErr bool
	}{
		{[]string{"--json", "version"}, true},
		{[]string{"--version"}, false},
	} {
		w := &failingWriter{}
		handled, err := printVersion(tc.args, w)
		if !handled || (err != nil) != tc.wantErr || w.writes != 1 {
			t.Errorf("%q: handled %v, err %v, %d writes; want handled, an error %v, one write", tc.args, handled, err, w.writes, tc.wantErr)
		}
	}
	w := &failingWriter{}
	if handled, err := printVersion([]string{"version", "extra"}, w); handled || err != nil || w.writes != 0 {
		t.Errorf("version extra: handled %v, err %v, %d writes", handled, err, w.writes)
	}
}

func TestVersionLine(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		json, ok bool
	}{
		{[]string{"--version"}, false, true},
		{[]string{"version"}, false, true},
		{[]string{"--json", "version"}, true, true},
		{[]string{"version", "--root", "r", "--vault=v", "--json"}, true, true},
		{[]string{"--root", "--version"}, false, false},
		{[]string{"--version", "--root"}, false, false},
		{[]string{"--version", "version"}, false, false},
		{[]string{"-v", "--version"}, false, false},
		{[]string{"--json=true", "--version"}, false, false},
		{[]string{"--", "--version"}, false, false},
		{[]string{"version", "extra"}, false, false},
		{[]string{"--json"}, false, false},
		{nil, false, false},
	} {
		json, ok := versionLine(tc.args)
		if ok != tc.ok || ok && json != tc.json {
			t.Errorf("versionLine(%q) = %v, %v; want %v, %v", tc.args, json, ok, tc.json, tc.ok)
		}
	}
}

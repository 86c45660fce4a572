package checkedconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/roottest"
)

func writeFile(t *testing.T, name, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
}

const settings = `{"messenger": {"heartbeatTtlMs": 45000}}` + "\n"

// Checkers, as Self writes them.
const (
	b1 = "build b1\nexecutable 1:2:3:4\ngodebug "
	b2 = "build b1\nexecutable 1:2:3:5\ngodebug "
	b3 = "build b1\nexecutable 1:2:3:4\ngodebug urlstrictcolons=0"
)

func TestKeptCopyGivesItsTTLWhileConfigIsIt(t *testing.T) {
	t.Parallel()
	r, dir := roottest.Temp(t)
	config := filepath.Join(dir, ConfigName)
	writeFile(t, config, settings, 0o600)
	if _, ok := TTL(r, b1); ok {
		t.Fatal("a TTL without a copy")
	}
	if err := Keep(r, b1, 45*time.Second, []byte(settings)); err != nil {
		t.Fatal(err)
	}
	if ttl, ok := TTL(r, b1); !ok || ttl != 45*time.Second {
		t.Fatalf("TTL: %v, %v", ttl, ok)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the copy: %v, %v", fi, err)
	}

	// Kept again as it is: not written again.
	before := fi.ModTime()
	time.Sleep(10 * time.Millisecond)
	if err := Keep(r, b1, 45*time.Second, []byte(settings)); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, FileName)); !fi.ModTime().Equal(before) {
		t.Error("the same copy was written again")
	}

	for _, tc := range []struct {
		name, config, build string
	}{
		{"another executable", settings, b2},
		{"another GODEBUG", settings, b3},
		{"no checker", settings, ""},
		{"config.json changed", settings + " ", b1},
		{"config.json cut short", settings[:10], b1},
		{"config.json emptied", "", b1},
	} {
		writeFile(t, config, tc.config, 0o600)
		if ttl, ok := TTL(r, tc.build); ok {
			t.Errorf("%s: TTL %v", tc.name, ttl)
		}
	}
	writeFile(t, config, settings, 0o600)
	if _, ok := TTL(r, b1); !ok {
		t.Fatal("config.json restored is not the copy")
	}

	// Either file untrusted, or not a regular file inside the root.
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T)
	}{
		{"config.json writable by its group", func(t *testing.T) { writeFile(t, config, settings, 0o620) }},
		{"the copy writable by others", func(t *testing.T) { os.Chmod(filepath.Join(dir, FileName), 0o602) }},
		{"config.json a link out of the root", func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "config.json")
			writeFile(t, out, settings, 0o600)
			os.Remove(config)
			if err := os.Symlink(out, config); err != nil {
				t.Fatal(err)
			}
		}},
		{"config.json a named pipe", func(t *testing.T) {
			os.Remove(config)
			if err := syscall.Mkfifo(config, 0o600); err != nil {
				t.Skip("no named pipes here")
			}
		}},
	} {
		tc.spoil(t)
		if ttl, ok := TTL(r, b1); ok {
			t.Errorf("%s: TTL %v", tc.name, ttl)
		}
		os.Remove(config)
		writeFile(t, config, settings, 0o600)
		if err := Keep(r, b1, 45*time.Second, []byte(settings)); err != nil {
			t.Fatalf("%s: keeping the copy again: %v", tc.name, err)
		}
		if _, ok := TTL(r, b1); !ok {
			t.Fatalf("%s: the copy kept again is not read", tc.name)
		}
	}
	if err := Keep(r, "", time.Second, []byte(settings)); err == nil {
		t.Error("a copy kept without a checker")
	}
	if err := Keep(r, b1, 0, []byte(settings)); err == nil {
		t.Error("a copy kept without a TTL")
	}
	left, _ := filepath.Glob(filepath.Join(dir, FileName+".*"))
	if len(left) != 0 {
		t.Errorf("staging files left: %v", left)
	}
}

// A copy that is not what Keep writes is not read: its header, its lines
// and its TTL are checked.
func TestDecodeRefusesWhatKeepDoesNotWrite(t *testing.T) {
	t.Parallel()
	good := string(encode(b1, time.Minute, []byte(settings)))
	if ttl, config, ok := decode([]byte(good), b1); !ok || ttl != time.Minute || string(config) != settings {
		t.Fatalf("decode(encode): %v, %q, %v", ttl, config, ok)
	}
	for _, bad := range []string{
		"",
		good[:len(header)-1],
		strings.Replace(good, "parley:", "Parley:", 1),
		strings.Replace(good, "build b1", "build  b1", 1),
		strings.Replace(good, "build b1", "build b10", 1),
		strings.Replace(good, "godebug \n", "godebug x\n", 1),
		strings.Replace(good, "executable 1:2:3:4\n", "", 1),
		strings.Replace(good, "heartbeatTtlNs 60000000000", "heartbeatTtlNs 0", 1),
		strings.Replace(good, "heartbeatTtlNs 60000000000", "heartbeatTtlNs -5", 1),
		strings.Replace(good, "heartbeatTtlNs 60000000000", "heartbeatTtlNs 6e10", 1),
		strings.Replace(good, "heartbeatTtlNs 60000000000", "heartbeatTtlNs 99999999999999999999", 1),
		strings.Replace(good, "heartbeatTtlNs 60000000000\n\n", "heartbeatTtlNs 60000000000\n", 1),
		strings.Replace(good, "heartbeatTtlNs", "heartbeatTTLNs", 1),
		header + b1,
	} {
		if ttl, config, ok := decode([]byte(bad), b1); ok {
			t.Errorf("decode(%q) = %v, %q", bad, ttl, config)
		}
	}
}

// Self names this binary and its $GODEBUG; another $GODEBUG is another
// checker, and one that cannot be written on its line is none.
func TestSelf(t *testing.T) {
	t.Parallel()
	env := func(godebug string) func(string) string {
		return func(k string) string {
			if k == "GODEBUG" {
				return godebug
			}
			return ""
		}
	}
	a, ok := Self(env(""))
	if runtime.GOOS != "linux" {
		if ok {
			t.Fatalf("Self: %q", a)
		}
		return
	}
	if !ok || !strings.HasPrefix(a, "build ") || !strings.Contains(a, "\nexecutable ") {
		t.Fatalf("Self: %q, %v", a, ok)
	}
	// The executable line names this test binary's file, as stat(2) sees it.
	if want := executableLine(t); !strings.Contains(a, want) {
		t.Errorf("Self: %q, want it to hold %q", a, want)
	}
	if again, _ := Self(env("")); again != a {
		t.Errorf("Self changed: %q then %q", a, again)
	}
	if b, ok := Self(env("urlstrictcolons=0")); !ok || b == a {
		t.Errorf("another GODEBUG: %q, %v", b, ok)
	}
	if c, ok := Self(env("a=1\nb=2")); ok {
		t.Errorf("a GODEBUG with a newline: %q", c)
	}
}

// Staging files a killed process left are removed by the next Keep once
// stale; a fresh one (another process writing now) is not.
func TestKeepRemovesStaleStagingFiles(t *testing.T) {
	t.Parallel()
	r, dir := roottest.Temp(t)
	stale := filepath.Join(dir, FileName+".deadbeef.tmp")
	fresh := filepath.Join(dir, FileName+".cafebabe.tmp")
	other := filepath.Join(dir, "notes.tmp")
	for _, p := range []string{stale, fresh, other} {
		writeFile(t, p, "{", 0o600)
	}
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{stale, other} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := Keep(r, b1, time.Minute, []byte(settings)); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{stale: false, fresh: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// A copy that cannot be written (here: a directory with an entry holds its
// name, so the rename fails, as a full disk fails the write) is an error
// that leaves no staging file, and nothing the fast path reads as a copy.
func TestKeepThatFailsLeavesNothing(t *testing.T) {
	t.Parallel()
	r, dir := roottest.Temp(t)
	writeFile(t, filepath.Join(dir, ConfigName), settings, 0o600)
	blocker := filepath.Join(dir, FileName)
	if err := os.MkdirAll(filepath.Join(blocker, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Keep(r, b1, time.Minute, []byte(settings)); err == nil {
		t.Fatal("Keep over a directory said nothing")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, FileName+".*")); len(left) != 0 {
		t.Errorf("staging files left: %v", left)
	}
	if ttl, ok := TTL(r, b1); ok {
		t.Errorf("TTL %v read through a copy never written", ttl)
	}
}

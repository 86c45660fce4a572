package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestParseAge(t *testing.T) {
	const day = 24 * time.Hour
	for _, c := range []struct {
		in   string
		want time.Duration
	}{
		{"7d", 7 * day}, {"0d", 0}, {"12h", 12 * time.Hour}, {"90m", 90 * time.Minute},
		{"0s", 0}, {"1h30m", 90 * time.Minute}, {"106751d", 106751 * day},
	} {
		got, err := ParseAge(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	// Every refusal says what an age is ("7days" is a number with a
	// unit parley does not know), never only Go's "unknown unit".
	const hint = ": give a number with a unit, d, h, m or s (such as 7d, 12h or 90m)"
	for _, c := range []struct{ in, msg string }{
		{"-1d", "not a number of days" + hint},
		{"1.5d", "not a number of days" + hint},
		{"d", "not a number of days" + hint},
		{"+d", "not a number of days" + hint},
		{"99999999999999999999d", "not a number of days" + hint}, // past int
		{"106752d", "at most 106751d"},                           // would wrap to a negative cut-off
		{"-1h", "negative" + hint},
		{"-0.5s", "negative" + hint},
		{"", "not an age" + hint},
		{"7D", "not an age" + hint},
		{"3x", "not an age" + hint},
		{"7days", "not an age" + hint},
		{"7", "not an age" + hint},
		{"7 d", "not a number of days" + hint},
	} {
		got, err := ParseAge(c.in)
		if err == nil || err.Error() != c.msg {
			t.Errorf("ParseAge(%q) = %v, %v; want the error %q", c.in, got, err, c.msg)
		}
	}
}

// The staging files that writers killed mid-write leave beside a debate
// (session.json, verdict.json), in the gate's folder (model.json) and in
// the vault folders parley writes pages in are removed once stale; a live
// writer's file, a symbolic link by a staging name, a look-alike name and
// a user's own folder are not.
func TestCollectRemovesStaleStagingOfDebatesAndVault(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	if _, err := a.Init(ctx); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	plant := func(dir, name string, mtime time.Time) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	debateDir := filepath.Join(a.Root(), "debates", "20261204-plan-x-ri62oe")
	gone := []string{
		plant(debateDir, ".session.json.a9ad747fb892.tmp", old),
		plant(debateDir, ".verdict.json.0123456789ab.tmp", old),
		plant(filepath.Join(a.Vault(), "wiki", "consensus"), ".consensus-records.md.086d05c1643c.tmp", old),
		plant(filepath.Join(a.Vault(), "wiki", "debates"), ".20261204-plan-x-ri62oe.md.39a2a7b509e4.tmp", old),
		plant(filepath.Join(a.Root(), "gate"), ".model.json.5c0ffee0d00d.tmp", old),
		// renameio's, from when gate learn installed the model through it
		plant(filepath.Join(a.Root(), "gate"), ".model.json3870123456", old),
	}
	kept := []string{
		plant(debateDir, ".session.json.fedcba987654.tmp", time.Now()),             // a live writer's
		plant(debateDir, ".session.json.tmp", old),                                 // not a staging name
		plant(debateDir, ".session.json.0123456789AB.tmp", old),                    // upper-case hex
		plant(filepath.Join(a.Vault(), "notes"), ".mine.md.0123456789ab.tmp", old), // a user's folder
		plant(filepath.Join(a.Vault(), "wiki", "consensus"), "x.md", old),
		plant(filepath.Join(a.Root(), "gate"), "labels.jsonl", old),
		plant(filepath.Join(a.Root(), "gate"), "model.json", old),
		plant(filepath.Join(a.Root(), "gate"), ".model.json5551234", time.Now()), // a live writer's
		plant(filepath.Join(a.Root(), "gate"), ".model.json", old),               // no digits
		plant(filepath.Join(a.Root(), "gate"), ".model.json12x", old),            // not only digits
		plant(filepath.Join(a.Root(), "gate"), ".labels.jsonl123", old),          // not the model's
		plant(debateDir, ".session.json3870123456", old),                         // renameio never wrote here
	}
	target := plant(t.TempDir(), "precious", old)
	link := filepath.Join(a.Vault(), "wiki", "debates", ".link.md.0123456789ab.tmp")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	tv := unix.NsecToTimeval(old.UnixNano())
	if err := unix.Lutimes(link, []unix.Timeval{tv, tv}); err != nil {
		t.Fatal(err)
	}
	st, err := a.Collect(ctx, 7*24*time.Hour)
	if err != nil || st.Staging != len(gone) || len(st.Warnings) != 0 {
		t.Fatalf("Collect = %+v, %v; want %d staging files removed", st, err, len(gone))
	}
	for _, p := range gone {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s stays: %v", p, err)
		}
	}
	for _, p := range append(kept, link, target) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

package inbox_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// One sender's messages are claimed in send order across separate sender
// processes even when the wall clock steps back between them: each process
// below runs with its clock further behind the previous one's (by an hour,
// a second, a millisecond, and then forward again), and a second sender
// with a true clock interleaves with them.
func TestOrderPerSenderAcrossProcessesWhenTheClockStepsBack(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")

	steps := []struct {
		from   string
		offset string
	}{
		{"Ann", "1h"}, {"Cy", "0s"}, {"Ann", "0s"}, {"Ann", "-1s"}, {"Cy", "-1h"},
		{"Ann", "-1s1ms"}, {"Ann", "-1h"}, {"Cy", "1h"}, {"Ann", "2h"}, {"Ann", "0s"},
	}
	const each = 3
	sent := map[string]int{}
	for _, st := range steps {
		cmd := helper(t, "send", "ROOT="+root, "FROM="+st.from, "TO=Bob", "COUNT="+strconv.Itoa(each),
			"FIRST="+strconv.Itoa(sent[st.from]), "CLOCK_OFFSET="+st.offset)
		if out, err := cmd.Output(); err != nil {
			t.Fatalf("sender %s at %s: %v (%s)", st.from, st.offset, err, out)
		}
		sent[st.from] += each
	}
	r := mustListen(t, tr, "Bob")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got := receiveN(t, ctx, r, sent["Ann"]+sent["Cy"])
	next := map[string]int{}
	for _, m := range got {
		if want := strconv.Itoa(next[m.From]); m.Text != want {
			t.Fatalf("from %s: claimed message %q, want %q (send order)", m.From, m.Text, want)
		}
		next[m.From]++
	}
	for from, n := range sent {
		if next[from] != n {
			t.Errorf("%s: %d claimed, %d sent", from, next[from], n)
		}
	}
}

// The mark is state parley reads from a directory others may write to: a
// planted mark is never followed or trusted beyond its form. A symbolic
// link, a FIFO or an empty directory in its place is replaced by a mark,
// never followed (the link's target keeps its content and its times); a
// mark past the 13 digits of a message name is ignored; a mark that cannot
// be replaced (a directory with something in it) fails the send, and
// nothing is delivered.
func TestSenderMarkHostile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, path string)
		fails bool
	}{
		{name: "symlink out of the root", plant: func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "target")
			writeFile(t, target, "keep")
			old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
			if err := os.Chtimes(target, old, old); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				fi, err := os.Stat(target)
				if b, _ := os.ReadFile(target); err != nil || string(b) != "keep" || !fi.ModTime().Equal(old) {
					t.Errorf("the symlink's target was touched: %q, %v, %v", b, fi.ModTime(), err)
				}
			})
		}},
		{name: "fifo", plant: func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "empty directory", plant: func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "directory with a file", fails: true, plant: func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(path, "x"), "x")
		}},
		{name: "beyond what a mark holds", plant: func(t *testing.T, path string) {
			writeFile(t, path, "")
			far := time.Unix(9223372036, 854_000_000) // one millisecond past the bound
			if err := os.Chtimes(path, far, far); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "before 1970", plant: func(t *testing.T, path string) {
			writeFile(t, path, "")
			early := time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)
			if err := os.Chtimes(path, early, early); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			tr := newFileAt(t, root)
			mustCreate(t, tr, "Bob")
			mark := filepath.Join(root, "inbox", "Bob", ".from-Ann")
			tc.plant(t, mark)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := tr.Send(ctx, &inbox.Message{From: "Ann", To: "Bob", Text: "hello"})
			if tc.fails {
				if !errors.Is(err, inbox.ErrUnsafePath) || !strings.Contains(err.Error(), "a directory in place of the sender mark") {
					t.Fatalf("send over %s = %v, want ErrUnsafePath naming the directory", tc.name, err)
				}
				if n := countMessages(t, root, "Bob"); n != 0 {
					t.Fatalf("%d messages delivered after a failed send", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ents, err := os.ReadDir(filepath.Join(root, "inbox", "Bob"))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range ents {
				if inbox.IsMessageName(e.Name()) {
					names = append(names, e.Name())
				}
			}
			if len(names) != 1 {
				t.Fatalf("messages in the inbox: %v", names)
			}
			fn, _ := inbox.ParseFileName(names[0])
			if d := time.Since(time.UnixMilli(fn.Millis)); d < -time.Minute || d > time.Minute {
				t.Fatalf("message stamped %s, %v from now: the planted mark was trusted", names[0], d)
			}
			fi, err := os.Lstat(mark)
			if err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("mark after the send: %v, %v; want a regular file", fi, err)
			}
			if mt := fi.ModTime(); mt.UnixMilli() != fn.Millis || mt.Nanosecond()%1_000_000 != fn.Seq {
				t.Fatalf("mark holds %v, want the stamp of %s", mt, names[0])
			}
		})
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func countMessages(t *testing.T, root, agent string) int {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(root, "inbox", agent))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if inbox.IsMessageName(e.Name()) {
			n++
		}
	}
	return n
}

// A mark planted at the very end of what a mark holds raises that sender's
// next stamp in that inbox only: the message still has a 13-digit name,
// the mark after it is past the bound and ignored (the clock stamps the
// next one), and what the same process sends to another inbox is stamped
// by the clock.
func TestSenderMarkAtTheEndOfTime(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	mustCreate(t, tr, "Carol")
	mark := filepath.Join(root, "inbox", "Bob", ".from-Ann")
	writeFile(t, mark, "")
	// The last stamp a mark holds: ms 9223372036853 (April 2262), seq 999999.
	end := time.Unix(9223372036, 853_999_999)
	if err := os.Chtimes(mark, end, end); err != nil {
		t.Fatal(err)
	}
	names := func(agent string) []string {
		ents, err := os.ReadDir(filepath.Join(root, "inbox", agent))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			if inbox.IsMessageName(e.Name()) {
				out = append(out, e.Name())
			}
		}
		return out
	}
	for i := range 2 {
		mustSend(t, tr, "Ann", "Bob", strconv.Itoa(i))
	}
	mustSend(t, tr, "Ann", "Carol", "elsewhere")
	got := names("Bob")
	if len(got) != 2 || got[1][:20] != "9223372036854-000000" {
		t.Fatalf("inbox of Bob: %v, want the first message at the end of the 13 digits", got)
	}
	for _, n := range append(got, names("Carol")...) {
		if fn, ok := inbox.ParseFileName(n); !ok || !fn.Parley {
			t.Fatalf("%s is not a parley message name", n)
		}
	}
	if fn, _ := inbox.ParseFileName(names("Carol")[0]); time.Since(time.UnixMilli(fn.Millis)).Abs() > time.Minute {
		t.Fatalf("a mark in Bob's inbox moved the stamp of a message to Carol: %s", names("Carol")[0])
	}
}

// A send that fails after raising its sender's mark (a full disk) leaves
// the mark, and nothing of its own, in the inbox: gc removes it once it is
// stale, as it removes a killed writer's staging file. A mark that a
// waiting message may need (one stamped at or below it waits) is kept
// however old, and a fresh one is kept (a send in progress raised it). A
// send after gc removed its mark delivers, above what waits.
func TestGCRemovesTheMarkOfAFailedSend(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ffs, tr := faultyInbox(t, root, "Bob", "Cy")
	ctx := context.Background()
	ffs.Fail("write", "inbox/Bob/", syscall.ENOSPC, 1)
	if err := tr.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: "lost to a full disk"}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Send = %v, want ENOSPC", err)
	}
	// Cy has a message from Alice waiting: her mark there stays.
	mustSend(t, tr, "Alice", "Cy", "waiting")
	bobMark := filepath.Join(root, "inbox", "Bob", ".from-Alice")
	cyMark := filepath.Join(root, "inbox", "Cy", ".from-Alice")
	for _, p := range []string{bobMark, cyMark} {
		if _, err := os.Lstat(p); err != nil {
			t.Fatalf("no mark after the send: %v", err)
		}
	}
	if st, err := tr.GC(ctx, time.Hour, time.Now()); err != nil || st.Marks != 0 {
		t.Fatalf("GC now = %+v, %v; want the fresh marks kept", st, err)
	}
	later := time.Now().Add(inbox.StaleStaging + time.Minute)
	if st, err := tr.GC(ctx, time.Hour, later); err != nil || st.Marks != 1 {
		t.Fatalf("GC later = %+v, %v; want the failed send's mark removed", st, err)
	}
	if _, err := os.Lstat(bobMark); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the failed send's mark is still there: %v", err)
	}
	if _, err := os.Lstat(cyMark); err != nil {
		t.Fatalf("the mark of a waiting message was removed: %v", err)
	}
	if waiting, _, _, err := tr.Count(ctx, "Cy"); err != nil || waiting != 1 {
		t.Fatalf("Cy waiting = %d, %v; gc must not touch waiting mail", waiting, err)
	}
	mustSend(t, tr, "Alice", "Bob", "after gc")
	if got := drainFor(t, mustListen(t, tr, "Bob"), 50*time.Millisecond); len(got) != 1 || got[0].Text != "after gc" {
		t.Fatalf("Bob got %v, want the one message sent after gc", got)
	}
}

// A gc in another process may remove a sender's mark between the moment a
// send reads it and the moment it raises it: the send still delivers, and
// leaves the mark raised to the message's stamp.
func TestSendWhenGCRemovesTheMarkItJustRead(t *testing.T) {
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	mustSend(t, tr, "Alice", "Bob", "first")
	mark := filepath.Join(root, "inbox", "Bob", ".from-Alice")
	inbox.AfterMarkRead(func(string) { os.Remove(mark) })
	t.Cleanup(func() { inbox.AfterMarkRead(nil) })
	if err := tr.Send(context.Background(), &inbox.Message{From: "Alice", To: "Bob", Text: "second"}); err != nil {
		t.Fatalf("Send after its mark was removed = %v, want it delivered", err)
	}
	inbox.AfterMarkRead(nil)
	if _, err := os.Lstat(mark); err != nil {
		t.Fatalf("no mark after the send: %v", err)
	}
	got := drainFor(t, mustListen(t, tr, "Bob"), 50*time.Millisecond)
	if len(got) != 2 || got[0].Text != "first" || got[1].Text != "second" {
		t.Fatalf("Bob got %v, want first then second", got)
	}
}

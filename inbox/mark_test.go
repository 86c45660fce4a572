package inbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
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
// link in its place is replaced, not read through, and its target is left
// as it was; a FIFO does not block the sender; garbage or a torn mark only
// means the clock alone stamps the next message.
func TestSenderMarkHostile(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "target")
	far := "9999999999999-999999\n"
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, path string)
	}{
		{"symlink out of the root", func(t *testing.T, path string) {
			if err := os.WriteFile(outside, []byte(far), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"garbage", func(t *testing.T, path string) {
			writeFile(t, path, "not a stamp at all, but long enough to fill the buffer of the reader\n")
		}},
		{"torn", func(t *testing.T, path string) { writeFile(t, path, far[:9]) }},
		{"no newline", func(t *testing.T, path string) { writeFile(t, path, far[:20]+"x") }},
		{"signed", func(t *testing.T, path string) { writeFile(t, path, "-999999999999-000001\n") }},
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
			if tc.name == "directory" {
				// Nothing can replace a directory by rename: the send
				// fails, and nothing is delivered.
				if err == nil {
					t.Fatal("send over a directory in the mark's place succeeded")
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
			if b, _ := os.ReadFile(mark); string(b) != names[0][:20]+"\n" {
				t.Fatalf("mark holds %q, want the stamp of %s", b, names[0])
			}
			if tc.name == "symlink out of the root" {
				if b, _ := os.ReadFile(outside); string(b) != far {
					t.Fatalf("the symlink's target was written: %q", b)
				}
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

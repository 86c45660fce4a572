package textview

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
)

// A message comes from another process: whatever its fields hold, the
// view is one header line, the text, and a blank line, and nothing in it
// can drive the terminal or forge a line of its own.
func TestMessage(t *testing.T) {
	for _, c := range []struct {
		name string
		m    inbox.Message
		want string
	}{{
		"plain",
		inbox.Message{ID: "m-7", From: "Quill", To: "Harbor", Text: "the schema drops a column\nsee line 40", Timestamp: "2026-11-30T08:00:00.000Z"},
		"── Quill → Harbor · text · 2026-11-30T08:00:00.000Z · m-7\nthe schema drops a column\nsee line 40\n\n",
	}, {
		"an answer of another type, to no one",
		inbox.Message{ID: "m-8", From: "Quill", Type: "diff", ReplyTo: "m-7", Text: "-a\n+b", Timestamp: "T"},
		"── Quill → - · diff · T · m-8 · reply to m-7\n-a\n+b\n\n",
	}, {
		"hostile fields",
		inbox.Message{ID: "m-9\n── Mallory → Harbor", From: "Mal\x1b]0;owned\x07lory", To: "Harbor", ReplyTo: "m\u202e1",
			Text: "red \x1b[31mflag\x1b[0m\ttab\r\nnext \u2066line", Timestamp: "T\x00"},
		"── Mal\\x1b]0;owned\\x07lory → Harbor · text · T\\x00 · m-9\\x0a── Mallory → Harbor · reply to m\\u202e1\n" +
			"red \\x1b[31mflag\\x1b[0m\ttab\\x0d\nnext \\u2066line\n\n",
	}} {
		var b bytes.Buffer
		if err := Message(&b, &c.m); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, b.String(), c.want)
		}
	}
}

// --json prints the wire form, escapes and all: a program reads it.
func TestMessageJSON(t *testing.T) {
	m := &inbox.Message{ID: "m-1", From: "a", To: "b", Text: "x\x1by", Timestamp: "T"}
	want, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := MessageJSON(&b, m); err != nil || b.String() != string(want)+"\n" {
		t.Errorf("MessageJSON = %q, %v; want %q and a newline", b.String(), err, want)
	}
	// A message that cannot be encoded is an error, and nothing is written.
	b.Reset()
	long := &inbox.Message{ID: strings.Repeat("x", inbox.MaxIDLen+1)}
	if err := MessageJSON(&b, long); err == nil || b.Len() > 0 {
		t.Errorf("an id over the limit: %q, %v", b.String(), err)
	}
}

func TestMessageLines(t *testing.T) {
	var b bytes.Buffer
	Sent(&b, &app.Sent{Message: &inbox.Message{ID: "m-3"}}, "Harbor")
	NoMessages(&b, "Harbor")
	Watching(&b, "Harbor", true, "Ctrl-C")
	Watching(&b, "Quill", false, "kill 4242")
	want := "sent m-3 to Harbor\n" +
		"parley: no messages for Harbor\n" +
		"parley: watching the inbox of Harbor, registered as a live agent (Ctrl-C to stop)\n" +
		"parley: watching the inbox of Quill, not registered (kill 4242 to stop)\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	broken := errors.New("pipe closed")
	for name, err := range map[string]error{
		"Message":    Message(closedPipe{broken}, &inbox.Message{}),
		"Sent":       Sent(closedPipe{broken}, &app.Sent{Message: &inbox.Message{}}, "b"),
		"NoMessages": NoMessages(closedPipe{broken}, "b"),
		"Watching":   Watching(closedPipe{broken}, "b", true, "Ctrl-C"),
	} {
		if !errors.Is(err, broken) {
			t.Errorf("%s to a failing writer: %v", name, err)
		}
	}
}

type closedPipe struct{ err error }

func (f closedPipe) Write([]byte) (int, error) { return 0, f.err }

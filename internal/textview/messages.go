package textview

import (
	"fmt"
	"io"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/quicksend"
	"github.com/parleyhq/parley/internal/termsafe"
)

// Message writes one message as "parley recv" and "parley watch" show it:
// a header line (sender → recipient · type · time · id, and the id it
// answers), the text, and a blank line. A message comes from another
// process: its fields are shown with their control characters escaped
// (see Shown).
func Message(w io.Writer, m *inbox.Message) error {
	reply := ""
	if m.ReplyTo != "" {
		reply = " · reply to " + Shown(m.ReplyTo, false)
	}
	_, err := fmt.Fprintf(w, "── %s → %s · %s · %s · %s%s\n%s\n\n", Shown(m.From, false), Shown(OrDash(m.To), false),
		Shown(m.Kind(), false), Shown(m.Timestamp, false), Shown(m.ID, false), reply, Shown(m.Text, true))
	return err
}

// MessageJSON writes a message's wire form as one JSON line: what
// "parley --json recv", "watch" and "send" print.
func MessageJSON(w io.Writer, m *inbox.Message) error {
	b, err := m.Encode()
	if err != nil {
		return err
	}
	return quicksend.JSONLine(w, b)
}

// Sent writes the line "parley send" prints once a message is delivered.
func Sent(w io.Writer, s *app.Sent, to string) error { return quicksend.SentLine(w, s.Message.ID, to) }

// NoMessages is the line on stderr of a receive that found nothing.
func NoMessages(w io.Writer, as string) error {
	_, err := fmt.Fprintf(w, "parley: no messages for %s\n", as)
	return err
}

// Watching is the line on stderr when a watch has started: whose inbox,
// whether it registered as a live agent, and how to stop it
// (interrupt.HowToStop).
func Watching(w io.Writer, as string, registered bool, stop string) error {
	how := "registered as a live agent"
	if !registered {
		how = "not registered"
	}
	_, err := fmt.Fprintf(w, "parley: watching the inbox of %s, %s (%s to stop)\n", as, how, stop)
	return err
}

// Shown makes text written by another process safe to print on a
// terminal: its control characters (but tab, and newline when multiline
// is set) and bidirectional overrides are written as visible escapes
// (termsafe.Escape). --json output needs none of this.
func Shown(s string, multiline bool) string {
	if multiline {
		return termsafe.Escape(s, "\t\n")
	}
	return termsafe.Escape(s, "\t")
}

// OrDash renders an empty field as "-" in a table.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package textview_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/registry"
)

// The agents table and an agent's card: what another process wrote in
// its registration (host, roles, model) is shown with its control
// characters escaped, an empty field is "-", and the heartbeat's age is
// counted from now.
func TestAgents(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 12, 0, 30, 0, time.UTC)
	reg := &registry.Registration{Name: "Archivist", PID: 4242, Host: "build\x1b[31mbox", Roles: []string{"defender"},
		HeartbeatAt: "2026-12-01T12:00:27Z", SessionID: "s-1", StartedAt: "2026-12-01T11:00:00Z"}
	var out bytes.Buffer
	if err := textview.Agents(&out, []app.Agent{{Name: "Archivist", Registration: reg, Alive: true}}, true, now, "/r"); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.ContainsRune(s, '\x1b') || !strings.HasPrefix(s, "NAME ") || !strings.Contains(s, "\nArchivist  4242") || !strings.HasSuffix(s, "-      3s ago\n") {
		t.Fatalf("%q", s)
	}
	out.Reset()
	_ = textview.Agents(&out, nil, true, now, "/r/registry")
	if out.String() != "no live agents in /r/registry\n" {
		t.Fatalf("%q", out.String())
	}
	out.Reset()
	_ = textview.Agent(&out, "Archivist", &app.Agent{Name: "Archivist", Registration: reg, Registered: true}, now)
	if s := out.String(); strings.ContainsRune(s, '\x1b') || !strings.Contains(s, "stopped (its process is gone") || !strings.Contains(s, "heartbeat:  3s ago") {
		t.Fatalf("%q", s)
	}
	// A heartbeat ahead of this clock (a skewed clock, a hand edit) has no
	// negative age: it says how far ahead it is.
	out.Reset()
	ahead := *reg
	ahead.HeartbeatAt = "2026-12-01T13:00:30Z"
	_ = textview.Agent(&out, "Archivist", &app.Agent{Name: "Archivist", Registration: &ahead, Registered: true}, now)
	if s := out.String(); strings.Contains(s, "-1h") || !strings.Contains(s, "heartbeat:  1h0m0s ahead of this clock") {
		t.Fatalf("%q", s)
	}
	out.Reset()
	_ = textview.Agent(&out, "Later", &app.Agent{Name: "Later", State: app.AgentNeverRegistered, Inbox: "/r/inbox/Later"}, now)
	// Its inbox may be pi-messenger's as well as one made with agents add:
	// the status claims neither alone.
	if s := out.String(); !strings.Contains(s, "never registered") || !strings.Contains(s, "'agents add', or by another tool such as pi-messenger") ||
		!strings.HasSuffix(s, "/r/inbox/Later\n") {
		t.Fatalf("%q", s)
	}
	// A registration that does not read: stopped, saying why, escaped.
	out.Reset()
	_ = textview.Agent(&out, "Bob", &app.Agent{Name: "Bob", Registered: true, State: app.AgentStopped,
		RegistrationError: "read Bob (registry/Bob.json): malformed registration: unexpected end of JSON input\x1b[2J"}, now)
	if s := out.String(); strings.ContainsRune(s, '\x1b') || !strings.Contains(s, "status:  stopped (its registration does not read") ||
		!strings.Contains(s, "unexpected end of JSON input") {
		t.Fatalf("%q", s)
	}
	out.Reset()
	_ = textview.Pruned(&out, nil)
	_ = textview.Pruned(&out, []app.Pruned{{Agent: "Ghost"}})
	if out.String() != "no dead registrations\npruned Ghost\n" {
		t.Fatalf("%q", out.String())
	}
}

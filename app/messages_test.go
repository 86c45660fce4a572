package app

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
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// outbox is an Outbox and a Lookup in memory that counts what a send asks
// of the messenger.
type outbox struct {
	inboxes map[string][]*inbox.Message
	entries map[string]*registry.Entry
	owners  map[string]string // the session that last held an inbox
	getErr  error
	sendErr error
	calls   map[string]int
}

func (o *outbox) Owner(_ context.Context, agent string) (string, error) {
	o.calls["owner"]++
	return o.owners[agent], nil
}

func newOutbox() *outbox {
	return &outbox{inboxes: map[string][]*inbox.Message{}, entries: map[string]*registry.Entry{}, calls: map[string]int{}}
}

func (o *outbox) Exists(_ context.Context, agent string) (bool, error) {
	o.calls["exists"]++
	_, ok := o.inboxes[agent]
	return ok, nil
}

func (o *outbox) Create(_ context.Context, agent string) error {
	o.calls["create"]++
	if _, ok := o.inboxes[agent]; !ok {
		o.inboxes[agent] = nil
	}
	return nil
}

func (o *outbox) Send(_ context.Context, m *inbox.Message) error {
	o.calls["send"]++
	if o.sendErr != nil {
		return o.sendErr
	}
	o.inboxes[m.To] = append(o.inboxes[m.To], m)
	return nil
}

func (o *outbox) Get(_ context.Context, name string) (*registry.Entry, error) {
	o.calls["get"]++
	if o.getErr != nil {
		return nil, o.getErr
	}
	if e, ok := o.entries[name]; ok {
		return e, nil
	}
	return nil, registry.ErrNotRegistered
}

func (o *outbox) delivered() int {
	n := 0
	for _, ms := range o.inboxes {
		n += len(ms)
	}
	return n
}

// The recipient's state decides the result: a live agent gets the message
// and no warning; a stopped one or one that never registered gets it with
// a typed not_active warning, or, asked for a live one, nothing and a
// not_active refusal; an agent registered without an inbox gets one; a
// name nobody knows is not_found and nothing is made for it. Each send
// asks the messenger one inbox lookup, one registry read and one write.
func TestDeliverTellsTheRecipientsState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := newOutbox()
	o.inboxes["Quinn"], o.inboxes["Ravi"], o.inboxes["Sol"], o.inboxes["Vera"] = nil, nil, nil, nil
	o.owners = map[string]string{"Vera": "parley-watch-Vera"} // watched once, then stopped
	o.entries["Quinn"] = &registry.Entry{Registration: registry.Registration{Name: "Quinn"}, Alive: true}
	o.entries["Ravi"] = &registry.Entry{Registration: registry.Registration{Name: "Ravi"}, Alive: false}
	o.entries["Tam"] = &registry.Entry{Registration: registry.Registration{Name: "Tam"}, Alive: true}

	for _, tc := range []struct {
		to          string
		requireLive bool
		warning     string // "" none
		refused     Problem
	}{
		{to: "Quinn"},
		{to: "Quinn", requireLive: true},
		{to: "Ravi", warning: "its process is gone"},
		{to: "Sol", warning: "not registered yet"},
		{to: "Vera", warning: "it registered before, and its registration is gone"},
		{to: "Ravi", requireLive: true, refused: ProblemNotActive},
		{to: "Sol", requireLive: true, refused: ProblemNotActive},
		{to: "Tam"},
		{to: "Ursula", refused: ProblemNotFound},
		{to: "Ursula", requireLive: true, refused: ProblemNotFound},
	} {
		before := o.delivered()
		clear(o.calls)
		sent, err := Deliver(ctx, o, o, SendRequest{From: "deploy_bot", To: tc.to, Text: "rollout paused at 40%", RequireLive: tc.requireLive})
		if tc.refused != "" {
			var e *Error
			if !errors.As(err, &e) || e.Problem != tc.refused || e.Agent != tc.to || sent != nil || o.delivered() != before {
				t.Errorf("%s (require live %v): %v (%+v); want %s and nothing delivered", tc.to, tc.requireLive, err, e, tc.refused)
			}
			if tc.refused == ProblemNotFound && (!errors.Is(err, inbox.ErrNotFound) || o.calls["create"] != 0) {
				t.Errorf("%s: not_found does not wrap inbox.ErrNotFound, or an inbox was made: %v %v", tc.to, err, o.calls)
			}
			if tc.refused == ProblemNotActive && (!errors.Is(err, ErrNotActive) || !strings.Contains(e.Format(func(string) string { return "--require-live" }), "drop --require-live")) {
				t.Errorf("%s: not_active refusal %q does not name the input to drop", tc.to, err)
			}
			continue
		}
		if err != nil || o.delivered() != before+1 || sent.Message.To != tc.to || sent.Message.ID == "" {
			t.Fatalf("%s: %v, %d delivered", tc.to, err, o.delivered()-before)
		}
		if o.calls["exists"] != 1 || o.calls["get"] != 1 || o.calls["send"] != 1 {
			t.Errorf("%s: the send asked %v of the messenger; want one lookup, one read, one write", tc.to, o.calls)
		}
		switch {
		case tc.warning == "" && len(sent.Warnings) != 0:
			t.Errorf("%s: warnings %v for a live agent", tc.to, sent.Warnings)
		case tc.warning != "" && (len(sent.Warnings) != 1 || sent.Warnings[0].Code != WarnNotActive || sent.Warnings[0].Agent != tc.to || !strings.Contains(sent.Warnings[0].Text, tc.warning)):
			t.Errorf("%s: warnings %+v; want one not_active saying %q", tc.to, sent.Warnings, tc.warning)
		}
	}
	if _, ok := o.inboxes["Tam"]; !ok {
		t.Error("an agent registered without an inbox did not get one")
	}
	// A write that fails is the error alone: no warning about a message
	// that was never delivered, and the error says what to do.
	o.sendErr = &os.PathError{Op: "write", Path: "inbox/Ravi/.x.tmp", Err: syscall.ENOSPC}
	sent, err := Deliver(ctx, o, o, SendRequest{From: "deploy_bot", To: "Ravi", Text: "retry"})
	if sent != nil || !errors.Is(err, syscall.ENOSPC) || !IsProblem(err, ProblemMessenger) || !strings.Contains(err.Error(), "free disk space") {
		t.Errorf("a failed write: %+v, %v", sent, err)
	}
	o.sendErr, o.getErr = nil, registry.ErrUnsafePath
	if _, err := Deliver(ctx, o, o, SendRequest{From: "deploy_bot", To: "Ravi", Text: "retry"}); !errors.Is(err, registry.ErrUnsafePath) || !strings.Contains(err.Error(), "move it away") {
		t.Errorf("a registry that cannot be read: %v", err)
	}
}

// Input a sender must not get through, each refused with its Problem and
// the input it concerns, before the messenger is asked anything.
func TestDeliverRefusesHostileInput(t *testing.T) {
	t.Parallel()
	ok := SendRequest{From: "ops-pager", To: "Quinn", Text: "disk at 91% on db-2"}
	with := func(f func(*SendRequest)) SendRequest { r := ok; f(&r); return r }
	cases := map[string]struct {
		r       SendRequest
		problem Problem
		field   string
	}{
		"no sender":       {with(func(r *SendRequest) { r.From = "" }), ProblemMissing, "from"},
		"no recipient":    {with(func(r *SendRequest) { r.To = "" }), ProblemMissing, "to"},
		"blank text":      {with(func(r *SendRequest) { r.Text = "" }), ProblemInvalid, "text"},
		"whitespace text": {with(func(r *SendRequest) { r.Text = " \n\t\u00a0\u2003 " }), ProblemInvalid, "text"},
		"binary text":     {with(func(r *SendRequest) { r.Text = "PK\x03\x04\xff\xfe" }), ProblemNotText, "text"},
		// Valid UTF-8, yet no text: a UTF-16 file without its byte order
		// mark, a file of zeros. A debate's context is refused alike.
		"UTF-16 text":           {with(func(r *SendRequest) { r.Text = "d\x00i\x00s\x00k\x00 \x00a\x00t\x00 \x009\x001\x00%\x00" }), ProblemNotText, "text"},
		"zeros":                 {with(func(r *SendRequest) { r.Text = strings.Repeat("\x00", 1000) }), ProblemNotText, "text"},
		"one NUL in text":       {with(func(r *SendRequest) { r.Text = "disk at 91%\x00 on db-2" }), ProblemNotText, "text"},
		"over the limit":        {with(func(r *SendRequest) { r.Text = strings.Repeat("z", inbox.MaxMessageBytes+1) }), ProblemTooLarge, "text"},
		"over once encoded":     {with(func(r *SendRequest) { r.Text = strings.Repeat("\x01", inbox.MaxMessageBytes/2) }), ProblemTooLarge, ""},
		"capital type":          {with(func(r *SendRequest) { r.Type = "Note" }), ProblemInvalid, "type"},
		"type with a brace":     {with(func(r *SendRequest) { r.Type = "{to}%s" }), ProblemInvalid, "type"},
		"type of 65 characters": {with(func(r *SendRequest) { r.Type = "t" + strings.Repeat("x", 64) }), ProblemInvalid, "type"},
		"long reply-to":         {with(func(r *SendRequest) { r.ReplyTo = strings.Repeat("9", MaxReplyTo+1) }), ProblemInvalid, "reply_to"},
		// --reply-to with its id forgotten takes the next flag as its value.
		"reply-to that is a flag": {with(func(r *SendRequest) { r.ReplyTo = "--require-live" }), ProblemInvalid, "reply_to"},
		"reply-to with a space":   {with(func(r *SendRequest) { r.ReplyTo = "m 9" }), ProblemInvalid, "reply_to"},
		"reply-to with a newline": {with(func(r *SendRequest) { r.ReplyTo = "m-9\nforged: yes" }), ProblemInvalid, "reply_to"},
		"reply-to with an escape": {with(func(r *SendRequest) { r.ReplyTo = "\x1b[2J" }), ProblemInvalid, "reply_to"},
		"reply-to not UTF-8":      {with(func(r *SendRequest) { r.ReplyTo = "m-\xff" }), ProblemInvalid, "reply_to"},
	}
	for _, name := range inboxtest.HostileNames {
		if name != "" {
			cases["recipient "+name] = struct {
				r       SendRequest
				problem Problem
				field   string
			}{with(func(r *SendRequest) { r.To = name }), ProblemName, "to"}
			cases["sender "+name] = struct {
				r       SendRequest
				problem Problem
				field   string
			}{with(func(r *SendRequest) { r.From = name }), ProblemName, "from"}
		}
	}
	for name, tc := range cases {
		o := newOutbox()
		o.inboxes["Quinn"] = nil
		sent, err := Deliver(context.Background(), o, o, tc.r)
		var e *Error
		if !errors.As(err, &e) || e.Problem != tc.problem || e.Field != tc.field || sent != nil {
			t.Errorf("%s: %v (%+v); want %s of %q", name, err, e, tc.problem, tc.field)
			continue
		}
		if len(o.calls) != 0 || o.delivered() != 0 {
			t.Errorf("%s: the messenger was asked %v", name, o.calls)
		}
		if tc.problem == ProblemTooLarge && !errors.Is(err, inbox.ErrTooLarge) {
			t.Errorf("%s: %v does not wrap inbox.ErrTooLarge", name, err)
		}
	}
}

// The ids a reply answers, parley's and other tools', are taken as given.
func TestReplyToTakesAnyID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"", "6f1c2a9e-0b4d-4c1e-9a37-2d5f8e7b1c40", "req-1", "m-9", "01HZX3J5K8Q2", "dead/Bob/3", "réponse-7"} {
		o := newOutbox()
		o.inboxes["Quinn"] = nil
		sent, err := Deliver(context.Background(), o, o, SendRequest{From: "ops-pager", To: "Quinn", Text: "ack", ReplyTo: id})
		if err != nil || sent.Message.ReplyTo != id {
			t.Errorf("reply to %q: %v", id, err)
		}
	}
}

// A front end names the inputs its own way; a value quoted in the message
// that looks like an input's name, or a format verb, stays as it was.
func TestErrorFormatRenamesOnlyTheInputs(t *testing.T) {
	t.Parallel()
	_, err := Deliver(context.Background(), newOutbox(), newOutbox(), SendRequest{From: "a", To: "b", Text: "x", Type: "{type}%d"})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%v", err)
	}
	flag := func(f string) string { return "--" + strings.ReplaceAll(f, "_", "-") }
	if got, want := e.Format(flag), `--type "{type}%d": use lower-case letters, digits and '_', starting with a letter`; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	if got := e.Error(); !strings.HasPrefix(got, `type "{type}%d"`) {
		t.Errorf("Error = %q", got)
	}
}

// The refusals of a debate request are worded the same way: the agent at
// fault is quoted as it was given, braces and verbs included, and only
// the input's own name is the front end's.
func TestRefusalQuotesTheValueAsGiven(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	for _, arg := range []string{"{budget}=@Rook%s", "attacker=carrier-pigeon:{layer}"} {
		_, err := a.NewSession(context.Background(), DebateRequest{Layer: "plan", Topic: "Queue depth", Agents: []string{arg, "defender=@Bishop"}})
		var e *Error
		if !errors.As(err, &e) || e.Field != FieldAgent || e.Value != arg || e.Problem != ProblemInvalid {
			t.Fatalf("%q: %v", arg, err)
		}
		got := e.Format(func(f string) string { return "<" + f + ">" })
		if want := "<agents> " + strconv.Quote(arg) + ": "; !strings.HasPrefix(got, want) || strings.Count(got, "<") != 1 {
			t.Errorf("%q: Format = %q, want it to start %q and rename nothing else", arg, got, want)
		}
	}
}

// Through the App, over the file messenger: no root means not_found and
// no root made; a registration whose process is gone is not_active.
func TestSendThroughTheApp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "state")
	a := New(Options{Root: root})
	if _, err := a.Send(ctx, SendRequest{From: "cron", To: "Quinn", Text: "nightly report ready"}); !errors.Is(err, ErrNoRoot) || !IsProblem(err, ProblemNotFound) {
		t.Fatalf("send without a root: %v", err)
	}
	if a.HaveRoot() {
		t.Fatal("a refused send made the root")
	}
	if _, err := a.AddAgent(ctx, "Quinn"); err != nil {
		t.Fatal(err)
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dead := registrytest.DeadPID(t)
	if _, err := b.Registry().Register(ctx, registry.Registration{Name: "Ravi", PID: dead}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	sent, err := a.Send(ctx, SendRequest{From: "cron", To: "Ravi", Text: "nightly report ready"})
	if err != nil || len(sent.Warnings) != 1 || sent.Warnings[0].Code != WarnNotActive {
		t.Fatalf("send to a stopped agent: %+v %v", sent, err)
	}
	var got []string
	n, err := a.Recv(ctx, "Ravi", ReceiveOptions{}, func(m *inbox.Message) error { got = append(got, m.Text); return nil })
	if err != nil || n != 1 || got[0] != "nightly report ready" {
		t.Fatalf("recv: %d %v %v", n, got, err)
	}
}

// A byte order mark before the text (Notepad's, PowerShell's UTF-8 piped
// into "parley send -") is not delivered as part of the message; a text
// that is nothing else is nothing to send.
func TestSendDropsAByteOrderMark(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	if _, err := a.AddAgent(ctx, "Quinn"); err != nil {
		t.Fatal(err)
	}
	sent, err := a.Send(ctx, SendRequest{From: "cron", To: "Quinn", Text: "\ufeffnightly report ready\n"})
	if err != nil || sent.Message.Text != "nightly report ready\n" {
		t.Fatalf("send after a BOM: %+v, %v; want the text without it", sent, err)
	}
	var got []string
	if _, err := a.Recv(ctx, "Quinn", ReceiveOptions{}, func(m *inbox.Message) error { got = append(got, m.Text); return nil }); err != nil || len(got) != 1 || got[0] != "nightly report ready\n" {
		t.Fatalf("recv: %q, %v; want the text without the BOM", got, err)
	}
	if _, err := a.Send(ctx, SendRequest{From: "cron", To: "Quinn", Text: "\ufeff\n"}); !IsProblem(err, ProblemInvalid) {
		t.Errorf("send of a BOM alone: %v; want nothing to send", err)
	}
}

// A message the caller could not handle is not acknowledged: the next
// receive gets it again. Max bounds a receive; an empty inbox is no error.
func TestReceiveAcknowledgesOnlyWhatWasHandled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := New(Options{Root: t.TempDir()})
	if _, err := a.AddAgent(ctx, "Sol"); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"one", "two", "three"} {
		if _, err := a.Send(ctx, SendRequest{From: "x", To: "Sol", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	refuse := errors.New("terminal gone")
	n, err := a.Recv(ctx, "Sol", ReceiveOptions{}, func(*inbox.Message) error { return refuse })
	if n != 0 || !errors.Is(err, refuse) {
		t.Fatalf("a refused message: %d %v", n, err)
	}
	var got []string
	take := func(m *inbox.Message) error { got = append(got, m.Text); return nil }
	if n, err := a.Recv(ctx, "Sol", ReceiveOptions{Max: 2}, take); n != 2 || err != nil {
		t.Fatalf("max 2: %d %v", n, err)
	}
	if n, err := a.Recv(ctx, "Sol", ReceiveOptions{}, take); n != 1 || err != nil {
		t.Fatalf("the rest: %d %v", n, err)
	}
	if n, err := a.Recv(ctx, "Sol", ReceiveOptions{Wait: 10 * time.Millisecond}, take); n != 0 || err != nil {
		t.Fatalf("empty inbox: %d %v", n, err)
	}
	if strings.Join(got, ",") != "one,two,three" {
		t.Fatalf("received %v", got)
	}
}

// A recipient whose registration does not read (torn, hand-edited) is
// known, and not running: the send delivers, with inbox made when it has
// none, and its not_active warning says that the registration does not
// read, not that it never registered; no "no registration" not_found.
func TestSendToAnAgentWhoseRegistrationDoesNotRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	if _, err := a.AddAgent(ctx, "Bob"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Bob", "Cleo"} { // Cleo has no inbox
		if err := os.WriteFile(filepath.Join(a.Root(), registry.Dir, name+".json"), []byte(`{"name":"`+name+`","pid":12`), 0o600); err != nil {
			t.Fatal(err)
		}
		sent, err := a.Send(ctx, SendRequest{From: "deploy_bot", To: name, Text: "rollout paused at 40%"})
		if err != nil {
			t.Errorf("send to %s: %v; want it delivered", name, err)
			continue
		}
		if len(sent.Warnings) != 1 || sent.Warnings[0].Code != WarnNotActive || !strings.Contains(sent.Warnings[0].Text, "registration does not read") ||
			strings.Contains(sent.Warnings[0].Text, "not registered yet") {
			t.Errorf("send to %s: warnings %+v; want one not_active saying its registration does not read", name, sent.Warnings)
		}
		if ag, err := a.Agent(ctx, name); err != nil || ag.InboxCount == nil || ag.Waiting != 1 {
			t.Errorf("%s after the send: %+v, %v; want 1 waiting", name, ag, err)
		}
	}
	// recv of such a name without an inbox makes it, as for any registered name.
	if err := os.WriteFile(filepath.Join(a.Root(), registry.Dir, "Dora.json"), []byte(`{"name":"Dora"`), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := a.Recv(ctx, "Dora", ReceiveOptions{}, func(*inbox.Message) error { return nil }); err != nil || n != 0 {
		t.Errorf("recv of Dora: %d, %v; want an empty inbox", n, err)
	}
}

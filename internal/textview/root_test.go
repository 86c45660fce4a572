package textview

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/config"
)

// init says where the root and the vault are, and what it made, with the
// right number for one directory and for several.
func TestInitialized(t *testing.T) {
	for _, c := range []struct {
		created []string
		want    string
	}{
		{nil, "already set up: nothing created\n"},
		{[]string{"/srv/p"}, "created 1 directory:\n  /srv/p\n"},
		{[]string{"/srv/p", "/srv/p/inbox"}, "created 2 directories:\n  /srv/p\n  /srv/p/inbox\n"},
	} {
		var b bytes.Buffer
		err := Initialized(&b, &app.Initialized{Root: "/srv/p", Vault: "/notes", Created: c.created})
		if want := "parley root:  /srv/p\nparley vault: /notes\n" + c.want; err != nil || b.String() != want {
			t.Errorf("created %v: got %q, %v; want %q", c.created, b.String(), err, want)
		}
	}
	broken := errors.New("pipe closed")
	if err := Initialized(closedPipe{broken}, &app.Initialized{}); !errors.Is(err, broken) {
		t.Errorf("to a failing writer: %v", err)
	}
}

// gc's line gives the age as the user wrote it and names the pruned
// registrations, if any.
func TestCollected(t *testing.T) {
	var b bytes.Buffer
	Collected(&b, app.Collected{Acked: 3, Staging: 1, Pruned: []string{}}, "12h")
	Collected(&b, app.Collected{Pruned: []string{"Quill", "Harbor"}}, "7d")
	// Over NATS only registrations are collected: it says so, not "0 removed".
	Collected(&b, app.Collected{Pruned: []string{"Quill"}, RegistrationsOnly: true}, "7d")
	want := "removed 3 message(s) acknowledged more than 12h ago, 1 stale staging file(s); pruned 0 dead registration(s)\n" +
		"removed 0 message(s) acknowledged more than 7d ago, 0 stale staging file(s); pruned 2 dead registration(s): Quill, Harbor\n" +
		"removed 0 stale staging file(s); pruned 1 dead registration(s): Quill (this messenger keeps no acknowledged messages: nothing else to collect)\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}

// config show: the source on stderr says whether the file exists; the
// configuration is an indented config.json that reads back the same.
func TestConfig(t *testing.T) {
	var b bytes.Buffer
	ConfigSource(&b, &app.ConfigSource{Path: "/srv/p/config.json", Found: true})
	ConfigSource(&b, &app.ConfigSource{Path: "/srv/p/config.json"})
	want := "parley: effective configuration (/srv/p/config.json)\n" +
		"parley: effective configuration (no /srv/p/config.json: all defaults)\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	cfg, err := config.Parse([]byte(`{"transport":"nats","nats":{"url":"nats://10.0.0.5:4222"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := Config(&b, &app.ConfigSource{Effective: cfg.Effective()}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"") || !strings.HasSuffix(b.String(), "\n}\n") || !strings.Contains(b.String(), `"url": "nats://10.0.0.5:4222"`) {
		t.Errorf("not an indented config.json: %s", b.String())
	}
	back, err := config.Parse(b.Bytes())
	if err != nil || back.NATS.URL != "nats://10.0.0.5:4222" || back.Transport != "nats" {
		t.Errorf("the output does not read back as the same config: %+v, %v", back, err)
	}
}

package natsserver_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/internal/natsserver"
)

// A restarted server listens at the same URL and still holds what its
// JetStream stored before the stop.
func TestRestartKeepsURLAndStore(t *testing.T) {
	t.Parallel()
	s, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	url := s.URL()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js := connect(t, url)
	if _, err := js.CreateStream(ctx, njs.StreamConfig{Name: "S", Subjects: []string{"s"}, Storage: njs.FileStorage}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "s", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(); err == nil {
		t.Fatal("Restart of a running server did not fail")
	}
	s.Stop()
	s.Stop() // idempotent
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if s.URL() != url {
		t.Fatalf("URL changed across a restart: %s, then %s", url, s.URL())
	}
	st, err := connect(t, url).Stream(ctx, "S")
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetMsg(ctx, 1)
	if err != nil || string(m.Data) != "kept" {
		t.Fatalf("after the restart: %v, %v", m, err)
	}
}

func connect(t *testing.T, url string, opts ...nats.Option) njs.JetStream {
	t.Helper()
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := njs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// With WithOperator the server admits only a user of one of the operator's
// accounts holding that user's seed, keeps requiring it after a restart,
// and gives the account JetStream.
func TestWithOperatorRequiresCredentials(t *testing.T) {
	t.Parallel()
	op, err := natsserver.NewOperator("test")
	if err != nil {
		t.Fatal(err)
	}
	acc, err := op.NewAccount("A", true)
	if err != nil {
		t.Fatal(err)
	}
	good, err := acc.Creds("u")
	if err != nil {
		t.Fatal(err)
	}
	token, seed, err := acc.NewUser("v")
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := acc.NewUser("w")
	if err != nil {
		t.Fatal(err)
	}
	v, err := natsserver.FormatCreds(token, seed)
	if err != nil {
		t.Fatal(err)
	}
	wrongSeed := bytes.Replace(v, seed, other, 1)
	if _, err := natsserver.FormatCreds(token, other); err == nil {
		t.Fatal("FormatCreds accepted a seed that is not the user's")
	}
	dir := t.TempDir()
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goodPath, wrongPath := file("good.creds", good), file("wrong.creds", wrongSeed)

	s, err := natsserver.Start(t.TempDir(), natsserver.WithOperator(op))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	for round := range 2 {
		if _, err := nats.Connect(s.URL()); !errors.Is(err, nats.ErrAuthorization) {
			t.Fatalf("round %d: connect without credentials = %v, want an authorization violation", round, err)
		}
		if _, err := nats.Connect(s.URL(), nats.UserCredentials(wrongPath)); !errors.Is(err, nats.ErrAuthorization) {
			t.Fatalf("round %d: connect with a JWT and another user's seed = %v, want an authorization violation", round, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		js := connect(t, s.URL(), nats.UserCredentials(goodPath))
		if _, err := js.AccountInfo(ctx); err != nil {
			t.Fatalf("round %d: JetStream of the account: %v", round, err)
		}
		cancel()
		s.Stop()
		if err := s.Restart(); err != nil {
			t.Fatal(err)
		}
	}
}

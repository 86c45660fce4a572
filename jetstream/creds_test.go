package jetstream_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// authServer starts an embedded server with decentralized JWT
// authentication: an operator, an account with JetStream, and the .creds
// files of two of its users.
func authServer(t testing.TB) (srv *natsserver.Server, op *natsserver.Operator, acc *natsserver.Account, creds [2]string) {
	t.Helper()
	op, err := natsserver.NewOperator("parley-test")
	if err != nil {
		t.Fatal(err)
	}
	if acc, err = op.NewAccount("PARLEY", true); err != nil {
		t.Fatal(err)
	}
	for i, user := range []string{"alice", "bob"} {
		b, err := acc.Creds(user)
		if err != nil {
			t.Fatal(err)
		}
		creds[i] = writeFile(t, user+".creds", b)
	}
	if srv, err = natsserver.Start(t.TempDir(), natsserver.WithOperator(op)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv, op, acc, creds
}

func writeFile(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A server that requires credentials (operator, account with JetStream,
// user JWT and seed in a .creds file): with the file, the transport and
// the registry work; each connection is a different user of the account.
func TestCredentialsServerRequiringThem(t *testing.T) {
	t.Parallel()
	srv, _, _, creds := authServer(t)
	rc := connect(t, srv.URL(), func(c *jetstream.Config) { c.Credentials = creds[0] })
	sc := connect(t, srv.URL(), func(c *jetstream.Config) { c.Credentials = creds[1] })

	if err := rc.Transport().Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	r, err := rc.Transport().Listen(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := sc.Transport().Send(ctxT(t), &inbox.Message{From: "Alice", To: "Bob", Text: "over credentials"}); err != nil {
		t.Fatal(err)
	}
	if w, _, _, err := rc.Transport().Count(ctxT(t), "Bob"); err != nil || w != 1 {
		t.Fatalf("after the send, Count = %d waiting, %v; want 1", w, err)
	}
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Message.From != "Alice" || d.Message.Text != "over credentials" {
		t.Fatalf("received %+v", d.Message)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	if w, _, _, err := sc.Transport().Count(ctxT(t), "Bob"); err != nil || w != 0 {
		t.Fatalf("after the ack, Count = %d waiting, %v; want 0", w, err)
	}

	reg := jetstream.NewRegistry(rc, rc.Transport())
	if _, err := reg.Register(ctxT(t), registry.Registration{Name: "Carol"}); err != nil {
		t.Fatal(err)
	}
	other := jetstream.NewRegistry(sc, sc.Transport())
	e, err := other.Get(ctxT(t), "Carol")
	if err != nil || e.Name != "Carol" || !e.Alive {
		t.Fatalf("Get Carol from the other user's connection = %+v, %v", e, err)
	}
	if _, err := other.Register(ctxT(t), registry.Registration{Name: "Carol"}); !errors.Is(err, registry.ErrNameTaken) {
		t.Fatalf("claiming a taken name as the other user = %v, want ErrNameTaken", err)
	}
}

// Every way of not holding a good user's credentials fails at Connect with
// an error that names what to check, and never shows the seed.
func TestCredentialsRefused(t *testing.T) {
	t.Parallel()
	srv, op, acc, creds := authServer(t)
	good, err := os.ReadFile(creds[0])
	if err != nil {
		t.Fatal(err)
	}

	// A user of an account of another operator, unknown to this server.
	stranger, err := natsserver.NewOperator("stranger")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := stranger.NewAccount("FOREIGN", true)
	if err != nil {
		t.Fatal(err)
	}
	foreignCreds, err := foreign.Creds("eve")
	if err != nil {
		t.Fatal(err)
	}
	// A user of this operator, in an account created after the server
	// started (the memory resolver serves it) without JetStream.
	nojs, err := op.NewAccount("NOJS", false)
	if err != nil {
		t.Fatal(err)
	}
	nojsCreds, err := nojs.Creds("mallory")
	if err != nil {
		t.Fatal(err)
	}
	// Alice's JWT with another user's seed: the file of a user whose key
	// the holder does not have.
	token, seed, err := acc.NewUser("carol")
	if err != nil {
		t.Fatal(err)
	}
	_, otherSeed, err := acc.NewUser("dave")
	if err != nil {
		t.Fatal(err)
	}
	carol, err := natsserver.FormatCreds(token, seed)
	if err != nil {
		t.Fatal(err)
	}
	wrongSeed := bytes.Replace(carol, seed, otherSeed, 1)
	if bytes.Equal(wrongSeed, carol) {
		t.Fatal("the seed was not replaced")
	}

	cases := []struct {
		name  string
		creds string // path; "" for none
		is    error
		want  []string // the message names these
	}{
		{"no credentials", "", jetstream.ErrAuth, []string{"requires credentials", ".creds file"}},
		{"user of another operator", writeFile(t, "foreign.creds", foreignCreds), jetstream.ErrAuth, []string{"refused the user of credentials file", "foreign.creds", "operator"}},
		{"wrong seed", writeFile(t, "wrongseed.creds", wrongSeed), jetstream.ErrAuth, []string{"wrongseed.creds", "seed is not the key of its user JWT"}},
		{"account without JetStream", writeFile(t, "nojs.creds", nojsCreds), jetstream.ErrUnavailable, []string{"JetStream is not enabled for the account", "nojs.creds"}},
		{"not a creds file", writeFile(t, "garbage.creds", []byte("user = alice\npassword = x\n")), jetstream.ErrAuth, []string{"garbage.creds", "is not a NATS .creds file"}},
		{"seed only", writeFile(t, "seedonly.creds", seed), jetstream.ErrAuth, []string{"seedonly.creds", "is not a NATS .creds file"}},
		{"missing file", filepath.Join(t.TempDir(), "absent.creds"), jetstream.ErrAuth, []string{"absent.creds", "no such file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := jetstream.Connect(ctxT(t), jetstream.Config{URL: srv.URL(), Credentials: tc.creds})
			if err == nil {
				c.Close()
				t.Fatal("Connect succeeded")
			}
			if !errors.Is(err, tc.is) {
				t.Fatalf("Connect = %v, want %v", err, tc.is)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Connect = %q, want it to say %q", err, w)
				}
			}
			for _, s := range [][]byte{seed, otherSeed} {
				if strings.Contains(err.Error(), string(s)) {
					t.Fatalf("the error shows a seed: %v", err)
				}
			}
		})
	}
	// And the good file still works after all that.
	connect(t, srv.URL(), func(c *jetstream.Config) { c.Credentials = creds[0] })
	if !bytes.Contains(good, []byte("NATS USER JWT")) {
		t.Fatalf("the creds file is not in the .creds format:\n%s", good)
	}
}

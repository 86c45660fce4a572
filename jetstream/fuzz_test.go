package jetstream_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
)

// The inbox bucket's values can be written by anything with access to the
// server: their decoders never panic, and a hold that does not decode
// still names a holder (the inbox stays busy until it expires).
func FuzzDecodeBucketValues(f *testing.F) {
	f.Add([]byte(`{"holder":"h","host":"vm","pid":42,"since":"2026-01-01T00:00:00.000Z"}`))
	f.Add([]byte(`{"owner":"5b0c4f0e-1d8a-4c3e-9f00-1234567890ab"}`))
	f.Add([]byte(`{"pid":1e400}`))
	f.Add([]byte(`{"owner":null,"holder":[]}`))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		holder, _, _ := jetstream.DecodeHold(data)
		if holder == "" {
			t.Fatalf("a hold that does not decode names no holder: %q", data)
		}
		_, _ = jetstream.DecodeBox(data)
	})
}

// A credentials file may hold anything: its check never panics, refuses
// with ErrAuth, and accepts a JWT only with its own user's seed.
func FuzzParseCredentials(f *testing.F) {
	op, err := natsserver.NewOperator("fuzz")
	if err != nil {
		f.Fatal(err)
	}
	acc, err := op.NewAccount("A", true)
	if err != nil {
		f.Fatal(err)
	}
	token, seed, err := acc.NewUser("u")
	if err != nil {
		f.Fatal(err)
	}
	_, other, err := acc.NewUser("v")
	if err != nil {
		f.Fatal(err)
	}
	good, err := natsserver.FormatCreds(token, seed)
	if err != nil {
		f.Fatal(err)
	}
	if err := jetstream.ParseCredentials(good); err != nil {
		f.Fatalf("a good creds file: %v", err)
	}
	wrong := bytes.Replace(good, seed, other, 1)
	if err := jetstream.ParseCredentials(wrong); !errors.Is(err, jetstream.ErrAuth) {
		f.Fatalf("a JWT with another user's seed: %v", err)
	}
	// The whole files are checked above, not seeded: a valid JWT costs a
	// signature check (milliseconds under the fuzzer's instrumentation),
	// and minimising a kilobyte input made of them stalled the fuzzer for
	// minutes. Small seeds reach the same parsers.
	f.Add(seed)
	f.Add([]byte("-----BEGIN NATS USER JWT-----\nx.y.z\n------END NATS USER JWT------\n"))
	f.Add([]byte("-----BEGIN USER NKEY SEED-----\n" + string(seed) + "\n------END USER NKEY SEED------\n"))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := jetstream.ParseCredentials(data); err != nil && !errors.Is(err, jetstream.ErrAuth) {
			t.Fatalf("refused without ErrAuth: %v", err)
		}
	})
}

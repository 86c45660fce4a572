package jetstream_test

import (
	"testing"

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

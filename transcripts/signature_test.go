package transcripts

import (
	"context"
	"crypto/ed25519"
	"testing"
)

// TestAnUnsealedDebateSaysNoSignatureVouchesForIt: with a public key
// configured, a debate not sealed yet (running, interrupted, or a filing
// a crash cut short, which is also what a rewrite made to look
// interrupted looks like) has no signature to show, and its audit says so
// rather than nothing; it is not tampering in itself. A sealed one
// without a signature is.
func TestAnUnsealedDebateSaysNoSignatureVouchesForIt(t *testing.T) {
	t.Parallel()
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newStore(t)
	const unsealed, sealed = "20260101-spec-unsealed-abcdef", "20260101-spec-sealed-abcdef"
	writeDebate(t, s, unsealed, 8, false).Close()
	writeDebate(t, s, sealed, 8, true).Close()
	for _, c := range []struct {
		id   string
		key  ed25519.PublicKey
		want SigStatus
	}{
		{unsealed, pub, SigNotSealed},
		{unsealed, nil, SigNone},
		{sealed, pub, SigMissing},
		{sealed, nil, SigNone},
	} {
		tr, err := s.Audit(context.Background(), c.id, Witnesses{PublicKey: c.key})
		if err != nil {
			t.Fatal(err)
		}
		in := NewView(tr).Integrity
		if in.Signature != c.want {
			t.Errorf("%s, key %v: signature %q, want %q", c.id, c.key != nil, in.Signature, c.want)
		}
		if c.id == unsealed && in.Tampered() {
			t.Errorf("%s, key %v: an unsealed debate reads as tampered: %s", c.id, c.key != nil, in.Trouble())
		}
	}
}

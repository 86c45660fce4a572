package transcripts

import (
	"context"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// TestTheSignatureIsCheckedWhateverElseDiffers: with a public key
// configured, the signature of a readable verdict.json is checked even
// when the transcript lost lines or verdict.json's fields differ (it was
// left out, as if no key were set); a verdict.json that cannot be read is
// no debate still to seal ("NONE YET … resume"): no signature vouches
// for it.
func TestTheSignatureIsCheckedWhateverElseDiffers(t *testing.T) {
	t.Parallel()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(t *testing.T, transcript, verdict string)
		want SigStatus
	}{
		{"untouched", func(*testing.T, string, string) {}, SigValid},
		{"seal line deleted", func(t *testing.T, transcript, _ string) {
			data := readTestFile(t, transcript)
			lines := strings.SplitAfter(string(data), "\n")
			writeTestFile(t, transcript, strings.Join(lines[:len(lines)-2], ""))
		}, SigValid},
		{"transcript cut before the verdict", func(t *testing.T, transcript, _ string) {
			lines := strings.SplitAfter(string(readTestFile(t, transcript)), "\n")
			writeTestFile(t, transcript, strings.Join(lines[:3], ""))
		}, SigValid},
		{"verdict.json's verdict edited", func(t *testing.T, _, verdict string) {
			data := string(readTestFile(t, verdict))
			if !strings.Contains(data, `"DEADLOCK"`) {
				t.Fatalf("no verdict to edit in %s", data)
			}
			writeTestFile(t, verdict, strings.Replace(data, `"DEADLOCK"`, `"CONSENSUS_REACHED"`, 1))
		}, SigValid},
		{"verdict.json's end edited", func(t *testing.T, _, verdict string) {
			data := string(readTestFile(t, verdict))
			re := regexp.MustCompile(`"events": *\d+`)
			if !re.MatchString(data) {
				t.Fatalf("no events to edit in %s", data)
			}
			writeTestFile(t, verdict, re.ReplaceAllString(data, `"events": 99`))
		}, SigInvalid},
		{"verdict.json cut short", func(t *testing.T, _, verdict string) {
			writeTestFile(t, verdict, string(readTestFile(t, verdict)[:40]))
		}, SigMissing},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, dir := newStore(t)
			s.SignWith(priv)
			writeDebate(t, s, testID, 8, true).Close()
			deb := filepath.Join(dir, Dir, testID)
			c.edit(t, filepath.Join(deb, TranscriptFile), filepath.Join(deb, VerdictFile))
			tr, err := s.Audit(context.Background(), testID, Witnesses{PublicKey: pub})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Signature != c.want {
				t.Errorf("signature %q, want %q", tr.Signature, c.want)
			}
		})
	}
}

func readTestFile(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeTestFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

package textview_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/transcripts"
)

// TestAuditSaysNoSignatureVouchesForAnUnsealedDebate: with seal.publicKey
// set, "transcripts verify" of a debate not sealed yet says that no
// signature vouches for its files, and how it gets one.
func TestAuditSaysNoSignatureVouchesForAnUnsealedDebate(t *testing.T) {
	t.Parallel()
	const id = "20261201-spec-keys-abcdef"
	in := transcripts.Integrity{Intact: true, Events: 10, Head: "eb9d", Signature: transcripts.SigNotSealed}
	v := &app.Verification{Report: transcripts.Report{ID: id}, Signature: in.Signature, Integrity: in}
	var b strings.Builder
	resume := "parley --root /srv/parley debate resume " + id
	if err := textview.Audit(&b, v, resume); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "not sealed yet") || !strings.Contains(out, "signature NONE YET") || !strings.Contains(out, "an interrupted debate: "+resume+")") {
		t.Errorf("verify of an unsealed debate with a public key:\n%s", out)
	}
}

// A debate whose coordinator died before recording anything (a "debate
// start" whose background process was killed at once) has no head: verify
// said "0 events, head , not sealed yet".
func TestAuditOfANothingRecordedDebateNamesNoHead(t *testing.T) {
	t.Parallel()
	const id = "20261201-spec-keys-abcdef"
	in := transcripts.Integrity{Intact: true}
	v := &app.Verification{Report: transcripts.Report{ID: id}, Integrity: in}
	var b strings.Builder
	if err := textview.Audit(&b, v, "parley debate resume "+id); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(b.String(), "\n"); first != id+": intact so far, nothing recorded yet, not sealed yet (no verdict.json)" {
		t.Errorf("verify of a debate with nothing recorded: %q", first)
	}
}

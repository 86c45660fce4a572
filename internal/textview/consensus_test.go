package textview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
)

// A record that a late debate filed superseded by the question's current
// record (overtaken: its debate started before that record's) says so in
// the header of "consensus show", as its JSON (overtaken_by) and its body
// do: "superseded by" alone reads as if it had answered the question once
// and a later decision replaced it. A record superseded by a later debate
// says nothing of the kind.
func TestRecordPageSaysItWasOvertaken(t *testing.T) {
	t.Parallel()
	rec := func(overtaken string) *app.RecordPage {
		return &app.RecordPage{
			Record: consensus.Record{
				Summary: debate.Summary{DebateID: "20261205-spec-key-lifetime-jv5viw", Layer: debate.LayerSpec, Verdict: debate.ConsensusReached, Action: debate.ActionProceed},
				Name:    "spec-key-lifetime-2", Status: consensus.StatusSuperseded, SupersededBy: "spec-key-lifetime", OvertakenBy: overtaken,
			},
			File: "/v/wiki/consensus/spec-key-lifetime-2.md", Body: "# Key lifetime\n",
		}
	}
	var b bytes.Buffer
	if err := RecordPage(&b, rec("spec-key-lifetime")); err != nil {
		t.Fatal(err)
	}
	want := "supersedes -  superseded by spec-key-lifetime\n" +
		"overtaken by spec-key-lifetime: its debate started before spec-key-lifetime's debate, which was filed first; spec-key-lifetime answers the question, and this record was filed superseded by it\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the header of an overtaken record:\n%s\nwant it to hold:\n%s", b.String(), want)
	}
	b.Reset()
	if err := RecordPage(&b, rec("")); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "overtaken") {
		t.Errorf("a record superseded by a later debate says it was overtaken:\n%s", b.String())
	}
}

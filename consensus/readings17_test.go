package consensus

import (
	"context"

	"github.com/parleyhq/parley/debate"
	"slices"
	"strings"
	"testing"
)

// TestLongPhraseSwapped: in an edit of the filed sentence, a phrase of
// more than a few content words put where another stood is either the
// same thing said at length or another thing put in its place, and the
// words cannot tell which: unclear, with the two phrases named, rather
// than consistent (an agent told so would act against the record) or
// conflict. A swap of a few words stays a conflict, and a long phrase of
// the same words stays consistent.
func TestLongPhraseSwapped(t *testing.T) {
	t.Parallel()
	const kiln = "Pottery pieces are fired by the studio technician on Thursday nights, and members collect them from the shelf by the door after 24 hours."
	const keys = "Spare keys to the community hall are held by the caretaker and signed out in the key book, and every key must be back within 2 days."
	checkAgreements(t, []agreementCase{
		// Another thing in the phrase's place: the code before this
		// read the second as consistent, and the first as unclear only
		// for the number it adds (the differences below).
		{kiln, "Pottery pieces are fired by the two volunteers who teach the beginners pottery class on Thursday nights, and members collect them from the shelf by the door after 24 hours.", Unsure},
		{keys, "Spare keys to the community hall are held by whichever committee member lives closest to the building and signed out in the key book, and every key must be back within 2 days.", Unsure},
		// The same thing at length.
		{keys, "Spare keys to the community hall are held by the person employed to look after the building day to day and signed out in the key book, and every key must be back within 2 days.", Unsure},
		// A swap of a few words is a conflict, as before.
		{keys, "Spare keys to the community hall are held by the treasurer and signed out in the key book, and every key must be back within 2 days.", Disagree},
		// Nothing swapped, the rule restated: consistent, as before.
		{kiln, "Pottery pieces are fired by the studio technician on Thursday nights; members collect them from the shelf by the door after 24 hours.", Agree},
	})
	c := ComparePositions(kiln, "Pottery pieces are fired by the two volunteers who teach the beginners pottery class on Thursday nights, and members collect them from the shelf by the door after 24 hours.")
	if !slices.ContainsFunc(c.Differences, func(d string) bool {
		return strings.Contains(d, "studio technician") && strings.Contains(d, "→") && strings.Contains(d, "beginners pottery class")
	}) {
		t.Errorf("differences %q, want the two phrases named: studio technician → … beginners pottery class", c.Differences)
	}
}

// TestLongPhraseNamesTheObject: a long phrase that names the record's
// object in words of its own (the question was matched to the record) is
// no difference, as a short one is not.
func TestLongPhraseNamesTheObject(t *testing.T) {
	t.Parallel()
	const topic = "Guest wifi password rotation"
	const filed = "The guest wifi password is changed every Monday morning by the office manager and written on the board at reception."
	const position = "The password for the wireless internet access we give visitors is changed every Monday morning by the office manager and written on the board at reception."
	if c := ComparePositionsOn(topic, filed, position); c.Agreement != Agree {
		t.Errorf("asked about %q: %s %q, want consistent: the long phrase names the record's object", topic, c.Agreement, c.Differences)
	}
	// The same phrase swapped for another object is still unsure.
	if c := ComparePositionsOn(topic, filed, "The guest wifi password is changed every Monday morning by whichever volunteer is looking after the front desk that week and written on the board at reception."); c.Agreement != Unsure {
		t.Errorf("another person at length: %s %q, want unclear", c.Agreement, c.Differences)
	}
}

// TestLongPhraseSwappedChecked: through Check, a filed consensus asked
// about with a long phrase swapped answers unclear (exit 3 unless
// --lenient) and names the phrases, rather than consistent.
func TestLongPhraseSwappedChecked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	const topic = "Where lost property goes"
	const filed = "Lost property nobody claims within 30 days is given to the hospice charity shop on the high street, and phones and bank cards go to the police the same day."
	e.fileRule(t, debate.LayerSpec, "20261205-spec-lost-property-aaaaaa", topic, filed)
	res, err := e.s.Check(ctx, debate.LayerSpec, topic, "Lost property nobody claims within 30 days is sold in the staff auction at the summer party, and phones and bank cards go to the police the same day.")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != CheckUnclear || len(res.Comparison.Differences) == 0 {
		t.Fatalf("status %s, differences %q; want unclear with the phrases named", res.Status, res.Comparison.Differences)
	}
}

// TestTradedInAnEdit: in a position that keeps most of the filed
// sentence but changes its wording elsewhere too, two parties that trade
// places around the same verbs ("the programme officer recommends them
// and the finance lead signs them off" → "the finance lead recommends
// them and the programme officer signs them off") are a conflict, named
// as the exchange; the same parties in the same roles said in the
// passive are not.
func TestTradedInAnEdit(t *testing.T) {
	t.Parallel()
	const grants = "Grant applications of up to 5,000 pounds may be approved only if the programme officer recommends them and the finance lead signs them off, and the decision is sent within 3 weeks."
	checkAgreements(t, []agreementCase{
		// The code before this read it as consistent: the alignment
		// showed one of the two only moved.
		{grants, "Small grants (max 5,000 pounds) can be approved only when the finance lead recommends them and the programme officer signs them off; decision within 3 weeks.", Disagree},
		{grants, "Small grants (max 5,000 pounds) can be approved only when they are recommended by the programme officer and signed off by the finance lead; decision within 3 weeks.", Agree},
		// The small words read too: who trains and who signs off
		// traded places around "by" and "with" (the code before read it
		// as consistent) …
		{"New volunteers are trained by the shift lead, with the site manager signing off each module, and training finishes within 4 weeks.", "New volunteers: trained by the site manager, with the shift lead signing off each module; training done within 4 weeks.", Disagree},
		// … and two things matched against each other, either way
		// round, are the same match (the code before read the first as
		// a conflict).
		{"Match the invoice against the purchase order before paying; payments run every Friday.", "Match the purchase order against the invoice before you pay, and payments run each Friday.", Agree},
		{"Reconcile the card statement against the expense claims every month, and file the result.", "Every month, reconcile the expense claims against the card statement and file the result.", Agree},
	})
	c := ComparePositions(grants, "Small grants (max 5,000 pounds) can be approved only when the finance lead recommends them and the programme officer signs them off; decision within 3 weeks.")
	if !slices.Contains(c.Differences, "programme officer ↔ finance lead") {
		t.Errorf("differences %q, want the exchange named: programme officer ↔ finance lead", c.Differences)
	}
}

// TestPrefixNegatedKind: through Check, a question about a kind of thing
// said plainly ("controlled veterinary medicines") is not answered by the
// record of the kind negated by its own prefix ("non-controlled …"), and
// one about the same kind in other words still is (TestTopicClash has
// the topics alone).
func TestPrefixNegatedKind(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const topic = "Refill limits for non-controlled veterinary medicines"
	e.fileRule(t, debate.LayerSpec, "20261205-spec-vet-refills-aaaaaa", topic, "A prescription for a non-controlled veterinary medicine may be refilled at most 3 times within 6 months of being written.")
	res, err := e.s.Check(context.Background(), debate.LayerSpec, "Refill limits for controlled veterinary medicines", "Controlled veterinary medicines may not be refilled; each supply needs a new prescription.")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != CheckNone {
		t.Errorf("asked about controlled medicines: %s (record %v), want none", res.Status, res.Record != nil)
	}
	res, err = e.s.Check(context.Background(), debate.LayerSpec, "How often can non-controlled vet medicines be refilled?", "Non-controlled veterinary medicines: up to 3 refills within 6 months of the prescription date.")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != CheckConsistent {
		t.Errorf("asked about the same kind in other words: %s %v, want consistent", res.Status, res.Comparison.Differences)
	}
}

// TestNegationBeforeAPhrase: a negation right before a phrase of the
// lexicon ("without access tokens") reaches the whole phrase, which is
// one term from its first word to its last, as it reaches one word.
func TestNegationBeforeAPhrase(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Agents may deploy without access tokens.", "Agents may deploy without tokens."} {
		a := analyze(text)
		i := slices.IndexFunc(a.terms, func(u term) bool { return u.w == "token" })
		if i < 0 {
			t.Fatalf("%q: no term for the tokens in %+v", text, a.terms)
		}
		if u := a.terms[i]; !u.neg || !u.without {
			t.Errorf("%q: %q neg %v without %v, want both", text, u.text, u.neg, u.without)
		}
	}
	a := analyze("Agents may deploy without access tokens.")
	i := slices.IndexFunc(a.terms, func(u term) bool { return u.w == "token" })
	if u := a.terms[i]; u.to != u.at+1 || a.terms[i-1].to+1 >= u.at {
		t.Errorf("access tokens: words %d to %d after %q at %d; want two words, after a gap for \"without\"", u.at, u.to, a.terms[i-1].text, a.terms[i-1].to)
	}
}

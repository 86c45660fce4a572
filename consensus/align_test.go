package consensus

import (
	"strings"
	"testing"
)

// TestAlignEditOrRewording pins how a position is read against the filed
// sentence: an edit (most of both sides align) or a rewording, and in an
// edit the change named as written.
func TestAlignEditOrRewording(t *testing.T) {
	for _, c := range []struct {
		why, filed, position string
		edit                 bool
		change               string // a substring of one change; "" for none
	}{
		{"one option for another", "Round currency amounts half-to-even to 2 decimal places.", "Round currency amounts half-up to 2 decimal places.", true, "half-to-even → half-up"},
		{"per thing turned across all", "Invoice numbers are sequential per legal entity and never reused.", "Invoice numbers are sequential across all legal entities and never reused.", true, "per → across all"},
		{"a role swapped", "Refunds above 500 EUR need a second approver from finance.", "Refunds above 500 EUR need a second approver from support.", true, "finance → support"},
		{"the end of the rule replaced", "Keep application logs for 90 days, then delete them.", "Keep application logs for 90 days, then archive them to cold storage.", true, "delete"},
		{"an exception turned into an inclusion", "Everyone on site must wear a helmet at all times, visitors included.", "Everyone on site must wear a helmet at all times, visitors excepted.", true, "included → excepted"},
		{"a name left out of the same sentence", "Every release is tested with VoiceOver and NVDA before it ships.", "Every release is tested with VoiceOver before it ships.", true, "NVDA → (not said)"},
		{"a word only left out of a rewording", "Support the last two major versions of the mobile app.", "Support the last two major versions of the app, Android and iOS alike.", false, ""},
		{"an article and a comparative", "Serve thumbnails as WebP at quality 80, with a JPEG fallback for old browsers.", "Serve thumbnails as WebP at quality 80 with JPEG fallback for older browsers.", true, ""},
		{"a number changed is compareQuantities' business", "Expire idle sessions after 5 min.", "Expire idle sessions after 300 s.", true, ""},
		{"a word moved", "Expire idle sessions after 5 minutes.", "Idle sessions expire after 5 minutes.", true, ""},
		{"function words of one class", "Shard by tenant, not by region.", "Shard by tenant rather than by region.", true, ""},
		{"a slash for per", "Allow 60 requests per minute.", "Allow 60 requests/min.", true, ""},
		{"24/7 for always", "Page the on-call engineer at any hour.", "Page the on-call engineer 24/7.", true, ""},
		{"an imperative commands as must does", "Never commit secrets to the repository.", "Secrets must never be committed to the repo.", false, ""},
		{"a shortening", "Keep secrets out of the repository.", "Keep secrets out of the repo.", true, ""},
		{"light words swapped", "Retry three times, then mark the endpoint unhealthy.", "Retry three times, then flag the endpoint unhealthy.", true, ""},
		{"reworded", "Kiosk terminals log the user out after 2 minutes without input.", "After two minutes with no input, a kiosk terminal signs the user out.", false, ""},
		{"reworded with its own words", "Invoices are sequential per legal entity and never reused, even for cancelled invoices.", "Each legal entity numbers its invoices in one unbroken sequence; a number stays used even when the invoice is cancelled.", false, ""},
	} {
		al := alignTexts(c.filed, c.position)
		if al.edit != c.edit {
			t.Errorf("%s: edit %v, want %v (%q / %q)", c.why, al.edit, c.edit, c.filed, c.position)
		}
		got := strings.Join(al.changes, "; ")
		switch {
		case c.change == "" && got != "":
			t.Errorf("%s: changes %q, want none", c.why, got)
		case c.change != "" && !strings.Contains(got, c.change):
			t.Errorf("%s: changes %q lack %q", c.why, got, c.change)
		}
	}
}

// TestAlignExchange finds two things trading places in any text that
// aligns enough to show it.
func TestAlignExchange(t *testing.T) {
	al := alignTexts("Visitors may take photos without flash in the permanent collection; no photos at all in temporary exhibitions.",
		"Visitors may take photos without flash in temporary exhibitions; no photos at all in the permanent collection.")
	if len(al.exchanges) != 1 || !strings.Contains(al.exchanges[0], "↔") {
		t.Errorf("exchanges %q, want one", al.exchanges)
	}
	if al := alignTexts("Use Inter for body text.", "Use Inter for body text."); len(al.exchanges)+len(al.changes) != 0 {
		t.Errorf("the same text: %+v", al)
	}
}

// TestAlignHostile feeds the alignment what an agent may send: nothing,
// huge texts, scripts other than Latin, markdown, code, numbers in odd
// notations. It stays bounded and never names a change in a text compared
// with itself.
func TestAlignHostile(t *testing.T) {
	inputs := map[string]string{
		"empty":     "",
		"spaces":    " \t\n",
		"huge":      strings.Repeat("keep the logs for ninety days then delete them ", 20000),
		"unicode":   strings.Repeat("Кэшировать 商品ページ 🦜 é\u0301 ", 500),
		"markdown":  "# Rule\n\n- **Serve** thumbnails as `webp` (q=80)\n- [[link]] #tag > quote\n\n```go\nfmt.Println(1)\n```",
		"code":      "if x >= 10 { return errors.New(\"no\") } // 48h",
		"notations": "q=80 48h 1e3 4.5:1 ≥ 3 ≤ 2 ~5% 1,000,000 0x1F v1.2.3 10:30pm -16 LUFS",
		"invalid":   strings.Repeat("\xff\xfe\x00", 3000),
		"slashes":   strings.Repeat("/ // 24/7 /min a/b ", 1000),
	}
	for name, s := range inputs {
		t.Run(name, func(t *testing.T) {
			if n := len(surfaceTokens(s)); n > maxSurface {
				t.Errorf("%d tokens, bound %d", n, maxSurface)
			}
			if al := alignTexts(s, s); len(al.changes)+len(al.exchanges) != 0 {
				t.Errorf("a text against itself: %+v", al)
			}
			for _, other := range inputs {
				alignTexts(s, other)
				names(other)
				disregards(other)
				compareStrength(s, other)
				compareBindings(newSide(s, true), newSide(other, true))
				if c := ComparePositions(s, other); c.Agreement != Agree && c.Agreement != Disagree && c.Agreement != Unsure {
					t.Fatalf("agreement %q", c.Agreement)
				}
			}
			if len(names(s)) > maxNames {
				t.Errorf("%d names, bound %d", len(names(s)), maxNames)
			}
		})
	}
}

// TestNames pins what is read as a name of a choice.
func TestNames(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Shipping labels carry a Code 128 barcode.", "Code 128"},
		{"Exchange memories as TMX 1.4b files in UTF-8.", "TMX 1.4b, UTF-8"},
		{"Brand materials use Inter and Playfair Display.", "Inter, Playfair Display"},
		{"Keep passwords in 1Password, never in chat.", "1Password"},
		{"Wait 48h, then retry 3x within 10ms at 10pm.", ""},
		{"Serve thumbnails as WebP.", "WebP"},
		{"Thumbnails are served as webp.", ""},
		{"- **Serve** thumbnails as `webp`", ""},
		{"q=80 4.5:1 ≥ 3 1e3", "1e3"},
		{"Serve Thumbnails As WebP With A JPEG Fallback", "WebP, JPEG"},
	} {
		var got []string
		for _, n := range names(c.text) {
			got = append(got, n.text)
		}
		if g := strings.Join(got, ", "); g != c.want {
			t.Errorf("names(%q) = %q, want %q", c.text, g, c.want)
		}
	}
}

// TestDisregardsAndStrength pins the cues that set a condition aside and
// the ones that make a command a recommendation.
func TestDisregardsAndStrength(t *testing.T) {
	for text, want := range map[string]string{
		"Anyone over 21 can rent a car, whatever their licence date.": "whatever their licence date",
		"Deleted after 90 days, open complaint or not.":               "open complaint or not",
		"Replace tyres at 3 mm; the mileage does not matter.":         "does not matter",
		"Renew it whichever comes first.":                             "",
		"Notes: notwithstanding nothing.":                             "",
	} {
		if got := disregards(text); got != want {
			t.Errorf("disregards(%q) = %q, want %q", text, got, want)
		}
	}
	if got := compareStrength("Visitors must wear a helmet.", "Visitors should wear a helmet."); len(got) != 0 {
		t.Errorf("a plain should: %v, want nothing (agents agree in those words)", got)
	}
	if got := compareStrength("Clients MUST send the header.", "Clients SHOULD send the header."); len(got) != 1 {
		t.Errorf("MUST against SHOULD: %v", got)
	}
	if got := compareStrength("Visitors must wear a helmet.", "Visitors should wear a helmet where possible."); len(got) != 1 {
		t.Errorf("must against should: %v", got)
	}
	if got := compareStrength("Visitors should wear a helmet.", "Visitors must wear a helmet."); len(got) != 0 {
		t.Errorf("should against must: %v, want nothing (not a loosening)", got)
	}
	if got := compareStrength("Visitors must wear a helmet.", "A helmet is mandatory; it should fit."); len(got) != 0 {
		t.Errorf("a command kept beside a should: %v", got)
	}
	// A requirement said not to be one recommends, though it names one.
	for _, p := range []string{"Helmets on site are recommended, not required.", "Wearing a helmet is not mandatory any more.",
		"Visitors don't have to wear a helmet.", "A helmet is at the discretion of the site lead."} {
		if got := compareStrength("Visitors must wear a helmet.", p); len(got) != 1 {
			t.Errorf("must against %q: %v, want one difference", p, got)
		}
	}
	if got := compareStrength("Visitors must wear a helmet.", "A helmet is required, not recommended."); len(got) != 0 {
		t.Errorf("a requirement kept, a recommendation set aside: %v", got)
	}
	// A requirement set aside by "rather than", a target aimed at, a
	// recommendation or a guideline.
	for _, p := range []string{"Helmets are recommended rather than mandatory on site.", "Visitors should aim to wear a helmet.",
		"We recommend that visitors wear a helmet.", "As a guideline, visitors wear a helmet.", "Visitors are advised to wear a helmet."} {
		if got := compareStrength("Visitors must wear a helmet.", p); len(got) != 1 {
			t.Errorf("must against %q: %v, want one difference", p, got)
		}
	}
	// A rule stated as what happens binds as "must" does: a
	// recommendation loosens it, a plain "should" or the rule said again
	// does not.
	for p, want := range map[string]int{
		"Calls should ideally be answered within 30 seconds.": 1,
		"Aim for an answer within 30 seconds.":                1,
		"Calls should be answered within 30 seconds.":         0,
		"Every call is answered within 30 seconds.":           0,
	} {
		if got := compareStrength("Calls are answered within 30 seconds.", p); len(got) != want {
			t.Errorf("a stated rule against %q: %v, want %d differences", p, got, want)
		}
	}
}

// TestComparePositionsOn: a position asked about a record may name the
// record's object in its own words; anything else it edits still counts.
func TestComparePositionsOn(t *testing.T) {
	const topic, filed = "Avatar upload size limit", "Reject avatar uploads larger than 2 MB"
	if c := ComparePositionsOn(topic, filed, "Reject profile pictures larger than 2 MB"); c.Agreement != Agree {
		t.Errorf("the object renamed under its record: %+v", c)
	}
	if c := ComparePositions(filed, "Reject profile pictures larger than 2 MB"); c.Agreement != Disagree {
		t.Errorf("the object renamed with no record to tell: %+v, want conflict (an edit)", c)
	}
	if c := ComparePositionsOn(topic, filed, "Accept avatar uploads larger than 2 MB"); c.Agreement != Disagree {
		t.Errorf("the rule edited under its record: %+v", c)
	}
	if c := ComparePositionsOn(topic, filed, "Reject avatar uploads larger than 5 MB"); c.Agreement != Disagree {
		t.Errorf("the number edited under its record: %+v", c)
	}
}

// BenchmarkCompareStrength times the reading of how strongly two
// positions bind, on every comparison: a filed rule without a
// requirement, one with "must" against a plain restatement, and "must"
// against "recommended, not required".
func BenchmarkCompareStrength(b *testing.B) {
	for _, c := range []struct{ name, filed, position string }{
		{"no requirement", "Cache product pages at the CDN for 10 minutes unless the price changes.", "The CDN keeps product pages for ten minutes; a price change purges them."},
		{"must", "Visitors must wear a helmet on the construction site at all times, and sign in at the gate.", "Everyone on site wears a helmet and signs in at the gate."},
		{"must against not required", "Final artwork must be approved at least 5 working days before the campaign starts; artwork for alcohol ads also needs sign-off from legal.",
			"Approving final artwork 5 working days before the start is recommended, not required; late approvals are fine. Alcohol ads still need legal sign-off."},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				compareStrength(c.filed, c.position)
			}
		})
	}
}

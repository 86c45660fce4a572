package consensus

import "testing"

// TestKindJoinedBeforeItsThing: a kind joined to the one the rule names,
// right before the thing they share ("a library or museum card" of "a
// library card"), or a thing joined to others the rule never names
// ("contractors and delivery drivers must"), widens the rule; the thing
// said again in other words, or the kind the rule names alone, does not.
func TestKindJoinedBeforeItsThing(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a kind joined by or", "", "When a library card is reported lost, staff block it within 2 hours.",
			"hey so if a library or museum card gets reported lost we block it within 2 hrs", Disagree, ""},
		{"a kind joined by and", "", "Every criminal hearing must have a certified interpreter when a party needs one.",
			"Criminal and family hearings alike must have a certified interpreter whenever a party needs one.", Disagree, ""},
		{"a kind of shifts", "", "Nurses on night shifts get a 20% allowance on their hourly rate.",
			"Nurses working night or weekend shifts receive a 20 percent allowance on the hourly rate.", Disagree, ""},
		{"others joined to the ones the rule names", "", "Contractors must wear a visitor badge at all times on site.",
			"Contractors and delivery drivers must wear a visitor badge at all times while on site.", Disagree, ""},
		{"the one kind, reworded", "", "When a library card is reported lost, staff block it within 2 hours.",
			"lost library card reported -> blocked by staff inside 2 hours", Agree, ""},
		{"the one kind, a note", "", "Nurses on night shifts get a 20% allowance on their hourly rate.",
			"Per HR: 20% extra on the hourly rate for nurses doing nights.", Agree, ""},
		{"the rule says both itself", "", "Handover happens at the bedside and both nurses sign the sheet before the outgoing nurse leaves.",
			"Bedside handover; outgoing and incoming nurse both sign the sheet, and the outgoing nurse stays until then.", Agree, ""},
	})
	textFindsNothing(t, onTexts(compareKindJoined), [][2]string{
		// One kind said again of another: as often a kind of it.
		{"Only service dogs are allowed in the dining room.", "Service dogs and guide dogs are allowed in the dining room."},
		// The kind the rule names in a list of its own.
		{"Teachers and support staff get a parking permit.", "Teachers and support staff receive parking permits."},
		// Kinds of one meaning.
		{"Staff who are on night shifts get an allowance.", "Staff on night or overnight shifts get an allowance."},
	})
}

// TestListSplitLetsOneOff: a rule said of two kinds in one list ("the
// main pool and the teaching pool", "a new datastore or a new external
// service") is narrowed by a position that says "only" of the first
// where it speaks of the second apart, or lets the second off in a clause
// of its own; a position that keeps both, or a rule that lets the list
// off itself, is no change.
func TestListSplitLetsOneOff(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"only the first, the second apart", "", "The main pool and the teaching pool close when the lifeguard count drops below 2.",
			"Lifeguards below 2: close the main pool only, the teaching pool stays open.", Disagree, ""},
		{"the second let off", "", "Blood and urine samples are stored at 4 °C for up to 7 days.",
			"Blood samples are kept at 4 °C for at most 7 days; urine samples are not kept.", Disagree, ""},
		{"the second needs none", "", "Any release that adds a new database or a new message queue needs an architecture review.",
			"Any release that adds a new database needs an architecture review; new message queues do not need one.", Disagree, ""},
		{"both kept", "", "The main pool and the teaching pool close when the lifeguard count drops below 2.",
			"If fewer than 2 lifeguards are on duty, both the main pool and the teaching pool are closed.", Agree, ""},
		{"both kept, in a note", "", "Blood and urine samples are stored at 4 °C for up to 7 days.",
			"urine + blood samples: store at 4 degrees C, max 7 days", Agree, ""},
		{"the rule lets the list off itself", "", "Glass bottles and jars are never put in the paper bin.",
			"Never put glass bottles in the paper bin; jars don't go there either.", Agree, ""},
	})
	textFindsNothing(t, onTexts(compareListSplit), [][2]string{
		// A list in the position parted by commas.
		{"Every application is logged with product, dose and greenhouse number.", "every application gets logged (product, dose, greenhouse no.)"},
		// "no" of another thing, "except" of the rule's own exception.
		{"Lounge access is free for business-class passengers and gold members.", "Business class and gold members get into the lounge at no cost."},
		{"Strings added or changed after the freeze go into the next release unless they fix legal text.",
			"New or edited strings after the freeze slip to the next release, except fixes to legal text."},
		// What the rule itself lets off elsewhere.
		{"Picked strawberries are weighed and charged at the till; fruit eaten in the field is not charged.",
			"Charge picked strawberries by weight at the till. Do not charge for fruit eaten in the field."},
	})
}

// TestWidenedInAnyForm: "any plant at all, indoor or outdoor" widens
// "outdoor plants" though the thing is said in another form ("plant");
// "any match, adults or juniors, where a team" widens "an adult team"
// though the thing comes a few words on.
func TestWidenedInAnyForm(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"the thing in another form", "", "Outdoor plants that die within a year are replaced free.",
			"Any plant at all, indoor or outdoor, that dies within a year is replaced free.", Disagree, ""},
		{"the thing a few words on", "", "The referee reviews every match where more than 3 cards were shown to an adult team.",
			"ref reviews any match, adults or juniors, where a team got more than three cards", Disagree, ""},
		{"the one kind", "", "Outdoor plants that die within a year are replaced free.",
			"If an outdoor plant dies within 12 months we replace it for free.", Agree, ""},
	})
}

// TestListWidenedToEveryKind: a rule said of one kind ("snowmobiles",
// "the boathouse") said by the position of every one of a larger thing
// it never names, that kind listed beside others ("any vehicle,
// snowmobiles, quads and tractors alike") covers more; a list of what
// the rule names, after "every", is the rule said again.
func TestListWidenedToEveryKind(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a larger thing, its kinds listed", "", "Snowmobiles may cross the lake only when the ice is at least 40 cm thick.",
			"Any vehicle, snowmobiles, quads and tractors alike, may cross the lake only when the ice is at least 40 cm thick.", Disagree, ""},
		{"whether one kind or another", "", "An active leak reported by a tenant gets a plumber on site within 2 hours.",
			"Any urgent job, whether an active leak, a blocked drain or a dead boiler, gets a plumber on site within 2 hours.", Disagree, ""},
		{"every building, one of them named", "", "The boathouse is locked at 9 pm by the duty warden.",
			"the duty warden locks every building on site, boathouse, clubhouse and sheds, at 9 pm", Disagree, ""},
		{"the one kind, reworded", "", "Snowmobiles may cross the lake only when the ice is at least 40 cm thick.",
			"snowmobiles: lake crossing only on ice 40 cm thick or more", Agree, ""},
	})
	textFindsNothing(t, onTexts(compareListWidened), [][2]string{
		// The kinds the rule names, or kinds of the thing it names.
		{"Snowmobiles and quads may cross the lake only when the ice is at least 40 cm thick.",
			"Any vehicle, snowmobiles or quads, may cross the lake only when the ice is at least 40 cm thick."},
		{"Every kiln is checked monthly.", "Each kiln, electric or gas, gets checked monthly."},
		// No list after "every".
		{"Noise is measured every 6 months at 10 fixed points.", "Every six months we measure the noise at the 10 fixed points, higher ones too."},
	})
}

// textFindsNothing fails t for each pair of a filed rule and a position
// in which compare, reading the two texts, finds a difference.
func textFindsNothing(t *testing.T, compare func(filed, position string) []string, pairs [][2]string) {
	t.Helper()
	for _, c := range pairs {
		if d := compare(c[0], c[1]); len(d) > 0 {
			t.Errorf("%q against %q: %v", c[1], c[0], d)
		}
	}
}

// TestQualifierWithNumber: words only added to the same sentence with a
// number among them ("for Year 6 riders") narrow whom the rule is said
// of, though "riders" and 6 are said elsewhere in it.
func TestQualifierWithNumber(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a qualifier with a number", "", "Level 2 road training runs with at least 1 instructor for every 6 riders; playground sessions run at 1 for every 12 riders.",
			"Level 2 road training for Year 6 riders runs with at least 1 instructor for every 6 riders; playground sessions run at 1 for every 12 riders.", Disagree, ""},
		{"the same sentence", "", "Level 2 road training runs with at least 1 instructor for every 6 riders; playground sessions run at 1 for every 12 riders.",
			"Level 2 road training runs with at least one instructor for every 6 riders; playground sessions run at 1 for every 12 riders.", Agree, ""},
	})
}

// onTexts is a reading of kinds called on two texts.
func onTexts(read func(*kindTexts) []string) func(filed, position string) []string {
	return func(filed, position string) []string {
		return read(&kindTexts{filed: filed, position: position})
	}
}

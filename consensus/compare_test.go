package consensus

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestComparePositionsMechanisms pins each way a position is read, one
// pair per mechanism, with the difference the answer must name.
func TestComparePositionsMechanisms(t *testing.T) {
	for _, c := range []struct {
		why, filed, position string
		want                 Agreement
		diff                 string // a substring of one difference, for conflicts
	}{
		{"unit conversion", "Expire idle sessions after 5 min.", "Idle sessions expire after 300 s.", Agree, ""},
		{"number words and once", "Links can be used once and expire after thirty minutes.", "A link is single use and expires 30 minutes after it is sent.", Agree, ""},
		{"once against twice", "Links can be used once.", "Links can be used twice.", Disagree, "→"},
		{"negated bound", "Each instance keeps at most 20 connections.", "An instance must not have more than twenty connections.", Agree, ""},
		{"bound reversed", "Each instance keeps at most 20 connections.", "Each instance keeps at least 20 connections.", Disagree, "at most → at least"},
		{"lower bound written after", "Support iOS 16 and later.", "Support iOS 16 or newer.", Agree, ""},
		{"sign for a bound", "Reject bodies larger than 1 MB.", "Bodies > 1 MB are rejected.", Agree, ""},
		{"rate written with a slash", "Allow 60 requests per minute.", "Allow 60 requests/min.", Agree, ""},
		{"rate period changed", "Allow 60 requests per minute.", "Allow 60 requests per second.", Disagree, "per"},
		{"24/7 is always", "Page the on-call engineer at any hour.", "Page the on-call engineer 24/7.", Agree, ""},
		{"immediately is no time", "Purge deleted rows after 90 days.", "Purge deleted rows immediately.", Disagree, "90 days → immediately"},
		{"exception closed after its words", "Abort queries longer than 30 s, except for nightly reports.", "Queries over 30 s are aborted; nightly reports are exempt.", Agree, ""},
		{"exception dropped", "Abort queries longer than 30 s, except for nightly reports.", "Abort queries longer than 30 s.", Disagree, "exception dropped"},
		{"exception put back into the rule", "Commit lockfiles for applications, but not for libraries.", "Commit lockfiles for applications and for libraries.", Disagree, "exception dropped"},
		{"exception as a trailing negation", "Commit lockfiles for applications, but not for libraries.", "Applications commit their lockfile; libraries do not.", Agree, ""},
		{"a default is an exception", "Return 50 items per page by default, at most 200.", "Return 50 items per page unless the client asks for more, up to 200.", Agree, ""},
		{"list item dropped", "Never log email addresses or phone numbers.", "Never log email addresses.", Disagree, "dropped"},
		{"negated part left out", "Authenticate with mutual TLS; API keys are not accepted.", "Authenticate with API keys.", Disagree, "dropped"},
		{"negation covers its clause", "Retry a failed job 5 times unless the error is permanent.", "Failed jobs are retried 5 times; permanent errors are not retried.", Agree, ""},
		{"one use negated", "Access tokens expire after 15 minutes; refresh tokens expire after 7 days.", "Access tokens never expire; refresh tokens expire after 7 days.", Disagree, "not"},
		{"relation with its things swapped", "Every pull request needs 2 approvals before it is merged.", "A pull request is merged only after 2 approvals.", Agree, ""},
		{"direction reversed", "Environment variables override values from the file.", "Values from the file override environment variables.", Disagree, "override"},
		{"passive keeps the direction", "Environment variables override values from the file.", "Values from the file are overridden by environment variables.", Agree, ""},
		{"loose swap is a rewording", "Cache product pages at the CDN for 10 minutes.", "The CDN keeps product pages for 10 minutes.", Agree, ""},
		{"train for rail", "Rail journeys under 3 hours are booked in standard class.", "Train journeys under 3 hours are booked in standard class.", Agree, ""},
		{"other option", "Serve thumbnails as WebP.", "Serve thumbnails as AVIF.", Disagree, "WebP → AVIF"},
		{"another point of the compass", "Away fans enter through the north gates only, an hour before the match.",
			"Away supporters come in an hour before kick-off, through the south gates only.", Disagree, "north → south"},
		{"another language, reworded", "The museum app offers English and the local language for every exhibition; Dutch is added as a third language only for exhibitions running longer than 3 months.",
			"The museum app always has English and the local language; for exhibitions running longer than 3 months we add Polish as the third language.", Disagree, "dutch → polish"},
		{"another channel, reworded", "When a flight is delayed by more than 2 hours, every passenger is told by email.",
			"If a flight runs over two hours late, we send each passenger an SMS.", Disagree, "email → sms"},
		{"a point of the compass said again", "Away fans enter through the north gates only, an hour before the match.",
			"Away supporters come in an hour before kick-off, through the north gates only.", Agree, ""},
		{"a number said on one side only", "Retry failed jobs.", "Retry failed jobs 3 times.", Unsure, "not said"},
		{"a determiner no bounds the number", "Run at most 4 export jobs at a time per tenant.", "No tenant may have more than four export jobs running at a time.", Agree, ""},
		{"made optional", "Run a load test before every major release.", "Load tests before major releases are optional.", Disagree, "optional"},
		{"a number left out of the same sentence", "Run a load test at twice the last peak traffic before every major release.", "Run a load test at the last peak traffic before every major release.", Disagree, "twice"},
		{"nowhere else is only", "Store EU customers' data only in EU regions.", "Data of EU customers is kept in EU regions and nowhere else.", Agree, ""},
		{"only against any", "Allow cross-origin requests only from app.example.com.", "Allow cross-origin requests from any origin.", Disagree, "only → any"},
		{"an option used fewer times", "Store EU customers' data only in EU regions.", "Store EU customers' data only in US regions.", Disagree, "→"},
		{"one after a verb counts", "On-call shifts last one week.", "An on-call shift lasts 7 days.", Agree, ""},
		{"an ordinal counts", "Stop sending email after 3 hard bounces.", "Stop sending email after the first hard bounce.", Disagree, "3 → first"},
		{"on and off", "New feature flags default to off.", "New feature flags default to on.", Disagree, "→"},
		{"a cipher's size is not a ticket", "Encrypt backups with AES-256.", "Encrypt backups with AES-128.", Disagree, "256 → 128"},
		{"once as a conjunction", "Delete application logs after 90 days.", "Delete application logs once they are 90 days old.", Agree, ""},
		{"a time of day in both clocks", "Send the daily digest at 18:00.", "The daily digest goes out at 6 pm.", Agree, ""},
		{"another time of day", "Send the daily digest at 18:00.", "Send the daily digest at 8pm.", Disagree, "18:00 → 8pm"},
		{"a month is thirty days", "Archive tickets 30 days after they close.", "Tickets are archived a month after closing.", Agree, ""},
		{"a month is not a week", "Archive tickets 30 days after they close.", "Tickets are archived a week after closing.", Disagree, "→ a week"},
		{"at once after a count is at the same time", "Run at most 3 builds at once per branch.", "No more than three builds of a branch run at the same time.", Agree, ""},
		{"a verb's negation covers its object", "Do not store card numbers; keep only their last four digits.", "Store card numbers.", Disagree, "not card"},
		{"a negated verb is named without its object", "Use a signed URL for downloads.", "Do not use a signed URL for downloads.", Disagree, "use → not use"},
		{"rather than says not", "Shard by tenant, not by region.", "Shard by tenant rather than by region.", Agree, ""},
		{"first and later in the other order", "Drain the node first and upgrade it later.", "Upgrade the node first and drain it later.", Disagree, "upgrade"},
		{"a part of the rule left out", "Each tenant may run 4 exports at a time; bigger batches need a support ticket.", "Each tenant may run 4 exports at a time.", Disagree, "dropped"},
		{"a number left out of a rule that keeps its others", "Lock an account after 5 failed logins within 10 minutes.", "Lock an account after 5 failed logins.", Disagree, "10 minutes → (not said)"},
		{"a thing treated apart now included", "Compress responses with gzip, but send images as they are.", "Compress every response with gzip, images included.", Disagree, "images included"},
		{"an inclusion that loses nothing", "Log every request at info level.", "Every request is logged at info level, including health checks.", Agree, ""},
		{"no as the answer to a question", "Do not deploy on Fridays.", "No — nobody deploys on a Friday.", Agree, ""},
		{"a doubled rate is two", "Scale out when the queue length doubles.", "Scale out once the queue is twice as long.", Agree, ""},
		{"a name of a choice replaced", "Translation memories are exchanged as TMX 1.4b files encoded in UTF-8.", "Send translation memories as Excel sheets.", Disagree, "→ Excel"},
		{"a code and its number are one name", "Shipping labels carry a Code 128 barcode of the tracking number.", "Shipping labels carry a QR code of the tracking number.", Disagree, "Code 128 → QR"},
		{"a name restated in lower case", "Use Inter for body text.", "Body text is set in inter.", Agree, ""},
		{"names said in the other order", "Every release is tested with VoiceOver and NVDA before it ships.", "Before shipping, each release gets a pass with both NVDA and VoiceOver.", Agree, ""},
		{"a condition set aside", "Drivers must be at least 21 years old and have held a licence for 2 years.", "Anyone over 21 can rent a car, whatever their licence date.", Disagree, "set aside: whatever their licence date"},
		{"an exception set aside", "Call recordings are kept for 90 days, then deleted, unless a complaint is open on the call.", "Every call recording is deleted after 90 days, open complaint or not.", Disagree, "or not"},
		{"a command made a recommendation", "Everyone on the construction site must wear a helmet at all times.", "Workers should wear helmets where possible.", Disagree, "must → where possible"},
		{"per thing turned across all in other words", "Invoice numbers are sequential per legal entity.", "One sequence of invoice numbers runs across all legal entities.", Disagree, "per legal → across all legal"},
		{"shared across said as all sharing", "Cache entries are kept in Redis, shared across instances.", "All instances share the cache entries, which live in Redis.", Agree, ""},
		{"shared across said as every one sharing", "A token bucket per tenant, shared across instances through Redis.", "Each tenant has one token bucket in Redis that every instance shares.", Agree, ""},
		{"all alone counts neither way", "The quota is 40 GPU hours across the research teams each month.", "All research teams have a quota of 40 GPU hours a month in total.", Agree, ""},
		{"per thing turned shared by all", "Every department gets a budget of 2,000 EUR a year for training.", "A training budget of 2,000 EUR a year is shared by all departments.", Disagree, "→ all departments"},
		{"per thing turned one every one shares", "Each replica keeps its own write-ahead log on local disk.", "One write-ahead log on the shared volume, which every replica shares.", Disagree, "→"},
		{"a period as a rate", "Fire hoses are inspected every 6 months.", "Fire hoses are inspected twice a year.", Agree, ""},
		{"periods traded, one without a numeral", "Paper bins are emptied every 2 weeks in offices and every week in canteens.", "Paper bins are emptied every week in offices and every 2 weeks in canteens.", Disagree, "↔ every week"},
		{"a period without a numeral said again", "Paper bins are emptied every 2 weeks in offices and every week in canteens.", "Offices get their paper bins emptied fortnightly, canteens weekly.", Agree, ""},
		{"another period as a rate", "Fire hoses are inspected every 6 months.", "Fire hoses are inspected once a year.", Disagree, "→"},
		{"a number restated", "Expenses above 25 EUR need a receipt; below that, a card statement is enough.", "Over €25 you need a receipt, under €25 the card statement will do.", Agree, ""},
		{"a unit left out", "Drivers must be at least 21 years old.", "Drivers must be 21 or older.", Agree, ""},
		{"a number changed in its unit whatever the wording", "Talks are 25 minutes long.", "Speakers get half an hour.", Disagree, "25 minutes → half"},
		{"a relation reworded around other words", "Couriers make up to 3 delivery attempts before returning the parcel to the depot.", "A parcel goes back to the depot only after three tries.", Agree, ""},
		{"a negation moved to the other thing", "Warranty claims go through the vendor portal, never to the local shop.", "Warranty claims go to the local shop, never through the vendor portal.", Disagree, "not"},
		{"an ordinal second", "Send a reminder 30 days before the due date and a second one 7 days before.", "Send a reminder a month before the due date and a second reminder a week before.", Agree, ""},
		{"off negates the word before it", "Visitors may take photos without flash.", "Visitors may take photos as long as the flash is off.", Agree, ""},
		{"or better is at least", "Body text needs a contrast ratio of at least 4.5:1.", "Body text needs a 4.5:1 contrast ratio or better.", Agree, ""},
		{"or less is at most", "Body text needs a contrast ratio of at least 4.5:1.", "Body text needs a 4.5:1 contrast ratio or less.", Disagree, "→"},
		{"the other option in an edit", "Round currency amounts half-to-even to 2 decimal places.", "Round currency amounts half-up to 2 decimal places.", Disagree, "half-to-even → half-up"},
		{"a role swapped in an edit", "Refunds above 500 EUR need a second approver from finance.", "Refunds above 500 EUR need a second approver from support.", Disagree, "finance → support"},
		{"two things trading places", "Mortgages are capped at 80% loan-to-value for owner-occupied homes and 60% for buy-to-let.", "Mortgages are capped at 60% loan-to-value for owner-occupied homes and 80% for buy-to-let.", Disagree, "↔"},
		{"two names trade what is said of them", "Brand materials use Inter for body text and Playfair Display for headings.", "Headings in Inter, body text in Playfair Display.", Disagree, "Inter ↔ Playfair Display"},
		{"two names keep what is said of them", "Brand materials use Inter for body text and Playfair Display for headings.", "Headings are set in Playfair Display and body copy in Inter.", Agree, ""},
		{"free of charge is free", "Guests may check out until 14:00 at no charge; later checkout costs 30 EUR per hour.", "Checkout is free up to 2 pm; after that we charge €30 for each extra hour.", Agree, ""},
		{"a calendar year is a year", "Remote work from abroad is limited to 30 days per calendar year.", "Remote work from abroad is limited to 30 days a year.", Agree, ""},
		{"away from is not at", "Crew get 10 hours of rest when the duty ended at the home base.", "Crew get 10 hours of rest when the duty ended away from the home base.", Disagree, "away from"},
		{"leave is go away from", "Encrypt backups before they leave the host.", "Encrypt backups before they go away from the host.", Agree, ""},
		{"a limit of times set aside", "Members can freeze their membership once a year for up to 3 months.", "Members may pause as often as they want, three months at a time.", Disagree, "as often as"},
		{"an exception covered even so", "Either party may terminate with 90 days' notice, except for material breach.", "Either side can terminate on 90 days' notice, and that applies even in the case of a material breach.", Disagree, "exception dropped"},
		{"a name that is an option is named once", "Serve thumbnails as WebP at quality 80.", "Serve thumbnails as AVIF at quality 80.", Disagree, "WebP → AVIF"},
		{"an ordinary word reworded", "Kiosk terminals log the user out after 2 minutes without input.", "After two minutes with no input, a kiosk terminal signs the user out.", Agree, ""},
		{"an acronym spelled out", "Purchases over 5,000 EUR need the CTO's approval.", "Purchases over EUR 5,000 need approval from the Chief Technology Officer.", Agree, ""},
		{"a plural acronym spelled out", "Every PCB is inspected under UV light.", "Each printed circuit board is inspected under UV light.", Agree, ""},
		{"an acronym that spells another name", "Purchases over 5,000 EUR need the CTO's approval.", "Purchases over 5,000 EUR need the CFO's approval.", Disagree, "CTO → CFO"},
		{"keywords of requirements are not names", "Nightly builds run on the ARM runners.", "Nightly builds MUST run on the ARM runners.", Agree, ""},
		{"a name shortened", "Stores close on December 24 at 14:00.", "Stores close on Dec 24 at 14:00.", Agree, ""},
		{"two options that share a start", "Write the build scripts in Java.", "Write the build scripts in JavaScript.", Disagree, "→"},
		{"a language code", "Manuals ship in English and French.", "Manuals ship in EN and FR.", Agree, ""},
		{"another language", "Manuals ship in English and French.", "Manuals ship in English and German.", Disagree, "French → German"},
		{"a ticket id and a label in front", "Quarantine hosts that fail two health checks in a row.", "SEC-118: Bottom line: hosts failing 2 health checks in a row are quarantined.", Agree, ""},
		{"an ordinal for a number", "Invoices are due on the tenth day of the month.", "Invoices are due on day 10 of the month.", Agree, ""},
		{"another ordinal", "Invoices are due on the tenth day of the month.", "Invoices are due on the fifth day of the month.", Disagree, "tenth → fifth"},
		{"a fraction for a share", "Cut the heating by 25% at night.", "At night the heating is cut by a quarter.", Agree, ""},
		{"another fraction", "Cut the heating by 25% at night.", "At night the heating is cut by a third.", Disagree, "25 % → a third"},
		{"half for fifty percent", "Unsold bread is sold at 50% off after 18:00.", "After 6 pm unsold bread goes for half price.", Agree, ""},
		{"roles traded between small words", "Releases are signed by the release manager and then by the security lead.", "Releases are signed by the security lead and then by the release manager.", Disagree, "↔"},
		{"a list in another order", "Deploy to Frankfurt and Dublin.", "Deploy to Dublin and Frankfurt.", Agree, ""},
		{"a passive keeps the roles", "Tenants report faults to the caretaker within a day.", "Faults are reported to the caretaker by tenants within a day.", Agree, ""},
		{"a threshold added", "Every refund is reviewed by a second agent.", "Only refunds above 200 EUR are reviewed by a second agent.", Disagree, "(not said) → 200"},
		{"a condition that gains a part", "Escalate a ticket if the customer replies twice.", "Escalate a ticket if the customer replies twice and the ticket is older than a week.", Disagree, "week"},
		{"a condition said as one", "Parcels over 30 kg go by freight.", "When a parcel is over 30 kg it goes by freight.", Agree, ""},
		{"if as any", "Each claim is checked by two adjusters; if they disagree, a manager decides.", "Every claim is checked by two adjusters, and any disagreement is decided by a manager.", Agree, ""},
		{"unless in which case is a condition", "Orders ship from the nearest warehouse, unless it is out of stock, in which case the customer is told.", "If the nearest warehouse is out of stock the customer is told; otherwise orders ship from it.", Agree, ""},
		{"banned is not allowed", "Personal USB drives may not be used on lab machines.", "Personal USB drives are banned on lab machines.", Agree, ""},
		{"a contraction", "Guests may not bring pets into the spa.", "Guests can't bring pets into the spa.", Agree, ""},
		{"a selection is no disregard", "Send the job to the region with the lowest queue.", "Send the job wherever the queue is shortest.", Agree, ""},
		{"a version with its v", "Partners receive files as CSV v1.2.3 exports.", "Partners receive files as CSV version 1.2.3 exports.", Agree, ""},
		{"a number glued to its unit", "Boards are cut from 18 mm plywood.", "Boards are cut from 18mm plywood.", Agree, ""},
		{"an un- participle is a negation", "Rental cars are returned unwashed.", "Rental cars are not washed before they are returned.", Agree, ""},
		{"not until is from then on", "The pool reopens only after the lifeguard has checked the water.", "The pool does not reopen until the lifeguard has checked the water.", Agree, ""},
		{"not until turned", "The pool reopens only after the lifeguard has checked the water.", "The pool reopens before the lifeguard has checked the water.", Disagree, "→"},
		{"a month is no object of a negation", "Boats are not launched from December to March.", "Between December and March the boats stay ashore.", Agree, ""},
		{"only against any of the same thing", "Guests may bring only drinks bought at the bar onto the terrace.", "Guests may bring any drinks onto the terrace.", Disagree, "only drinks → any drinks"},
		{"only and any of different things", "Only admins may delete any record.", "Any record may be deleted, but only by admins.", Agree, ""},
		{"more than n is at least n+1", "Teams of more than 4 players pay the group rate.", "Teams of 5 or more players pay the group rate.", Agree, ""},
		{"a plus after a count", "Groups larger than 10 need a second guide.", "11+ people: a second guide.", Agree, ""},
		{"more than n is not at least n", "Teams of more than 4 players pay the group rate.", "Teams of 4 or more players pay the group rate.", Disagree, "→"},
		{"no later than before a date", "Pay the balance no later than 6 weeks before the trip.", "The balance is paid at least six weeks ahead of the trip.", Agree, ""},
		{"no later than a time", "Check out no later than 11:00.", "Check out at least by 11:00.", Disagree, "→"},
		{"a share with a slash", "Refill the tank when it is down to a quarter.", "Refill the tank when it is down to 1/4.", Agree, ""},
		{"an exception restated with a rule of its own", "Serve orders in the order they came, except rush orders, which go first.", "Orders are served in the order they came, but rush orders jump the queue.", Agree, ""},
		{"a glued unit changed", "Boards are cut from 18 mm plywood.", "Boards are cut from 12mm plywood.", Disagree, "18 mm → 12 mm"},
		{"a range of days changed in an edit", "Production deploys are allowed Monday to Thursday between 09:00 and 16:00; no deploys on Fridays or weekends.",
			"Production deploys are allowed Monday to Friday between 09:00 and 16:00; no deploys on weekends.", Disagree, "Mon–Thu → Mon–Fri"},
		{"a range of days said short, the rest ruled out", "Production deploys are allowed Monday to Thursday between 09:00 and 16:00; no deploys on Fridays or weekends.",
			"We ship to prod Mon-Thu, 9am to 4pm. Fridays and weekends are off-limits.", Agree, ""},
		{"weekdays less the day ruled out", "Production deploys are allowed Monday to Thursday between 09:00 and 16:00; no deploys on Fridays or weekends.",
			"Deploys to production: weekdays 09:00-16:00, never on a Friday.", Agree, ""},
		{"weekdays said as a range", "The help desk is staffed on weekdays from 8 to 6.", "Help desk hours: Mon–Fri, 8am–6pm.", Agree, ""},
		{"a range of days over the weekend", "The help desk is staffed Friday to Monday.", "The help desk is staffed Saturday to Monday.", Disagree, "Mon, Fri–Sun → Mon, Sat, Sun"},
		{"weekdays against a shorter range in other words", "Refunds are processed on weekdays.", "We process refunds Tuesday through Friday.", Disagree, "Mon–Fri → Tue–Fri"},
	} {
		got := ComparePositions(c.filed, c.position)
		if got.Agreement != c.want {
			t.Errorf("%s: %q vs %q: %s %v, want %s", c.why, c.filed, c.position, got.Agreement, got.Differences, c.want)
			continue
		}
		if c.diff != "" && !strings.Contains(strings.Join(got.Differences, "; "), c.diff) {
			t.Errorf("%s: differences %v lack %q", c.why, got.Differences, c.diff)
		}
	}
}

// TestComparePositionsOnTopic pins what a record's topic changes: the words
// of the topic may be left out of a position asked about that record, and
// nothing else is excused.
func TestComparePositionsOnTopic(t *testing.T) {
	topic := "Sharding of the orders table"
	filed := "Shard the orders table by customer id; never shard it by date."
	for _, c := range []struct {
		position string
		want     Agreement
	}{
		{"shard key: customer id; sharding by date: never", Agree},
		{"Shard by customer id, never by date.", Agree},
		{"shard key: region; sharding by date: never", Unsure},
	} {
		if got := ComparePositionsOn(topic, filed, c.position); got.Agreement != c.want {
			t.Errorf("%q: %s %v, want %s", c.position, got.Agreement, got.Differences, c.want)
		}
	}
}

// TestGuideIsNoGUID: "guides" stems to the word a GUID is folded from;
// an audio guide is not an identifier, and a GUID still is a UUID.
func TestGuideIsNoGUID(t *testing.T) {
	t.Parallel()
	if w := analyze("Audio guides are offered in English.").words(); slices.Contains(w, theLexicon().fold("uuid")) {
		t.Errorf("audio guides read as %v", w)
	}
	if w := analyze("Each row has a GUID.").words(); !slices.Contains(w, theLexicon().fold("uuid")) {
		t.Errorf("a GUID read as %v", w)
	}
}

// The days of the week are read in the first maxAnalyzed bytes of a
// position, as the rest of the comparison reads it: a hostile position
// naming thousands of days costs no more than that much.
func TestDaysAreReadInTheStartOfAPosition(t *testing.T) {
	t.Parallel()
	filler := strings.Repeat("x ", maxAnalyzed/2)
	if d, said := daysRuledOn(filler + "Deploys Monday to Friday."); said || d != 0 {
		t.Errorf("a range past the first %d bytes was read: %v", maxAnalyzed, d)
	}
	if d, said := daysRuledOn("Deploys Monday to Friday. " + filler); !said || d != weekdaysSet {
		t.Errorf("a range at the start: %v %v, want Mon–Fri", d, said)
	}
}

// A text spared the expressions of the days (mayNameDays) is one none of
// them would match: every line of the meaning sets, and words that fold
// to a day's name only under the expressions' case folding.
func TestDaysSparedOnlyWhenNoneNamed(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/meaning/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no meaning sets: %v", err)
	}
	texts := []string{"Open ſaturdays", "open SUNDAYS", "MON–THU", "seven days a WEEK", "Deploys any day", "ＭＯＮ"}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n")...)
	}
	p := dayRE()
	spared := 0
	for _, text := range texts {
		if mayNameDays(text) {
			continue
		}
		spared++
		for _, re := range []*regexp.Regexp{p.rng, p.day, p.group, p.whole} {
			if m := re.FindString(text); m != "" {
				t.Errorf("%q was spared, but %v matches %q", text, re, m)
			}
		}
	}
	if spared == 0 {
		t.Error("no text spared")
	}
}

package consensus

import "testing"

// TestHowQuestionsAskTheirMeasure: "how old", "how big", "how tall",
// "how deep", "how far" and "how heavy" ask the age, size, height,
// depth, distance and weight a record's topic names; another measure of
// the same thing, or the same measure of another thing, is another
// question.
func TestHowQuestionsAskTheirMeasure(t *testing.T) {
	t.Parallel()
	found := [][2]string{
		{"how old do volunteer minibus drivers have to be?", "minimum age for volunteer minibus drivers"},
		{"How big can a file be on the helpdesk upload form?", "file size limit on the helpdesk upload form"},
		{"so how tall can the boundary hedge get", "maximum height of boundary hedges"},
		{"How deep may we dig a trench before it needs shoring?", "trench depth before shoring is required"},
		{"how heavy can a checked suitcase be on the charter flights", "weight of checked suitcases on charter flights"},
		{"How far from the pitch do spectators stand?", "spectator distance from the pitch"},
	}
	apart := [][2]string{
		{"how old must you be to hire a van?", "minimum age to hire a rowing boat"},
		{"how big can a suitcase be?", "suitcase weight limit"},
		{"how big can a group be on the cave tour?", "minimum age on the cave tour"},
		{"so how tall can the boundary hedge get", "maximum height of boundary fences"},
		{"how heavy can a checked suitcase be on the charter flights", "size of cabin bags on charter flights"},
	}
	topicsFound(t, found)
	topicsApart(t, apart)
}

// TestTopicNounsOfActs: a topic may name an act by its verb or by its
// noun ("attendance" and "attend", "deductions" and "deducting",
// "notification" and "notify", "promotion" and "promoting", "completion"
// and "completing"); a noun that names a thing of its own keeps it: a
// certificate is no certified engineer, production no product.
func TestTopicNounsOfActs(t *testing.T) {
	t.Parallel()
	found := [][2]string{
		{"attendance at the annual fire safety briefing", "who must attend the annual fire safety briefing"},
		{"Deductions from tenancy deposits for cleaning", "deducting cleaning costs from tenancy deposits"},
		{"notifying members of a fee rise", "member notification of fee rises"},
		{"notice to residents before water shut-offs", "notifying residents before water shut-offs"},
		{"promotion of release candidates to the stable channel", "promoting release candidates to the stable channel"},
		{"Completion of induction modules by new starters", "when new starters must complete the induction modules"},
		{"distribution of free school meal vouchers", "distributing free school meal vouchers"},
		{"Do we verify visitor ID at the front desk?", "verification of visitor ID at the front desk"},
		{"assistance for disabled passengers at the station", "assisting disabled passengers at the station"},
	}
	apart := [][2]string{
		{"gas safety certificates for rented flats", "certified gas engineers for rented flats"},
		{"production database access for contractors", "product database access for contractors"},
		{"attendance at the annual fire safety briefing", "attendance at the annual first aid refresher"},
		{"promotion of release candidates to the stable channel", "rollback of release candidates on the stable channel"},
	}
	topicsFound(t, found)
	topicsApart(t, apart)
}

// TestTopicWordsOfOneThing: words a topic names one thing by, in the
// topic only: "auto-" is automatic, "O2" oxygen, "NH3" ammonia, "LN2"
// nitrogen; paperwork is the documents; "walk-ins" and "add-ons" are
// walk-ins and add-ons, not "walk ins"; "APIs" are APIs. The same word
// for another thing is another question.
func TestTopicWordsOfOneThing(t *testing.T) {
	t.Parallel()
	found := [][2]string{
		{"auto-renewal of residents' parking permits", "automatic renewal of residents' parking permits"},
		{"closing stale support tickets automatically", "auto-close for stale support tickets"},
		{"O2 levels before entering the sewer chamber", "oxygen levels before entering the sewer chamber"},
		{"NH3 alarm in the ice rink plant room", "ammonia alarm in the ice rink plant room"},
		{"topping up LN2 in the sample dewars", "topping up nitrogen in the sample dewars"},
		{"paperwork a new lodger must show", "documents a new lodger must show"},
		{"walk-ins at the Saturday vaccination clinic", "walk-in patients at the Saturday vaccination clinic"},
		{"add-ons for festival weekend tickets", "festival weekend ticket add-on"},
		{"rate limits on the partner APIs", "rate limit on the partner API"},
	}
	apart := [][2]string{
		{"auto-renewal of residents' parking permits", "automatic renewal of business parking permits"},
		{"O2 cylinder storage in the workshop", "nitrogen cylinder storage in the workshop"},
		{"paperwork a new lodger must show", "deposit a new lodger must pay"},
		{"walk-ins at the Saturday vaccination clinic", "appointments at the Saturday vaccination clinic"},
	}
	topicsFound(t, found)
	topicsApart(t, apart)
}

// TestTopicNearWords: a word rewording swaps for another in a topic
// counts for most of a shared one: "late" and "delayed", "times" and
// "hours", "fixing" and "repairs", "alarm" and "alert", "reservations"
// and "bookings". Each near word of another object stays another
// question.
func TestTopicNearWords(t *testing.T) {
	t.Parallel()
	found := [][2]string{
		{"compensation when the ferry is late", "compensation for delayed ferries"},
		{"study room times at the central library", "study room hours at the central library"},
		{"fixing potholes on estate roads", "pothole repairs on estate roads"},
		{"server room temperature alarm", "server room temperature alert"},
		{"group reservations at the cafe", "group bookings at the cafe"},
	}
	apart := [][2]string{
		{"compensation when the ferry is late", "compensation when the ferry is cancelled"},
		{"fixing potholes on estate roads", "gritting estate roads"},
		{"server room temperature alarm", "server room humidity alert"},
		{"group reservations at the cafe", "group discounts at the cafe"},
	}
	topicsFound(t, found)
	topicsApart(t, apart)
}
